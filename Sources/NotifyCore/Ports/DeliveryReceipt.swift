/// What a sink says of a delivery it took (`DeliverySink.deliver(_:)`): the bubble the
/// notification server shows for it, and what it left out. The firer records it in the
/// same write as the delivery (`HandOff.receipt`), so a sink never reads or writes the store.
public struct DeliveryReceipt: Hashable, Sendable {
  /// The bubble a notification server shows for the delivery (its id, for `replaces_id`
  /// next time and for withdrawing it); nil when none was shown (stdout, badge only, an
  /// app in the foreground that shows it itself).
  public var bubble: ServerBubbleID?
  /// What the sink left out of the delivery, for the delivery record (a server without
  /// `actions` drops the buttons); nil when nothing was.
  public var note: String?

  /// A receipt; the default says nothing was shown on a server and nothing left out.
  public init(bubble: ServerBubbleID? = nil, note: String? = nil) {
    self.bubble = bubble
    self.note = note
  }
}

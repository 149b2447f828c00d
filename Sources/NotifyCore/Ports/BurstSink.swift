/// A sink that shows several deliveries of one instant with one call (the stdout sink: one
/// `write(2)` for a burst's lines), so that the reader gets the whole burst at once instead
/// of one wake-up per line. The firer confirms every claim of the burst, hands the burst
/// over, then notes what the sink took in one write (SPEC.md §6: a crash between the two
/// shows the burst again, never loses it).
///
/// Its receipts name no server bubble: what one delivery of a burst is sent with (the
/// bubble its thread replaces) never depends on the receipt of another.
public protocol BurstSink: DeliverySink {
  /// Whether bursts are shown with one call (a wrapper says what the sink inside does);
  /// false: the firer hands one delivery over after another.
  var showsBursts: Bool { get }

  /// Shows `deliveries`, in order, once `gate` opens. One answer per delivery, in order;
  /// fewer when the sink stopped at a fault (`SinkFault`, the last answer), the rest not
  /// shown.
  func deliver(burst deliveries: [Delivery], after gate: DeliveryGate) -> [Result<DeliveryReceipt, any Error>]
}

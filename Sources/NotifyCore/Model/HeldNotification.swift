import Foundation

/// An occurrence held during quiet hours, kept in the store until quiet ends for its app.
public struct HeldNotification: Hashable, Sendable {
  /// The store's key for it.
  public var key: Int64
  /// The notification as it was when it fell due.
  public var notification: LocalNotification
  /// 1-based occurrence number.
  public var occurrence: Int
  /// When it was due.
  public var fireDate: Date
  /// When it was held.
  public var heldAt: Date
  /// The bubble the desktop shows for the notification, as the release's claim read it
  /// (`Claim.bubble`): what showing it on its own replaces.
  public var bubble: ServerBubbleID?
  /// The bubble of the notification's thread that showing it replaces (`ThreadSummary`), as
  /// the release found it: read with the claim, then what the release's earlier steps of the
  /// thread left. Nil: no thread, or none of its bubbles on screen.
  public var thread: ThreadBubble?

  public init(
    key: Int64, notification: LocalNotification, occurrence: Int, fireDate: Date, heldAt: Date,
    bubble: ServerBubbleID? = nil, thread: ThreadBubble? = nil
  ) {
    self.key = key
    self.notification = notification
    self.occurrence = occurrence
    self.fireDate = fireDate
    self.heldAt = heldAt
    self.bubble = bubble
    self.thread = thread
  }
}

extension HeldNotification {
  /// For a held re-alert copy: which re-alert it is and the occurrence it re-alerts (kept in
  /// its `Realert`; 1 when it was held before copies kept it). Nil for anything else.
  public var realertCopy: (number: Int, occurrence: Int)? {
    guard let realert = notification.realert, realert.number > 0 else { return nil }
    return (realert.number, max(realert.occurrence, 1))
  }
}

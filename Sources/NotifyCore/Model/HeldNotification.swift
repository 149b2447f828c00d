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

  public init(
    key: Int64, notification: LocalNotification, occurrence: Int, fireDate: Date, heldAt: Date,
    bubble: ServerBubbleID? = nil
  ) {
    self.key = key
    self.notification = notification
    self.occurrence = occurrence
    self.fireDate = fireDate
    self.heldAt = heldAt
    self.bubble = bubble
  }
}

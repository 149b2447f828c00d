import Foundation

/// A notification on the desktop as a bubble: what it shows and the notification server's
/// id for it.
///
/// A process that stops while its bubbles are still up (an app going offline, `fire-due`,
/// `notify now`, a daemon being restarted) leaves them in the store; a firer that keeps
/// running takes them over by adopting their server ids, never by sending them again: a
/// bubble the user closed while no process listened would come back. From then on it
/// hears their clicks and closes where the server tells every connection of them (dunst
/// tells only the connection that showed the bubble, which is gone).
public struct ShownBubble: Hashable, Sendable {
  /// The notification as it was shown.
  public var notification: LocalNotification
  /// Which occurrence it shows (1-based).
  public var occurrence: Int
  /// The server's id for the bubble.
  public var serverID: UInt32

  /// Creates a bubble.
  public init(notification: LocalNotification, occurrence: Int, serverID: UInt32) {
    self.notification = notification
    self.occurrence = occurrence
    self.serverID = serverID
  }

  /// How long a left bubble waits to be taken over. Its closing is heard by nobody, so one
  /// left longer is most likely gone from the screen.
  public static let takeOverWindow: TimeInterval = 10

  /// How many bubbles a stopping process leaves, the newest: a server that never tells of
  /// closes (one that keeps every bubble in a tray) would otherwise have a long-running
  /// daemon leave thousands.
  public static let handOverLimit = 64
}

/// The bubble a thread shows on the desktop: one per app and thread, replaced in
/// place (`replaces_id`) by each delivery of the thread while it is on screen. It shows the
/// thread's latest notification and stands for every notification it showed since it was
/// new, the count its summary line gives (`ThreadSummary`).
public struct ThreadBubble: Hashable, Sendable {
  /// The server's bubble (the latest notification's `desktop_id`).
  public var bubble: ServerBubbleID
  /// The id of the notification it shows now, the thread's latest.
  public var latestID: String
  /// How many notifications it has shown since it was new, the latest included (at least 1).
  public var count: Int
  /// Whether the bubble is most likely closed although the store still knows its id: the
  /// process that showed it stopped, so nobody heard its close, and that was long ago
  /// (`ThreadSummary.likelyClosed`). A delivery still replaces it, but counts from 1.
  public var likelyClosed: Bool

  /// Creates a thread's bubble.
  public init(bubble: ServerBubbleID, latestID: String, count: Int, likelyClosed: Bool = false) {
    self.bubble = bubble
    self.latestID = latestID
    self.count = count
    self.likelyClosed = likelyClosed
  }
}

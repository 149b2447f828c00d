import Foundation
import GRDB
import NotifyCore

/// The `thread_bubble` table: the bubble each app's thread shows, as the
/// notification it shows now and how many it stood for. The bubble itself is that
/// notification's `desktop_id`, so a bubble the server closed (its id forgotten) is no
/// thread's any more. Written with the delivery that showed it, read with the claim that
/// replaces it, inside the caller's transaction.
enum ThreadTable {
  /// The bubble `app`'s `thread` shows now, nil when none is on screen as far as the store
  /// knows; marked `likelyClosed` at `now` when the process that showed it stopped long ago
  /// (`ThreadSummary.likelyClosed`).
  static func bubble(app: String, thread: String, now: Date, in db: Database) throws -> ThreadBubble? {
    try Row.fetchOne(
      db.cachedStatement(
        sql: """
          SELECT t.id, t.count, t.shown_at, t.shown_by, d.server_id, d.server FROM thread_bubble AS t
          JOIN desktop_id AS d ON d.app = t.app AND d.id = t.id
          WHERE t.app = ? AND t.thread = ?
          """),
      arguments: [app, thread]
    ).map { row in
      let shownBy = (row["shown_by"] as String?).flatMap(FirerIdentity.init)
      return ThreadBubble(
        bubble: ServerBubbleID(UInt32(truncatingIfNeeded: row["server_id"] as Int64), server: row["server"]),
        latestID: row["id"], count: row["count"],
        likelyClosed: ThreadSummary.likelyClosed(
          shownAt: (row["shown_at"] as Int64?).map(Millis.date), shownByRunning: shownBy?.isAlive ?? true,
          now: now))
    }
  }

  /// Records what `delivery`'s thread shows after the server showed it as `shown`
  /// (`ThreadSummary.after`): the thread's bubble, shown now by this process (which hears
  /// its close while it runs), and the notification it took the bubble over from loses its
  /// id. Nothing for a notification without a thread or a delivery no server showed.
  static func record(_ delivery: Delivery, shownAs shown: ServerBubbleID?, in db: Database) throws {
    let notification = delivery.notification
    guard let thread = notification.threadIdentifier,
      let next = ThreadSummary.after(delivery.thread, id: notification.id, shownAs: shown)
    else { return }
    try db.cachedStatement(
      sql: """
        INSERT INTO thread_bubble (app, thread, id, count, shown_at, shown_by) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT(app, thread) DO UPDATE SET id = excluded.id, count = excluded.count,
          shown_at = excluded.shown_at, shown_by = excluded.shown_by
        """
    ).execute(
      arguments: [
        notification.app, thread, next.latestID, next.count, Millis.from(delivery.deliveredAt),
        FirerIdentity.current.description,
      ])
    if let earlier = ThreadSummary.handedOver(from: delivery.thread, to: next) {
      try DesktopIDTable.set(nil, app: notification.app, id: earlier, in: db)
    }
  }
}

extension SQLiteStore {
  public func threadBubble(app: String, thread: String, now: Date) throws(NotifyError) -> ThreadBubble? {
    try readOneStatement { db in try ThreadTable.bubble(app: app, thread: thread, now: now, in: db) }
  }
}

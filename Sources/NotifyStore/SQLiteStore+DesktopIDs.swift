import Foundation
import GRDB
import NotifyCore

/// The `desktop_id` table: the bubble the desktop shows for each notification (the server's
/// id and the server instance that gave it), written with the delivery that showed it
/// (`DeliveryReceipt.bubble`) and read with the claim that shows it again (`Claim.bubble`),
/// inside the caller's transaction: never a transaction of its own on the hand-off path.
enum DesktopIDTable {
  /// The bubble remembered for the app's notification `id`.
  static func bubble(app: String, id: String, in db: Database) throws -> ServerBubbleID? {
    try Row.fetchOne(
      db.cachedStatement(sql: "SELECT server_id, server FROM desktop_id WHERE app = ? AND id = ?"),
      arguments: [app, id]
    ).map { ServerBubbleID(UInt32(truncatingIfNeeded: $0["server_id"] as Int64), server: $0["server"]) }
  }

  /// Remembers `bubble` for the app's notification `id`; nil forgets it.
  static func set(_ bubble: ServerBubbleID?, app: String, id: String, in db: Database) throws {
    guard let bubble else {
      try db.cachedStatement(sql: "DELETE FROM desktop_id WHERE app = ? AND id = ?").execute(arguments: [
        app, id,
      ])
      return
    }
    try db.cachedStatement(
      sql: """
        INSERT INTO desktop_id (app, id, server_id, server) VALUES (?, ?, ?, ?)
        ON CONFLICT(app, id) DO UPDATE SET server_id = excluded.server_id, server = excluded.server
        """
    ).execute(arguments: [app, id, Int64(bubble.id), bubble.server])
  }
}

extension SQLiteStore {
  /// The bubble the desktop shows for the app's notification `id` (the server's id and the
  /// server instance that gave it), as remembered by the delivery that showed it, so that
  /// another process can pass it as `replaces_id` to that same server or close it. The
  /// firer reads it with the claim (`Claim.bubble`); this is for the other ways in
  /// (`present`, withdrawing, taking over a left bubble).
  public func desktopServerID(app: String, id: String) throws(NotifyError) -> ServerBubbleID? {
    try readOneStatement { db in try DesktopIDTable.bubble(app: app, id: id, in: db) }
  }

  /// Remembers the bubble the app's notification `id` is shown as; nil forgets it (the
  /// bubble was closed, or its server went away).
  public func setDesktopServerID(_ bubble: ServerBubbleID?, app: String, id: String) throws(NotifyError) {
    try write { db in try DesktopIDTable.set(bubble, app: app, id: id, in: db) }
  }

  /// Forgets the bubbles of these notifications in one write (their server closed them or
  /// went away).
  public func forgetDesktopServerIDs(_ keys: [(app: String, id: String)]) throws(NotifyError) {
    guard !keys.isEmpty else { return }
    try write { db in
      for key in keys { try DesktopIDTable.set(nil, app: key.app, id: key.id, in: db) }
    }
  }

  /// Every remembered server id, as (app, id, server id, server instance).
  public func desktopServerIDs() throws(NotifyError) -> [(
    app: String, id: String, serverID: UInt32, server: String?
  )] {
    try read { db in
      try Row.fetchAll(db, sql: "SELECT app, id, server_id, server FROM desktop_id").map { row in
        (row["app"], row["id"], UInt32(truncatingIfNeeded: row["server_id"] as Int64), row["server"])
      }
    }
  }

  /// The app's notifications the desktop still shows, as far as the store knows, newest
  /// first: each is the `delivered` history event of a notification that has a server id
  /// (`desktop_id`: a notification server took it, and the app has not withdrawn it) and no
  /// `dismissed` event after that delivery (the server did not report it closed, by the user,
  /// on expiry or withdrawn). A delivery through another sink (stdout, in-app presentation)
  /// gets no server id and is never on screen.
  public func onScreen(app: String) throws(NotifyError) -> [HistoryEvent] {
    try read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT e.* FROM desktop_id AS d
          JOIN event AS e ON e.seq = (
            SELECT max(seq) FROM event
            WHERE app = d.app AND notification_id = d.id AND kind IN ('delivered', 'dismissed'))
          WHERE d.app = ? AND e.kind = 'delivered'
          ORDER BY e.seq DESC
          """,
        arguments: [app]
      ).map(HistoryWriter.decode)
    }
  }
}

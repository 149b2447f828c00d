import Foundation
import GRDB
import NotifyCore

extension SQLiteStore {
  /// The notification server's id for the app's notification `id` and the server instance
  /// that gave it (`DesktopSink.serverInstance`), remembered so that another process can
  /// pass it as `replaces_id` to that same server. Read before each Notify: one statement
  /// (`readOneStatement`), like the claim check before each hand-off.
  public func desktopServerID(app: String, id: String) throws(NotifyError) -> (
    serverID: UInt32, server: String?
  )? {
    try readOneStatement { db in
      try Row.fetchOne(
        db.cachedStatement(sql: "SELECT server_id, server FROM desktop_id WHERE app = ? AND id = ?"),
        arguments: [app, id]
      ).map { (UInt32(truncatingIfNeeded: $0["server_id"] as Int64), $0["server"]) }
    }
  }

  /// Remembers the id `server` gave the app's notification `id`; nil forgets it.
  public func setDesktopServerID(_ serverID: UInt32?, server: String?, app: String, id: String)
    throws(NotifyError)
  {
    try write { db in
      guard let serverID else {
        try db.execute(sql: "DELETE FROM desktop_id WHERE app = ? AND id = ?", arguments: [app, id])
        return
      }
      try db.execute(
        sql: """
          INSERT INTO desktop_id (app, id, server_id, server) VALUES (?, ?, ?, ?)
          ON CONFLICT(app, id) DO UPDATE SET server_id = excluded.server_id, server = excluded.server
          """,
        arguments: [app, id, Int64(serverID), server])
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

import Foundation
import GRDB
import NotifyCore

extension SQLiteStore {
  /// The notification server's id for the app's notification `id`, remembered so that a
  /// replacement sent by another process can pass it as `replaces_id`.
  public func desktopServerID(app: String, id: String) throws(NotifyError) -> UInt32? {
    try read { db in
      try Int64.fetchOne(
        db, sql: "SELECT server_id FROM desktop_id WHERE app = ? AND id = ?", arguments: [app, id]
      ).map { UInt32(truncatingIfNeeded: $0) }
    }
  }

  /// Remembers the server's id for the app's notification `id`; nil forgets it.
  public func setDesktopServerID(_ serverID: UInt32?, app: String, id: String) throws(NotifyError) {
    try write { db in
      guard let serverID else {
        try db.execute(sql: "DELETE FROM desktop_id WHERE app = ? AND id = ?", arguments: [app, id])
        return
      }
      try db.execute(
        sql: """
          INSERT INTO desktop_id (app, id, server_id) VALUES (?, ?, ?)
          ON CONFLICT(app, id) DO UPDATE SET server_id = excluded.server_id
          """,
        arguments: [app, id, Int64(serverID)])
    }
  }

  /// Every remembered server id, as (app, id, server id).
  public func desktopServerIDs() throws(NotifyError) -> [(app: String, id: String, serverID: UInt32)] {
    try read { db in
      try Row.fetchAll(db, sql: "SELECT app, id, server_id FROM desktop_id").map { row in
        (row["app"], row["id"], UInt32(truncatingIfNeeded: row["server_id"] as Int64))
      }
    }
  }
}

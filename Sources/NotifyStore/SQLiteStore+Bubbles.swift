import Foundation
import GRDB
import NotifyCore

extension SQLiteStore {
  /// Leaves the bubbles a stopping process still shows, for a firer that keeps running to
  /// take over (`ShownBubble`).
  public func leave(_ bubbles: [ShownBubble], at date: Date) throws(NotifyError) {
    guard !bubbles.isEmpty else { return }
    try write { db in
      for bubble in bubbles {
        try db.execute(
          sql: """
            INSERT INTO left_bubble (at, server_id, occurrence, \(ContentColumns.names))
            VALUES (?, ?, ?, \(ContentColumns.placeholders))
            """,
          arguments: [Millis.from(date), Int64(bubble.serverID), bubble.occurrence]
            + ContentColumns.values(bubble.notification))
      }
    }
  }

  /// Takes the left bubbles of `app` (every app when nil), oldest first; they are gone from
  /// the store after this call. Bubbles left longer than `ShownBubble.takeOverWindow` ago
  /// are dropped, not returned.
  ///
  /// Looks before it writes: called on every wake of a firer, it commits (and so wakes
  /// the other firers) only when there is something to take.
  public func takeLeftBubbles(app: String?, now: Date) throws(NotifyError) -> [ShownBubble] {
    let any = try read { db in
      try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM left_bubble)") ?? false
    }
    guard any else { return [] }
    return try write { db in
      try db.execute(
        sql: "DELETE FROM left_bubble WHERE at < ?",
        arguments: [Millis.from(now - ShownBubble.takeOverWindow)])
      let filter = app == nil ? "" : "WHERE app = ?"
      let rows = try Row.fetchAll(
        db, sql: "DELETE FROM left_bubble \(filter) RETURNING * ", arguments: app.map { [$0] } ?? [])
      return rows.sorted { ($0["seq"] as Int64) < ($1["seq"] as Int64) }.map { row in
        ShownBubble(
          notification: ContentColumns.notification(row, date: Millis.date(row["at"])),
          occurrence: row["occurrence"], serverID: UInt32(truncatingIfNeeded: row["server_id"] as Int64))
      }
    }
  }
}

extension SQLiteStore {
  /// What a process on the bus looks at after another process changed the store, in one
  /// read transaction: every app's badge as the launcher shows it (0 for an app whose badges
  /// the user switched off; unreadable settings show it), and whether a stopped process left
  /// bubbles to take over (`takeLeftBubbles`, a write, is asked only then).
  public func busOutlook() throws(NotifyError) -> (launcherBadges: [String: Int], bubblesLeft: Bool) {
    try read { db in
      var badges: [String: Int] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT app, count FROM badge") {
        let app: String = row["app"]
        let shown = try? SettingsTable.app(app, in: db).effective(under: SettingsTable.policy(in: db)).badges
        badges[app] = shown == false ? 0 : row["count"]
      }
      let left = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM left_bubble)") ?? false
      return (badges, left)
    }
  }
}

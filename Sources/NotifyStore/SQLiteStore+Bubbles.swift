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

import Foundation
import GRDB
import NotifyCore

extension SQLiteStore {
  static let quietKey = "quiet-hours"

  /// The user's quiet hours (never quiet when never set).
  public func quietHours() throws(NotifyError) -> QuietHours {
    try read { db in try Self.quietHours(in: db) }
  }

  /// Keeps `quiet` as the user's quiet hours.
  public func setQuietHours(_ quiet: QuietHours) throws(NotifyError) {
    try write { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO preference (key, value) VALUES (?, ?)",
        arguments: [Self.quietKey, quiet.jsonRecord.compactText])
    }
  }

  static func quietHours(in db: Database) throws -> QuietHours {
    guard
      let text = try String.fetchOne(
        db, sql: "SELECT value FROM preference WHERE key = ?", arguments: [quietKey]),
      let json = try? JSONValue.parse(text), let quiet = try? QuietHours(json: json)
    else { return QuietHours() }
    return quiet
  }

  /// The apps (of `app`, or all when nil) with occurrences held for quiet hours that no live
  /// firer is releasing.
  public func heldApps(app: String?) throws(NotifyError) -> [String] {
    try read { db in
      let filter = app == nil ? "" : "AND app = ?"
      return try Row.fetchAll(
        db.cachedStatement(sql: "SELECT DISTINCT app, claimed_by FROM held WHERE 1 \(filter)"),
        arguments: app.map { [$0] } ?? []
      ).filter { row in (row["claimed_by"] as String?).map { !ClaimOwner.isAlive($0) } ?? true }
        .map { $0["app"] as String }
    }
  }

  /// How many occurrences are held (for `notify quiet` and `notify status`).
  public func heldCount(app: String?) throws(NotifyError) -> Int {
    try read { db in
      try Int.fetchOne(
        db, sql: "SELECT count(*) FROM held \(app == nil ? "" : "WHERE app = ?")",
        arguments: app.map { [$0] } ?? [])
        ?? 0
    }
  }

  /// Claims the held occurrences of `apps` that nobody alive is releasing, for `owner` to
  /// show; oldest first.
  public func claimHeld(apps: [String], owner: FirerIdentity) throws(NotifyError) -> [HeldNotification] {
    guard !apps.isEmpty else { return [] }
    return try write { db in
      var claimed: [HeldNotification] = []
      for app in apps {
        let rows = try Row.fetchAll(
          db, sql: "SELECT * FROM held WHERE app = ? ORDER BY seq", arguments: [app])
        for row in rows {
          if let by = row["claimed_by"] as String?, ClaimOwner.isAlive(by) { continue }
          try db.execute(
            sql: "UPDATE held SET claimed_by = ? WHERE seq = ?",
            arguments: [owner.description, row["seq"] as Int64])
          claimed.append(HeldTable.decode(row))
        }
      }
      return claimed
    }
  }

  /// Gives back held occurrences that could not be shown (the sink refused): the next wake
  /// tries again.
  public func unclaimHeld(_ held: [HeldNotification]) throws(NotifyError) {
    guard !held.isEmpty else { return }
    try write { db in
      for one in held {
        try db.execute(sql: "UPDATE held SET claimed_by = NULL WHERE seq = ?", arguments: [one.key])
      }
    }
  }

  /// Records held occurrences as shown at `date`: `delivered` (late) in history, with reason
  /// `quiet-hours-summary` when they came out in the summary `summaryID`; applies the
  /// newest badge, and forgets them.
  public func markReleased(_ held: [HeldNotification], at date: Date, summaryID: String?) throws(NotifyError)
  {
    guard !held.isEmpty else { return }
    try write { db in
      for one in held.sorted(by: { $0.key < $1.key }) {
        let delivery = Delivery(
          notification: one.notification, occurrence: one.occurrence, fireDate: one.fireDate,
          deliveredAt: date,
          late: true)
        var event = HistoryEvent(delivery: delivery)
        event.detail["heldAt"] = .string(RFC3339.string(from: one.heldAt, milliseconds: true))
        if let summaryID {
          event.reason = QuietRelease.summarizedReason
          event.detail["summary"] = .string(summaryID)
        }
        try HistoryWriter.insert(event, in: db)
        if let badge = one.notification.badge {
          try BadgeTable.set(app: one.notification.app, count: badge, at: date, in: db)
        }
        try db.execute(sql: "DELETE FROM held WHERE seq = ?", arguments: [one.key])
      }
    }
  }
}

extension SQLiteStore {
  /// Records a delivery held for quiet hours that no claim stands for (`present`): history
  /// `held`, and the held row, in one transaction.
  public func recordHeld(_ delivery: Delivery) throws(NotifyError) {
    try write { db in
      try HistoryWriter.insert(HistoryEvent(delivery: delivery), in: db)
      try HeldTable.insert(delivery, in: db)
    }
  }
}

/// The `held` table.
enum HeldTable {
  static func insert(_ delivery: Delivery, in db: Database) throws {
    try db.execute(
      sql: """
        INSERT INTO held (held_at, fire_date, occurrence, \(ContentColumns.names))
        VALUES (?, ?, ?, \(ContentColumns.placeholders))
        """,
      arguments: [Millis.from(delivery.deliveredAt), Millis.from(delivery.fireDate), delivery.occurrence]
        + ContentColumns.values(delivery.notification))
  }

  static func decode(_ row: Row) -> HeldNotification {
    let fireDate = Millis.date(row["fire_date"])
    return HeldNotification(
      key: row["seq"], notification: ContentColumns.notification(row, date: fireDate),
      occurrence: row["occurrence"],
      fireDate: fireDate, heldAt: Millis.date(row["held_at"]))
  }
}

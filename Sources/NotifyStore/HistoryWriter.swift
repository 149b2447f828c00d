import Foundation
import GRDB
import NotifyCore

/// Reads and writes the `event` table.
enum HistoryWriter {
  static func insert(_ event: HistoryEvent, in db: Database) throws {
    try db.cachedStatement(
      sql: """
        INSERT INTO event (at, app, notification_id, kind, reason, occurrence, fire_at, late,
          sound_requested, sound_note, detail, writer)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, notify_writer())
        """
    ).execute(
      arguments: [
        Millis.from(event.at), event.app, event.notificationID, event.kind.rawValue, event.reason,
        event.occurrence, event.fireDate.map(Millis.from), event.late.map { $0 ? 1 : 0 },
        event.soundRequested, event.soundNote, JSONValue.object(event.detail).compactText,
      ])
    // Retention (`HistoryRetention`), in the same transaction, every 64th event.
    if db.lastInsertedRowID % HistoryRetention.pruneInterval == 0 { try prune(now: event.at, in: db) }
  }

  static func decode(_ row: Row) -> HistoryEvent {
    var detail: [String: JSONValue] = [:]
    if case .object(let members)? = try? JSONValue.parse(row["detail"]) { detail = members }
    var event = HistoryEvent(
      sequence: row["seq"], at: Millis.date(row["at"]), app: row["app"],
      notificationID: row["notification_id"],
      kind: HistoryEvent.Kind(rawValue: row["kind"]) ?? .failed, reason: row["reason"],
      occurrence: row["occurrence"], fireDate: (row["fire_at"] as Int64?).map(Millis.date),
      late: (row["late"] as Int?).map { $0 != 0 }, soundRequested: row["sound_requested"],
      soundNote: row["sound_note"], detail: detail)
    // `writer` is `PID-RANDOM` (SQLiteStore.writer).
    event.recordedBy = (row["writer"] as String?).flatMap { Int32($0.prefix { $0 != "-" }) }
    return event
  }
}

extension SQLiteStore {
  /// Appends one event to history (activations, dismissals); one that acknowledges its
  /// notification (`RealertPlanner.acknowledges`) also ends the notification's re-alerts, in
  /// the same write.
  public func record(_ event: HistoryEvent) throws(NotifyError) {
    try write { db in
      try HistoryWriter.insert(event, in: db)
      try RealertCopies.stop(for: event, in: db)
    }
  }

  /// Records a `now` delivery, the bubble it shows as (`DeliveryReceipt.bubble`), its
  /// badge and an alarm's first re-alert, in one transaction.
  public func recordPresented(_ delivery: Delivery, bubble: ServerBubbleID? = nil) throws(NotifyError) {
    try write { db in
      try HistoryWriter.insert(HistoryEvent(delivery: delivery), in: db)
      if let bubble {
        try DesktopIDTable.set(
          bubble, app: delivery.notification.app, id: delivery.notification.id, in: db)
        try ThreadTable.record(delivery, shownAs: bubble, in: db)
      }
      if let badge = delivery.notification.badge {
        try BadgeTable.set(app: delivery.notification.app, count: badge, at: delivery.deliveredAt, in: db)
      }
      try RealertCopies.plan(after: delivery, rowID: nil, in: db)
    }
  }

  /// History, newest first; all apps when `app` is nil; only the events of notifications
  /// of `thread` when given (those whose `detail.threadIdentifier` names it, with the
  /// clicks and dismissals of the same notifications).
  public func history(app: String?, limit: Int, thread: String? = nil) throws(NotifyError) -> [HistoryEvent] {
    try read { db in
      var filter = app == nil ? "" : "WHERE app = ?"
      var arguments: StatementArguments = app.map { [$0] } ?? []
      if let thread {
        filter += filter.isEmpty ? "WHERE " : " AND "
        filter += """
          (app, notification_id) IN (SELECT app, notification_id FROM event
            WHERE json_extract(detail, '$.threadIdentifier') = ?)
          """
        arguments += [thread]
      }
      arguments += [limit]
      return try Row.fetchAll(
        db, sql: "SELECT * FROM event \(filter) ORDER BY seq DESC LIMIT ?", arguments: arguments
      ).map(HistoryWriter.decode)
    }
  }

  /// The app's badge, or nil when never set.
  public func badge(app: String) throws(NotifyError) -> Int? {
    try read { db in try Int.fetchOne(db, sql: "SELECT count FROM badge WHERE app = ?", arguments: [app]) }
  }

  /// Every app's badge, for a process on the bus to publish.
  public func badges() throws(NotifyError) -> [String: Int] {
    try read { db in
      Dictionary(
        try Row.fetchAll(db, sql: "SELECT app, count FROM badge").map {
          ($0["app"] as String, $0["count"] as Int)
        }
      ) { $1 }
    }
  }

  /// Sets the app's badge (0 clears it).
  public func setBadge(app: String, count: Int, at now: Date) throws(NotifyError) {
    try Validator.badge(count)
    try write { db in try BadgeTable.set(app: app, count: count, at: now, in: db) }
  }
}

extension HistoryEvent {
  /// The `delivered` event for a delivery.
  public init(delivery: Delivery) {
    self.init(
      at: delivery.deliveredAt, app: delivery.notification.app, notificationID: delivery.notification.id,
      kind: delivery.held ? .held : .delivered,
      reason: delivery.held ? QuietRelease.heldReason : delivery.historyReason,
      occurrence: delivery.occurrence, fireDate: delivery.fireDate, late: delivery.late,
      soundRequested: delivery.soundRequested, soundNote: delivery.soundNote,
      detail: HistoryEvent.detail(of: delivery))
  }
}

/// The `badge` table.
enum BadgeTable {
  static func set(app: String, count: Int, at now: Date, in db: Database) throws {
    try db.execute(
      sql: """
        INSERT INTO badge (app, count, updated_at) VALUES (?, ?, ?)
        ON CONFLICT(app) DO UPDATE SET count = excluded.count, updated_at = excluded.updated_at
        """,
      arguments: [app, count, Millis.from(now)])
  }
}

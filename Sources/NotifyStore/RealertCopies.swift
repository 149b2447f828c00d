import Foundation
import GRDB
import NotifyCore

/// Alarms in the `notification` table (`Realert`): the pending re-alert copy of an id is a
/// row with `snoozed_occurrence` set (the occurrence it re-alerts) and a `realert` whose
/// `number` is 1 or more. Inside the caller's transaction, so that a delivery and its next
/// re-alert, or an acknowledgement and the end of the re-alerts, are one write.
enum RealertCopies {
  /// Which pending rows are re-alert copies.
  static let isCopy = "snoozed_occurrence IS NOT NULL AND json_extract(realert, '$.number') IS NOT NULL"

  /// After `delivery`: stores the re-alert that follows it (`RealertPlanner.next`), replacing
  /// an earlier re-alert copy of its id, and applies the 64 limit. None when the user's own
  /// snoozed copy of the id is pending (it comes back, and alerts again, by itself) or the
  /// notification was acknowledged since it was shown. `rowID` is the delivered row, when
  /// there is one: a copy's occurrence is the one its row re-alerts.
  static func plan(after delivery: Delivery, rowID: Int64?, in db: Database) throws {
    let n = delivery.notification
    guard n.realert != nil else { return }
    let since = RealertPlanner.acknowledgedSince(n, deliveredAt: delivery.deliveredAt)
    let acknowledged = try acknowledgement(app: n.app, id: n.id, since: since, in: db)
    // A copy's own occurrence is 1: the one it re-alerts is kept in it (and, pending, in its
    // row), so that a copy held for quiet hours and released keeps it.
    var row: Int?
    if let rowID, (n.realert?.number ?? 0) > 0, (n.realert?.occurrence ?? 0) == 0 {
      row = try Int.fetchOne(
        db, sql: "SELECT snoozed_occurrence FROM notification WHERE rowid = ?", arguments: [rowID])
    }
    let occurrence = RealertPlanner.occurrence(of: n, delivered: delivery.occurrence, row: row)
    guard
      let next = RealertPlanner.next(
        after: n, occurrence: occurrence, deliveredAt: delivery.deliveredAt,
        alerted: !delivery.suppressed.contains(.banner), acknowledged: acknowledged)
    else { return }
    let snoozed =
      try Int.fetchOne(
        db,
        sql: """
          SELECT count(*) FROM notification WHERE app = ? AND id = ? AND next_fire_at IS NOT NULL
            AND snoozed_occurrence IS NOT NULL AND json_extract(realert, '$.number') IS NULL
          """,
        arguments: [n.app, n.id]) ?? 0 > 0
    guard !snoozed else { return }
    try db.execute(
      sql: "DELETE FROM notification WHERE app = ? AND id = ? AND next_fire_at IS NOT NULL AND \(isCopy)",
      arguments: [n.app, n.id])
    _ = try NotificationRow.insert(
      next.copy, nextOccurrence: 0, nextFire: next.fireDate, resolvedZone: nil,
      snoozedOccurrence: occurrence, in: db)
    _ = try SQLiteStore.enforceLimit(app: n.app, at: delivery.deliveredAt, in: db)
  }

  /// When `event` acknowledges its notification (`RealertPlanner.acknowledges`): deletes the
  /// pending re-alert copy of the id, and re-alerts quiet hours hold that no firer is
  /// showing. Returns how many it removed.
  @discardableResult
  static func stop(for event: HistoryEvent, in db: Database) throws -> Int {
    guard RealertPlanner.acknowledges(event.kind, reason: event.reason) else { return 0 }
    try db.execute(
      sql: "DELETE FROM notification WHERE app = ? AND id = ? AND next_fire_at IS NOT NULL AND \(isCopy)",
      arguments: [event.app, event.notificationID])
    var removed = db.changesCount
    try db.execute(
      sql: """
        DELETE FROM held WHERE app = ? AND notification_id = ? AND claimed_by IS NULL
          AND json_extract(realert, '$.number') IS NOT NULL
        """,
      arguments: [event.app, event.notificationID])
    removed += db.changesCount
    return removed
  }

  /// Whether history has an acknowledgement of the id at or after `since`: the kinds
  /// `RealertPlanner.acknowledges` names, as SQL.
  private static func acknowledgement(app: String, id: String, since: Date, in db: Database) throws -> Bool {
    try Int.fetchOne(
      db,
      sql: """
        SELECT count(*) FROM event WHERE app = ? AND notification_id = ? AND at >= ?
          AND (kind IN ('activated', 'snoozed') OR (kind = 'dismissed' AND reason = ?))
        """,
      arguments: [app, id, Millis.from(since), RealertPlanner.dismissedByUser]) ?? 0 > 0
  }
}

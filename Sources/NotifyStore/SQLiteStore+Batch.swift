import Foundation
import GRDB
import NotifyCore

/// What storing a batch did: every notification as stored, in the order given, and what
/// the 64-pending limit discarded, the batch's own among them.
public struct BatchScheduleOutcome: Sendable {
  /// The notifications as stored (or as they would have been, when discarded), in order.
  public var stored: [StoredNotification]
  /// Every notification the limit discarded, each recorded in history as `discarded`.
  public var discarded: [StoredNotification]

  /// The outcome of the batch's first notification the limit discarded itself, nil when
  /// it kept them all: what `notify schedule` reports as `not scheduled`.
  public var firstNewOneDiscarded: ScheduleOutcome? {
    let gone = Set(discarded.map(\.rowID))
    guard let refused = stored.first(where: { gone.contains($0.rowID) }) else { return nil }
    return ScheduleOutcome(stored: refused, discarded: discarded, replaced: false)
  }
}

extension SQLiteStore {
  /// Stores `notifications` as `schedule` stores each, in order (a later one with the same
  /// app and id replaces an earlier one), in one transaction, then applies the 64-pending
  /// limit once per app over the result. The checks all run before the transaction: one
  /// notification the rules refuse leaves the store as it was.
  public func schedule(batch notifications: [LocalNotification], zones: Zones) throws(NotifyError)
    -> BatchScheduleOutcome
  {
    try schedule(batch: try Self.checked(notifications), zones: zones)
  }

  /// `schedule(batch:zones:)` of notifications checked on their way in, not checked again.
  public func schedule(batch notifications: [CheckedNotification], zones: Zones) throws(NotifyError)
    -> BatchScheduleOutcome
  {
    switch try schedule(batch: notifications, zones: zones, ready: nil) {
    case .stored(let outcome): return outcome
    case .notReady: preconditionFailure("every request is ready when none is required")
    }
  }

  /// What `schedule(batch:zones:ready:)` did.
  public enum GuardedBatchOutcome: Sendable {
    /// The batch is stored.
    case stored(BatchScheduleOutcome)
    /// Nothing is stored: the limit would keep these positions of the batch, which were not
    /// `ready` (their files not copied: the app's notifications changed since it was asked).
    case notReady(Set<Int>)
  }

  /// `schedule(batch:zones:)`, stored only when every request the limit keeps is in
  /// `ready` (nil: all are); otherwise rolled back, saying which were missing.
  public func schedule(batch notifications: [LocalNotification], zones: Zones, ready: Set<Int>?)
    throws(NotifyError) -> GuardedBatchOutcome
  {
    try schedule(batch: try Self.checked(notifications), zones: zones, ready: ready)
  }

  /// `schedule(batch:zones:ready:)` of notifications checked on their way in.
  public func schedule(batch notifications: [CheckedNotification], zones: Zones, ready: Set<Int>?)
    throws(NotifyError) -> GuardedBatchOutcome
  {
    var prepared: [Prepared] = []
    prepared.reserveCapacity(notifications.count)
    for notification in notifications { prepared.append(try Prepared(notification, zones: zones)) }
    return try write { db in
      guard let ready else { return .stored(try Self.store(prepared, in: db)) }
      var result: GuardedBatchOutcome?
      // (a savepoint inside the write: rolled back, the transaction commits nothing)
      try db.inSavepoint {
        let outcome = try Self.store(prepared, in: db)
        let missing = outcome.keptPositions.subtracting(ready)
        result = missing.isEmpty ? .stored(outcome) : .notReady(missing)
        return missing.isEmpty ? .commit : .rollback
      }
      return result!
    }
  }

  /// Which positions of `notifications` (all of `app`) storing them now would keep, read
  /// without writing (`PendingLimit.kept`). Refuses what `schedule(batch:)` refuses.
  public func kept(onScheduling notifications: [LocalNotification], app: String, zones: Zones)
    throws(NotifyError) -> Set<Int>
  {
    try kept(onScheduling: try Self.checked(notifications), app: app, zones: zones)
  }

  /// `kept(onScheduling:app:zones:)` of notifications checked on their way in.
  public func kept(onScheduling notifications: [CheckedNotification], app: String, zones: Zones)
    throws(NotifyError) -> Set<Int>
  {
    var arrivals: [PendingLimit.Arrival] = []
    for checked in notifications {
      let prepared = try Prepared(checked, zones: zones)
      arrivals.append(PendingLimit.Arrival(id: checked.notification.id, firstFire: prepared.first))
    }
    let pending = try read { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: "SELECT rowid, id, next_fire_at FROM notification WHERE app = ? AND next_fire_at IS NOT NULL"),
        arguments: [app]
      ).map { row in
        PendingLimit.Entry(id: row["id"], nextFire: Millis.date(row["next_fire_at"]), sequence: row["rowid"])
      }
    }
    return PendingLimit.kept(arriving: arrivals, over: pending)
  }

  /// Each of `notifications` checked, all before any is stored.
  static func checked(_ notifications: [LocalNotification]) throws(NotifyError) -> [CheckedNotification] {
    var checked: [CheckedNotification] = []
    checked.reserveCapacity(notifications.count)
    for notification in notifications { checked.append(try CheckedNotification(notification)) }
    return checked
  }

  private static func store(_ prepared: [Prepared], in db: Database) throws
    -> BatchScheduleOutcome
  {
    var stored: [StoredNotification] = []
    var apps: [(app: String, at: Date)] = []
    for item in prepared {
      stored.append(try item.insert(in: db).0)
      if !apps.contains(where: { $0.app == item.notification.app }) {
        apps.append((item.notification.app, item.notification.createdAt))
      }
    }
    var discarded: [StoredNotification] = []
    // (what the batch inserted is known: only older rows are read back to be discarded)
    let known = Dictionary(stored.map { ($0.rowID, $0) }) { _, last in last }
    for (app, at) in apps { discarded += try Self.enforceLimit(app: app, at: at, known: known, in: db) }
    return BatchScheduleOutcome(stored: stored, discarded: discarded)
  }
}

extension BatchScheduleOutcome {
  /// The positions of the batch it keeps pending: not discarded, and not replaced by a
  /// later request of the batch with the same id.
  public var keptPositions: Set<Int> {
    let gone = Set(discarded.map(\.rowID))
    func key(_ index: Int) -> String { stored[index].notification.app + "/" + stored[index].notification.id }
    var last: [String: Int] = [:]
    for index in stored.indices { last[key(index)] = index }
    return Set(stored.indices.filter { last[key($0)] == $0 && !gone.contains(stored[$0].rowID) })
  }
}

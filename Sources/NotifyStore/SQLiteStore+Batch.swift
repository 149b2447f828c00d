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
    var prepared: [Prepared] = []
    prepared.reserveCapacity(notifications.count)
    for notification in notifications { prepared.append(try Prepared(notification, zones: zones)) }
    return try write { db in
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
}

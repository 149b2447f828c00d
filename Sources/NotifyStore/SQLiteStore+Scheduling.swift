import Foundation
import GRDB
import NotifyCore

extension SQLiteStore {
  /// Stores `notification`, replacing a pending one with the same app and id (and its
  /// snoozed copy), then
  /// applies the 64-pending limit (SPEC.md §3), recording each discard in history.
  /// One transaction. When the new notification is itself discarded, it is recorded and
  /// `ScheduleOutcome.newOneDiscarded` is true.
  public func schedule(_ notification: LocalNotification, zones: Zones) throws(NotifyError)
    -> ScheduleOutcome
  {
    try schedule(try CheckedNotification(notification), zones: zones)
  }

  /// Stores a notification already checked on its way in (`RequestCodec`), as
  /// `schedule(_:zones:)` does, without checking it again.
  public func schedule(_ checked: CheckedNotification, zones: Zones) throws(NotifyError) -> ScheduleOutcome {
    let prepared = try Prepared(checked, zones: zones)
    return try write { db in
      let (stored, replaced) = try prepared.insert(in: db)
      let discarded = try Self.enforceLimit(
        app: prepared.notification.app, at: prepared.notification.createdAt, in: db)
      return ScheduleOutcome(stored: stored, discarded: discarded, replaced: replaced)
    }
  }

  /// A notification checked for storing: its rule ends settled, its first fire instant and
  /// zone found (`schedule` and `schedule(batch:)` alike).
  struct Prepared {
    var notification: LocalNotification
    let first: Date
    let resolvedZone: String?

    init(_ notification: LocalNotification, zones: Zones) throws(NotifyError) {
      try self.init(try CheckedNotification(notification), zones: zones)
    }

    init(_ checked: CheckedNotification, zones: Zones) throws(NotifyError) {
      let notification = try checked.withRuleEnds().notification
      if notification.schedule.rule != nil, notification.schedule.occurrence(0, zones: zones) == nil {
        throw notification.schedule.neverFiresError
      }
      if let farStart = notification.schedule.farStartError(now: notification.createdAt, zones: zones) {
        throw farStart
      }
      guard let first = notification.schedule.occurrence(0, zones: zones) else {
        throw NotifyError(
          .invalidData, "the notification would never fire: \(term: .until) is before its first fire date",
          fix: "move \(term: .until) after \(term: .start)")
      }
      self.notification = notification
      self.first = first
      self.resolvedZone = notification.schedule.resolvedZone(zones: zones)
    }

    /// Replaces a pending one with the same app and id (and its snoozed copy) by this one.
    func insert(in db: Database) throws -> (StoredNotification, replaced: Bool) {
      // (cached statements: a batch of 1000 compiles each once, not 1000 times)
      try db.cachedStatement(
        sql: "DELETE FROM notification WHERE app = ? AND id = ? AND next_fire_at IS NOT NULL"
      ).execute(arguments: [notification.app, notification.id])
      let replaced = db.changesCount > 0
      let rowID = try NotificationRow.insert(
        notification, nextOccurrence: 0, nextFire: first, resolvedZone: resolvedZone, in: db)
      let stored = StoredNotification(
        rowID: rowID, notification: notification, nextOccurrence: 0, nextFireDate: first)
      return (stored, replaced)
    }
  }

  /// Discards an app's pending notifications beyond the limit, recording each. Rows in
  /// `known` (just inserted by the caller) are not read back.
  static func enforceLimit(
    app: String, at now: Date, known: [Int64: StoredNotification] = [:], in db: Database
  )
    throws
    -> [StoredNotification]
  {
    let count =
      try Int.fetchOne(
        db.cachedStatement(
          sql: "SELECT count(*) FROM notification WHERE app = ? AND next_fire_at IS NOT NULL"),
        arguments: [app]) ?? 0
    guard count > PendingLimit.maximum else { return [] }
    let entries = try Row.fetchAll(
      db.cachedStatement(
        sql: "SELECT rowid, id, next_fire_at FROM notification WHERE app = ? AND next_fire_at IS NOT NULL"),
      arguments: [app]
    ).map { row in
      PendingLimit.Entry(id: row["id"], nextFire: Millis.date(row["next_fire_at"]), sequence: row["rowid"])
    }
    var discarded: [StoredNotification] = []
    let select = try db.cachedStatement(
      sql: "SELECT \(NotificationRow.columns) FROM notification WHERE rowid = ?")
    let delete = try db.cachedStatement(sql: "DELETE FROM notification WHERE rowid = ?")
    for entry in PendingLimit.overflow(of: entries) {
      let stored: StoredNotification
      if let inserted = known[entry.sequence] {
        stored = inserted
      } else {
        guard let row = try Row.fetchOne(select, arguments: [entry.sequence]) else { continue }
        stored = NotificationRow.decode(row)
      }
      try delete.execute(arguments: [entry.sequence])
      try HistoryWriter.insert(
        HistoryEvent(
          at: now, app: app, notificationID: entry.id, kind: .discarded, reason: "pending-limit",
          fireDate: entry.nextFire, detail: HistoryEvent.detail(of: stored.notification)),
        in: db)
      discarded.append(stored)
    }
    return discarded
  }

  /// Cancels the app's pending notifications with these ids, and their occurrences quiet
  /// hours hold; returns the ids that were neither (the others are cancelled anyway). One
  /// transaction.
  public func cancel(app: String, ids: [String], at now: Date) throws(NotifyError) -> [String] {
    let probes = HandOffProbes()
    defer { probes.release() }
    return try write { db in
      var missing: [String] = []
      for id in ids {
        // The notification and its snoozed copy, if any: cancelling one cancels both.
        let rows = try Row.fetchAll(
          db,
          sql:
            "SELECT \(NotificationRow.columns) FROM notification WHERE app = ? AND id = ? AND next_fire_at IS NOT NULL",
          arguments: [app, id])
        for row in rows { try cancelRow(NotificationRow.decode(row), at: now, in: db) }
        // A claim not yet handed over loses to the cancel too (`ClaimLease`): its owner
        // checks before handing over and skips it.
        let claimed = try cancelClaims(
          app: app, id: id, recording: rows.isEmpty, at: now, probes: probes, in: db)
        // What quiet hours hold is the app's to withdraw too.
        let held = try cancelHeld(app: app, id: id, at: now, probes: probes, in: db)
        if rows.isEmpty && !claimed && held.isEmpty { missing.append(id) }
      }
      return missing
    }
  }

  /// Cancels every pending notification of the app, and every occurrence quiet hours hold;
  /// returns their ids. One transaction.
  public func cancelAll(app: String, at now: Date) throws(NotifyError) -> [String] {
    let probes = HandOffProbes()
    defer { probes.release() }
    return try write { db in
      let rows = try Row.fetchAll(
        db,
        sql:
          "SELECT \(NotificationRow.columns) FROM notification WHERE app = ? AND next_fire_at IS NOT NULL ORDER BY next_fire_at, rowid",
        arguments: [app])
      for row in rows { try cancelRow(NotificationRow.decode(row), at: now, in: db) }
      var ids: [String] = []
      for row in rows where !ids.contains(row["id"]) { ids.append(row["id"]) }
      let claimedIDs = try String.fetchAll(
        db,
        sql:
          "SELECT DISTINCT json_extract(snapshot, '$.id') FROM claim WHERE json_extract(snapshot, '$.app') = ?",
        arguments: [app])
      for id in claimedIDs
      where try cancelClaims(
        app: app, id: id, recording: !ids.contains(id), at: now, probes: probes, in: db)
      {
        if !ids.contains(id) { ids.append(id) }
      }
      for id in try cancelHeld(app: app, id: nil, at: now, probes: probes, in: db) where !ids.contains(id) {
        ids.append(id)
      }
      return ids
    }
  }

  /// Deletes the claims of the app's notification `id` that their owners have not handed
  /// over and are not handing over (`HandOffProbes`); records one `cancelled` when
  /// `recording`. Returns whether there was one.
  private func cancelClaims(
    app: String, id: String, recording: Bool, at now: Date, probes: HandOffProbes, in db: Database
  ) throws -> Bool {
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT notification_rowid, occurrence, fire_at, owner, snapshot FROM claim
        WHERE json_extract(snapshot, '$.app') = ? AND json_extract(snapshot, '$.id') = ?
        """,
      arguments: [app, id])
    var cancelled: [Row] = []
    for row in rows {
      if let owner = FirerIdentity(row["owner"]) {
        let key = HandOffJournal.Key(rowID: row["notification_rowid"], occurrence: row["occurrence"])
        if probes.isHandedOver(.claim(key), journal: HandOffJournal.path(storePath: path, owner: owner)) {
          continue
        }
      }
      try db.execute(
        sql: "DELETE FROM claim WHERE notification_rowid = ? AND occurrence = ?",
        arguments: [row["notification_rowid"] as Int64, row["occurrence"] as Int])
      cancelled.append(row)
    }
    if recording, let first = cancelled.first, let notification = ClaimSnapshot.decode(first["snapshot"]) {
      try HistoryWriter.insert(
        HistoryEvent(
          at: now, app: app, notificationID: id, kind: .cancelled, fireDate: Millis.date(first["fire_at"]),
          detail: HistoryEvent.detail(of: notification)),
        in: db)
    }
    return !cancelled.isEmpty
  }

  private func cancelRow(_ stored: StoredNotification, at now: Date, in db: Database) throws {
    try db.execute(sql: "DELETE FROM notification WHERE rowid = ?", arguments: [stored.rowID])
    try HistoryWriter.insert(
      HistoryEvent(
        at: now, app: stored.notification.app, notificationID: stored.notification.id, kind: .cancelled,
        fireDate: stored.nextFireDate, detail: HistoryEvent.detail(of: stored.notification)),
      in: db)
  }

  /// Pending notifications, soonest first (ties: scheduled earlier first); all apps when
  /// `app` is nil.
  public func pending(app: String?) throws(NotifyError) -> [StoredNotification] {
    try read { db in
      let filter = app == nil ? "" : "app = ? AND"
      return try Row.fetchAll(
        db,
        sql:
          "SELECT \(NotificationRow.columns) FROM notification WHERE \(filter) next_fire_at IS NOT NULL ORDER BY next_fire_at, rowid",
        arguments: app.map { [$0] } ?? []
      ).map(NotificationRow.decode)
    }
  }

  /// The app's pending notification with `id`, if any.
  public func notification(app: String, id: String) throws(NotifyError) -> StoredNotification? {
    try read { db in
      try Row.fetchOne(
        db,
        sql:
          "SELECT \(NotificationRow.columns) FROM notification WHERE app = ? AND id = ? ORDER BY next_fire_at IS NULL, snoozed_occurrence IS NOT NULL, rowid DESC LIMIT 1",
        arguments: [app, id]
      ).map(NotificationRow.decode)
    }
  }
}

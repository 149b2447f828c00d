import Foundation
import GRDB
import NotifyCore

/// Durable claim → deliver → mark (SPEC.md §6) on the SQLite store.
///
/// A firer claims an occurrence inside one IMMEDIATE transaction that also advances the
/// notification to its next occurrence, so two firers can never claim the same one (the
/// transaction serializes them and `claim`'s primary key backs it up). The claim row
/// carries a snapshot of the notification and its owner (`pid:starttime:bootid`); a claim
/// whose owner has died is taken over by the next firer, which is the only way an
/// occurrence can be handed to a sink twice.
extension SQLiteStore: FiringStore {
  public func nextFireDate(localZone: TimeZone) throws(NotifyError) -> Date? {
    try refreshLocalZone(localZone)
    return try read { db in
      let next = try Int64.fetchOne(
        db, sql: "SELECT min(next_fire_at) FROM notification WHERE next_fire_at IS NOT NULL")
      var earliest = next.map(Millis.date)
      for row in try Row.fetchAll(db, sql: "SELECT owner, min(fire_at) AS fire_at FROM claim GROUP BY owner")
      where !ClaimOwner.isAlive(row["owner"]) {
        let date = Millis.date(row["fire_at"])
        earliest = min(earliest ?? date, date)
      }
      return earliest
    }
  }

  public func claimDue(
    now: Date, localZone: TimeZone, owner: FirerIdentity, misfireGrace: TimeInterval?, limit: Int
  ) throws(NotifyError) -> [Claim] {
    try claimDue(
      now: now, localZone: localZone, owner: owner, misfireGrace: misfireGrace, limit: limit, app: nil)
  }

  /// `claimDue` restricted to one app's notifications (and the abandoned claims of that
  /// app), for a firer inside an app that must not show other apps' notifications.
  public func claimDue(
    now: Date, localZone: TimeZone, owner: FirerIdentity, misfireGrace: TimeInterval?, limit: Int,
    app: String?
  ) throws(NotifyError) -> [Claim] {
    try write { db in
      try Self.refreshLocalZone(localZone, in: db)
      var claims = try Self.takeOver(now: now, owner: owner, limit: limit, app: app, in: db)
      let appFilter = app == nil ? "" : "AND app = ?"
      var arguments: StatementArguments = [Millis.from(now)]
      if let app { arguments += [app] }
      arguments += [max(0, limit - claims.count)]
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT \(NotificationRow.columns) FROM notification
          WHERE next_fire_at IS NOT NULL AND next_fire_at <= ? \(appFilter)
          ORDER BY next_fire_at, rowid LIMIT ?
          """,
        arguments: arguments)
      for row in rows {
        if let claim = try Self.advance(
          row, now: now, localZone: localZone, owner: owner, misfireGrace: misfireGrace, in: db)
        {
          claims.append(claim)
        }
      }
      return claims.sorted { ($0.fireDate, $0.rowID) < ($1.fireDate, $1.rowID) }
    }
  }

  public func markDelivered(_ claim: Claim, delivery: Delivery) throws(NotifyError) {
    try write { db in
      try Self.dropClaim(claim, in: db)
      var event = HistoryEvent(delivery: delivery)
      if claim.coalesced > 0 { event.detail["coalesced"] = .int(Int64(claim.coalesced)) }
      try HistoryWriter.insert(event, in: db)
      try db.execute(
        sql: "UPDATE notification SET delivered_count = delivered_count + 1 WHERE rowid = ?",
        arguments: [claim.rowID])
      if let badge = claim.notification.badge {
        try BadgeTable.set(app: claim.notification.app, count: badge, at: delivery.deliveredAt, in: db)
      }
    }
  }

  public func markFailed(_ claim: Claim, reason: String, at: Date) throws(NotifyError) {
    try write { db in
      try Self.dropClaim(claim, in: db)
      var detail = HistoryWriter.detail(of: claim.notification)
      if claim.coalesced > 0 { detail["coalesced"] = .int(Int64(claim.coalesced)) }
      try HistoryWriter.insert(
        HistoryEvent(
          at: at, app: claim.notification.app, notificationID: claim.notification.id, kind: .failed,
          reason: reason, occurrence: claim.occurrence + 1, fireDate: claim.fireDate, late: claim.late,
          detail: detail),
        in: db)
    }
  }

  public func release(_ claims: [Claim]) throws(NotifyError) {
    guard !claims.isEmpty else { return }
    try write { db in
      for claim in claims { try Self.release(claim, in: db) }
    }
  }

  /// How many notifications are pending over all apps (for the daemon's status line).
  public func pendingCount() throws(NotifyError) -> Int {
    try read { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM notification WHERE next_fire_at IS NOT NULL") ?? 0
    }
  }

  /// How many occurrences are due at `now` and not claimed by a live firer: what a firer
  /// stopped by its budget leaves for the next run.
  public func dueCount(now: Date) throws(NotifyError) -> Int {
    try read { db in
      let rows =
        try Int.fetchOne(
          db, sql: "SELECT count(*) FROM notification WHERE next_fire_at IS NOT NULL AND next_fire_at <= ?",
          arguments: [Millis.from(now)]) ?? 0
      let abandoned = try String.fetchAll(db, sql: "SELECT owner FROM claim").filter {
        !ClaimOwner.isAlive($0)
      }
      return rows + abandoned.count
    }
  }

  // MARK: - Steps, each inside the caller's transaction

  /// Plans one due row: claims the occurrence to deliver or records it as missed, and
  /// moves the row on to its next occurrence (or out of pending when finished).
  private static func advance(
    _ row: Row, now: Date, localZone: TimeZone, owner: FirerIdentity, misfireGrace: TimeInterval?,
    in db: Database
  ) throws -> Claim? {
    let stored = NotificationRow.decode(row)
    let schedule = stored.notification.schedule
    guard
      let plan = DuePlanner.plan(
        schedule, nextIndex: stored.nextOccurrence, now: now, localZone: localZone, misfireGrace: misfireGrace
      )
    else {
      // next_fire_at was stale (the zone moved, or the schedule ended): recompute it.
      let next = schedule.occurrence(stored.nextOccurrence, localZone: localZone)
      try db.execute(
        sql: "UPDATE notification SET next_fire_at = ?, resolved_zone = ? WHERE rowid = ?",
        arguments: [
          next.map(Millis.from), SQLiteStore.resolvedZone(schedule, localZone: localZone), stored.rowID,
        ])
      return nil
    }
    let occurrence = plan.action.occurrence
    try db.execute(
      sql: "UPDATE notification SET next_occurrence = ?, next_fire_at = ?, resolved_zone = ? WHERE rowid = ?",
      arguments: [
        plan.next?.index ?? occurrence.index + 1, plan.next.map { Millis.from($0.fireDate) },
        SQLiteStore.resolvedZone(schedule, localZone: localZone), stored.rowID,
      ])
    switch plan.action {
    case .miss(let missed):
      var detail = HistoryWriter.detail(of: stored.notification)
      if missed.coalesced > 0 { detail["coalesced"] = .int(Int64(missed.coalesced)) }
      try HistoryWriter.insert(
        HistoryEvent(
          at: now, app: stored.notification.app, notificationID: stored.notification.id, kind: .missed,
          reason: "misfire-grace", occurrence: missed.index + 1, fireDate: missed.fireDate, late: true,
          detail: detail),
        in: db)
      return nil
    case .deliver(let due):
      try db.execute(
        sql: """
          INSERT OR IGNORE INTO claim
            (notification_rowid, occurrence, fire_at, late, coalesced, owner, claimed_at, snapshot)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          stored.rowID, due.index, Millis.from(due.fireDate), due.late ? 1 : 0, due.coalesced,
          owner.description, Millis.from(now), ClaimSnapshot.encode(row),
        ])
      // The primary key refuses a second claim of one occurrence; indexes only move
      // forward, so this is a safety net rather than a path taken.
      guard db.changesCount == 1 else { return nil }
      return Claim(
        rowID: stored.rowID, occurrence: due.index, fireDate: due.fireDate, late: due.late,
        coalesced: due.coalesced, notification: stored.notification)
    }
  }

  /// Claims left by firers that died (or released for anyone) become this firer's.
  private static func takeOver(now: Date, owner: FirerIdentity, limit: Int, app: String?, in db: Database)
    throws -> [Claim]
  {
    guard limit > 0 else { return [] }
    var claims: [Claim] = []
    // Only what is due: a dead daemon may have claimed an occurrence just before its instant.
    let rows = try Row.fetchAll(
      db, sql: "SELECT * FROM claim WHERE fire_at <= ? ORDER BY fire_at, notification_rowid",
      arguments: [Millis.from(now)])
    for row in rows where claims.count < limit && !ClaimOwner.isAlive(row["owner"]) {
      let snapshot = ClaimSnapshot.decode(row["snapshot"])
      if let app, let snapshot, snapshot.app != app { continue }
      guard let notification = snapshot else {
        // An unreadable snapshot cannot be delivered: drop it rather than trip on it each wake-up.
        try db.execute(
          sql: "DELETE FROM claim WHERE notification_rowid = ? AND occurrence = ?",
          arguments: [row["notification_rowid"] as Int64, row["occurrence"] as Int])
        continue
      }
      try db.execute(
        sql: "UPDATE claim SET owner = ?, claimed_at = ? WHERE notification_rowid = ? AND occurrence = ?",
        arguments: [
          owner.description, Millis.from(now), row["notification_rowid"] as Int64, row["occurrence"] as Int,
        ])
      let fireDate = Millis.date(row["fire_at"])
      claims.append(
        Claim(
          rowID: row["notification_rowid"], occurrence: row["occurrence"], fireDate: fireDate,
          late: (row["late"] as Int) != 0 || now.timeIntervalSince(fireDate) > Delivery.lateTolerance,
          coalesced: row["coalesced"], notification: notification))
    }
    return claims
  }

  /// Puts an unstarted claim back: the row returns to the claimed occurrence (the first
  /// one it stood for) when nothing has moved it since; otherwise the claim stays, owned
  /// by nobody, for the next firer to take over. Either way it is delivered later.
  private static func release(_ claim: Claim, in db: Database) throws {
    let row = try Row.fetchOne(
      db, sql: "SELECT app, id, next_occurrence, next_fire_at FROM notification WHERE rowid = ?",
      arguments: [claim.rowID])
    let untouched = row.map { ($0["next_occurrence"] as Int) == claim.occurrence + 1 } ?? false
    var replaced = false
    if let row, untouched, (row["next_fire_at"] as Int64?) == nil {
      // The row had finished; it may only come back if no new one took its id meanwhile.
      replaced =
        try Int.fetchOne(
          db,
          sql: "SELECT count(*) FROM notification WHERE app = ? AND id = ? AND next_fire_at IS NOT NULL",
          arguments: [row["app"] as String, row["id"] as String]) ?? 0 > 0
    }
    if row == nil || (untouched && replaced) {
      // Cancelled or replaced since it was claimed: nothing to deliver any more.
      try dropClaim(claim, in: db)
    } else if untouched {
      try db.execute(
        sql: "UPDATE notification SET next_occurrence = ?, next_fire_at = ? WHERE rowid = ?",
        arguments: [claim.occurrence - claim.coalesced, Millis.from(claim.fireDate), claim.rowID])
      try dropClaim(claim, in: db)
    } else {
      try db.execute(
        sql: "UPDATE claim SET owner = ? WHERE notification_rowid = ? AND occurrence = ?",
        arguments: [ClaimOwner.released, claim.rowID, claim.occurrence])
    }
  }

  private static func dropClaim(_ claim: Claim, in db: Database) throws {
    try db.execute(
      sql: "DELETE FROM claim WHERE notification_rowid = ? AND occurrence = ?",
      arguments: [claim.rowID, claim.occurrence])
  }

  /// `local` rows follow the system zone: when it moved since their next fire instant was
  /// computed, compute it again. A read when nothing moved.
  private func refreshLocalZone(_ localZone: TimeZone) throws(NotifyError) {
    guard try read({ db in try Self.hasStaleLocalRows(localZone, in: db) }) else { return }
    try write { db in try Self.refreshLocalZone(localZone, in: db) }
  }

  /// Whether any pending `local` wall-clock row was computed for a zone other than
  /// `localZone`. Asked on every re-arm and claim, so it is three seeks on
  /// `notification_local_zone` (below, above, or without the zone); the planner would
  /// otherwise walk `notification_next_fire`, which grows with the store.
  private static func hasStaleLocalRows(_ localZone: TimeZone, in db: Database) throws -> Bool {
    let local = """
      SELECT 1 FROM notification INDEXED BY notification_local_zone
      WHERE next_fire_at IS NOT NULL AND time_zone = 'local' AND
      """
    return try Bool.fetchOne(
      db,
      sql: """
        SELECT EXISTS (\(local) resolved_zone IS NULL) OR EXISTS (\(local) resolved_zone < ?1)
          OR EXISTS (\(local) resolved_zone > ?1)
        """,
      arguments: [localZone.identifier]) ?? false
  }

  private static func refreshLocalZone(_ localZone: TimeZone, in db: Database) throws {
    guard try hasStaleLocalRows(localZone, in: db) else { return }
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT \(NotificationRow.columns) FROM notification WHERE next_fire_at IS NOT NULL
        AND time_zone = 'local' AND (resolved_zone IS NULL OR resolved_zone <> ?)
        """,
      arguments: [localZone.identifier])
    for row in rows {
      let stored = NotificationRow.decode(row)
      let next = stored.notification.schedule.occurrence(stored.nextOccurrence, localZone: localZone)
      try db.execute(
        sql: "UPDATE notification SET next_fire_at = ?, resolved_zone = ? WHERE rowid = ?",
        arguments: [next.map(Millis.from), localZone.identifier, stored.rowID])
    }
  }
}

import CSQLite
import Foundation
import GRDB
import NotifyCore

/// The one read of a wake-up: everything the firer needs to know of the store
/// before it decides, in one transaction, with the instants (due rows, running apps'
/// deferrals, abandoned claims, live firers' lease expiries) folded into one `next`.
extension SQLiteStore {
  public func outlook(zones: Zones, app: String? = nil) throws(NotifyError) -> FiringOutlook {
    // Marked before the read: a commit between the two shows as a change, never the reverse.
    let version = storeVersion()
    let read = try read { db -> FiringOutlook? in
      guard try !Self.hasStaleLocalRows(zones, in: db) else { return nil }
      return try outlook(zones: zones, app: app, in: db)
    }
    if var read {
      read.version = version
      return read
    }
    // The system zone moved since `local` rows were computed: compute them again first.
    var (written, mark) = try writeMarked { db in
      try Self.refreshLocalZone(zones, in: db)
      return try outlook(zones: zones, app: app, in: db)
    }
    written.version = mark
    return written
  }

  /// Counts the pending notifications in every outlook from now on (`FiringOutlook.pending`),
  /// for the daemon's status line. Off by default: the count reads every pending row's
  /// index entry (0.8 ms at 64,000), in every claim and record of the firer.
  public func countPendingInOutlook() {
    countsPending.value = true
  }

  /// The outlook as the transaction `db` sees the store (`local` rows already current).
  func outlook(zones: Zones, app: String?, in db: Database) throws -> FiringOutlook {
    let deferred = app == nil ? try Self.runningFiringApps(in: db) : []
    let held = try Self.heldApps(app: app, in: db)
    let filter = app == nil ? "" : "AND app = ?"
    let pending =
      countsPending.value
      ? try Int.fetchOne(
        db.cachedStatement(sql: "SELECT count(*) FROM notification WHERE next_fire_at IS NOT NULL \(filter)"),
        arguments: app.map { [$0] } ?? []) : nil
    let wake = try Self.earliestWake(app: app, in: db)
    guard let earliest = try Self.earliestDue(app: app, deferred: deferred, in: db) else {
      return FiringOutlook(next: nil, heldApps: held, pending: pending, wake: wake)
    }
    var arguments: StatementArguments = [Millis.from(earliest)]
    if let app { arguments += [app] }
    let count =
      try Int.fetchOne(
        db.cachedStatement(sql: "SELECT count(*) FROM notification WHERE next_fire_at = ? \(filter)"),
        arguments: arguments) ?? 0
    return FiringOutlook(next: .init(earliest, count: count), heldApps: held, pending: pending, wake: wake)
  }

  /// The earliest instant a notification that wakes the machine is due, of `app` (every
  /// app's when nil) and of the apps the user lets wake it (`NotificationSettings.wake`: the
  /// app's switch, else the default policy's, else on), with the wake lead in force; nil
  /// when none is pending. One cached statement, asked in every outlook: it walks the
  /// partial index `notification_wake_next` in order and stops at the first allowed row (a
  /// store without waking notifications answers from one empty probe of it).
  static func earliestWake(app: String?, in db: Database) throws -> WakePlanner.Due? {
    let statement = try db.cachedStatement(
      sql: """
        SELECT next_fire_at, (SELECT value FROM preference WHERE key = '\(SettingsTable.wakeLeadKey)')
        FROM notification AS n WHERE wake = 1 AND next_fire_at IS NOT NULL\(app == nil ? "" : " AND app = ?")
          AND coalesce(
            (SELECT wake FROM app_settings WHERE app_settings.app = n.app),
            (SELECT json_extract(value, '$.wake') FROM preference WHERE key = '\(SettingsTable.policyKey)'),
            1) = 1
        ORDER BY next_fire_at LIMIT 1
        """)
    guard let row = try Row.fetchOne(statement, arguments: app.map { [$0] } ?? []) else { return nil }
    return WakePlanner.Due(
      instant: Millis.date(row[0]), lead: SettingsTable.wakeLead(text: row[1]))
  }

  /// The earliest instant anything of `app`'s (every app's when nil) is due: pending rows
  /// (those of the `deferred` apps, which fire their own, `RunningAppDeferral.grace` late) and
  /// claims a firer may take over (a dead owner's at once, a live owner's when its lease ends).
  static func earliestDue(app: String?, deferred: [String], in db: Database) throws -> Date? {
    let (filter, arguments): (String, StatementArguments) = app.map { ("AND app = ?", [$0]) } ?? ("", [])
    var earliest: Date?
    if deferred.isEmpty {
      earliest = try Int64.fetchOne(
        db, sql: "SELECT min(next_fire_at) FROM notification WHERE next_fire_at IS NOT NULL \(filter)",
        arguments: arguments
      ).map(Millis.date)
    } else {
      earliest = try Int64.fetchOne(
        db,
        sql: """
          SELECT next_fire_at FROM notification WHERE next_fire_at IS NOT NULL
          AND app NOT IN (\(Self.placeholders(deferred.count))) ORDER BY next_fire_at LIMIT 1
          """, arguments: StatementArguments(deferred)
      ).map(Millis.date)
      for running in deferred {
        guard
          let next = try Int64.fetchOne(
            db,
            sql: "SELECT min(next_fire_at) FROM notification WHERE next_fire_at IS NOT NULL AND app = ?",
            arguments: [running])
        else { continue }
        let date = RunningAppDeferral.takeOver(dueAt: Millis.date(next))
        earliest = min(earliest ?? date, date)
      }
    }
    let claimFilter = app == nil ? "" : "WHERE json_extract(snapshot, '$.app') = ?"
    for row in try Row.fetchAll(
      db,
      sql:
        "SELECT owner, min(fire_at) AS fire_at, min(claimed_at) AS claimed_at FROM claim \(claimFilter) GROUP BY owner",
      arguments: arguments)
    {
      var date = Millis.date(row["fire_at"])
      if ClaimOwner.isAlive(row["owner"]) {
        date = max(date, ClaimLease.expiry(claimedAt: Millis.date(row["claimed_at"])))
      }
      earliest = min(earliest ?? date, date)
    }
    return earliest
  }

  public func isUnchanged(since version: StoreVersion) -> Bool { storeVersion() == version }

  /// The store's committed state as a mark (`StoreVersion`), read without a transaction: the
  /// two copies of the WAL index header (sqlite.org/walformat.html, "The WAL-Index Header"),
  /// whose change counter, frame count, salts and checksums every commit rewrites, read
  /// through SQLite's own mapping of the `-shm` file (`notify_sqlite_wal_index_header`).
  /// Taken before a read, a commit in between shows as a change; after a write, see
  /// `writeMarked`. Nil when the index cannot be read. Never inside a transaction of this
  /// connection.
  func storeVersion() -> StoreVersion? {
    let version = try? queue.inDatabase { db in Self.walIndexHeader(db) }
    return version ?? nil
  }

  /// `body` in one IMMEDIATE transaction, and the mark of the store as that commit left it:
  /// read inside the transaction (the write lock held, so no other commit can come between)
  /// and again after the commit, and kept only when the change counter moved by this
  /// commit alone (sqlite.org/walformat.html: every header write adds one; the first commit
  /// after a checkpoint writes it twice, restarting the WAL with new salts). A commit of
  /// another process in between makes it nil: the firer then reads, never trusts a mark
  /// that hides a change.
  ///
  /// `since` is the mark as the transaction found the store, before its own commit: equal to
  /// a mark taken earlier, nobody committed in between, so what was known at that mark still
  /// holds after this commit (`StoreVersion.carried`).
  func writeMarked<T>(_ body: (Database) throws -> T) throws(NotifyError) -> (T, StoreVersion?) {
    var before: StoreVersion?
    let result = try write { db -> T in
      let result = try body(db)
      before = Self.walIndexHeader(db)
      return result
    }
    guard let before, let after = storeVersion(), after.followsByOneCommit(before) else {
      return (result, nil)
    }
    var marked = after
    marked.since = before.bytes
    return (result, marked)
  }

  /// The two copies of the WAL index header as `db` maps them (nil when not mapped).
  static func walIndexHeader(_ db: Database) -> StoreVersion? {
    var bytes = [UInt8](repeating: 0, count: 96)
    let status = bytes.withUnsafeMutableBufferPointer { buffer in
      notify_sqlite_wal_index_header(db.sqliteConnection, buffer.baseAddress, Int32(buffer.count))
    }
    return status == 0 ? StoreVersion(bytes) : nil
  }
}

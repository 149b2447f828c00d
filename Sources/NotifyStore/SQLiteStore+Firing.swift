import Foundation
import GRDB
import NotifyCore

/// Durable claim → deliver → mark (SPEC.md §6) on the SQLite store: each method reads what
/// the core needs inside one IMMEDIATE transaction, asks `ClaimPlanner` or `ReleasePlanner`,
/// and carries out the plan in the same transaction.
///
/// Two firers can never claim the same occurrence: the transaction serializes them and
/// `claim`'s primary key backs it up. The claim row carries a snapshot of the notification
/// and its owner (`pid:starttime:bootid`); a claim whose owner has died is taken over by
/// the next firer, which is the only way an occurrence can be handed to a sink twice.
extension SQLiteStore: FiringStore {
  public func nextFireDate(zones: Zones, app: String? = nil) throws(NotifyError) -> Date? {
    try outlook(zones: zones, app: app).next?.instant
  }

  /// Apps whose own process fires their notifications now (a live `presence` that fires).
  func runningFiringApps() throws(NotifyError) -> [String] {
    try read { db in try Self.runningFiringApps(in: db) }
  }

  /// `runningFiringApps()` inside the caller's transaction.
  static func runningFiringApps(in db: Database) throws -> [String] {
    Array(Set(try presences(app: nil, in: db).filter(\.fires).map(\.app))).sorted()
  }

  static func placeholders(_ count: Int) -> String {
    Array(repeating: "?", count: count).joined(separator: ", ")
  }

  public func countDue(at instant: Date, app: String? = nil) throws(NotifyError) -> Int {
    try read { db in
      let filter = app == nil ? "" : "AND app = ?"
      var arguments: StatementArguments = [Millis.from(instant)]
      if let app { arguments += [app] }
      return try Int.fetchOne(
        db.cachedStatement(sql: "SELECT count(*) FROM notification WHERE next_fire_at = ? \(filter)"),
        arguments: arguments) ?? 0
    }
  }

  public func claimDue(
    now: Date, zones: Zones, owner: FirerIdentity, misfireGrace: TimeInterval?, limit: Int,
    app: String? = nil
  ) throws(NotifyError) -> [Claim] {
    try claimBatch(now: now, zones: zones, owner: owner, misfireGrace: misfireGrace, limit: limit, app: app)
      .claims
  }

  public func claimBatch(
    now: Date, zones: Zones, owner: FirerIdentity, misfireGrace: TimeInterval?, limit: Int,
    app: String? = nil
  ) throws(NotifyError) -> ClaimBatch {
    let ((claimed, retired), version) = try writeMarked { db in
      try Self.refreshLocalZone(zones, in: db)
      let deferred = app == nil ? try Self.runningFiringApps(in: db) : []
      // Only what is due: a dead daemon may have claimed an occurrence just before its instant.
      var journals: [String: [HandOffJournal.Key: Date]] = [:]
      // A burst's earlier batches are read again by each later one: whether an owner lives
      // is asked once per owner.
      var alive: [String: Bool] = [:]
      let others = try Row.fetchAll(
        db, sql: "SELECT * FROM claim WHERE fire_at <= ? ORDER BY fire_at, notification_rowid",
        arguments: [Millis.from(now)]
      ).map { row in self.claimRow(row, now: now, journals: &journals, alive: &alive) }
      var appFilter = app == nil ? "" : "AND app = ?"
      var arguments: StatementArguments = [Millis.from(now)]
      if let app { arguments += [app] }
      if !deferred.isEmpty {
        appFilter = "AND (app NOT IN (\(Self.placeholders(deferred.count))) OR next_fire_at <= ?)"
        arguments += StatementArguments(deferred)
        arguments += [Millis.from(RunningAppDeferral.dueBy(now: now))]
      }
      arguments += [max(0, limit)]
      let due = try Row.fetchAll(
        db,
        sql: """
          SELECT \(NotificationRow.columns) FROM notification
          WHERE next_fire_at IS NOT NULL AND next_fire_at <= ? \(appFilter)
          ORDER BY next_fire_at, rowid LIMIT ?
          """,
        arguments: arguments)
      let decoded = due.map(NotificationRow.decode)
      let plan = ClaimPlanner.plan(
        claims: others, due: decoded, now: now, zones: zones, misfireGrace: misfireGrace,
        limit: limit, app: app)
      let snapshots = Dictionary(zip(decoded.map(\.rowID), due)) { first, _ in first }
      var claims: [Claim] = []
      var missed: [HistoryEvent] = []
      for step in plan.steps {
        if case .record(let event) = step, event.kind == .missed { missed.append(event) }
        if var claim = try Self.execute(step, now: now, owner: owner, snapshots: snapshots, in: db) {
          // The bubble a hand-off replaces, read here so that the sink reads nothing.
          claim.bubble = try DesktopIDTable.bubble(
            app: claim.notification.app, id: claim.notification.id, in: db)
          if let thread = claim.notification.threadIdentifier {
            claim.thread = try ThreadTable.bubble(
              app: claim.notification.app, thread: thread, now: now, in: db)
          }
          claims.append(claim)
        }
      }
      // What handing them over needs, and what comes next, in the same transaction. A
      // setting or quiet hours that cannot be read are left to the firer to ask again.
      var settings: [String: NotificationSettings] = [:]
      var reach: [String: AppReach] = [:]
      var categories: [String: [NotificationCategory]] = [:]
      let online = claims.isEmpty ? [] : Set(((try? Self.presences(app: nil, in: db)) ?? []).map(\.app))
      for app in Set(claims.map(\.notification.app)) {
        settings[app] = try? SettingsTable.app(app, in: db).effective(under: SettingsTable.policy(in: db))
        let entry = try? String.fetchOne(
          db.cachedStatement(sql: "SELECT desktop_entry FROM app_settings WHERE app = ?"), arguments: [app])
        reach[app] = AppReach(online: online.contains(app), desktopEntry: entry ?? nil)
        // Only for apps whose claims name a category: most batches read nothing more.
        if claims.contains(where: { $0.notification.app == app && $0.notification.categoryIdentifier != nil })
        {
          categories[app] = try? CategoryTable.all(app: app, in: db)
        }
      }
      var batch = ClaimBatch(
        claims: claims.sorted { ($0.fireDate, $0.rowID) < ($1.fireDate, $1.rowID) }, settings: settings,
        quiet: claims.isEmpty ? nil : try? Self.quietHours(in: db), reach: reach, categories: categories,
        outlook: try? self.outlook(zones: zones, app: app, in: db))
      batch.missed = missed
      return (batch, try finishedJournals(Set(journals.keys), in: db))
    }
    var batch = claimed
    batch.version = version
    batch.outlook?.version = version
    // Only once the transaction that recorded their hand-offs has committed.
    for journal in retired { unlink(journal) }
    return batch
  }

  public func keepClaim(_ claim: Claim, owner: FirerIdentity, now: Date) throws(NotifyError) -> Bool {
    let claimedAt = try readOneStatement { db in
      try Int64.fetchOne(
        db.cachedStatement(
          sql: "SELECT claimed_at FROM claim WHERE notification_rowid = ? AND occurrence = ? AND owner = ?"),
        arguments: [claim.rowID, claim.occurrence, owner.description])
    }
    guard let claimedAt else { return false }
    guard now.timeIntervalSince(Millis.date(claimedAt)) > ClaimLease.renewAfter else { return true }
    return try write { db in
      try db.execute(
        sql: "UPDATE claim SET claimed_at = ? WHERE notification_rowid = ? AND occurrence = ? AND owner = ?",
        arguments: [Millis.from(now), claim.rowID, claim.occurrence, owner.description])
      return db.changesCount == 1
    }
  }

  public func beginHandOff(_ claims: [Claim], owner: FirerIdentity) throws(NotifyError) {
    try handOffJournals.beginHandOff(claims.map(HandOffJournal.Entry.init), owner: owner, storePath: path)
  }

  public func beginRelease(_ held: [HeldNotification], owner: FirerIdentity) throws(NotifyError) {
    try handOffJournals.beginHandOff(held.map { .held($0.key) }, owner: owner, storePath: path)
  }

  public func finishHandOff(owner: FirerIdentity) {
    handOffJournals.finishHandOff(owner: owner)
  }

  public func noteHandedOver(_ handOffs: [HandOff], owner: FirerIdentity) throws(NotifyError) {
    try handOffJournals.append(handOffs, owner: owner, storePath: path)
  }

  public func markDelivered(_ handOffs: [HandOff]) throws(NotifyError) {
    guard !handOffs.isEmpty else { return }
    try write { db in
      for handOff in handOffs { try Self.recordDelivered(handOff, in: db) }
    }
    handOffJournals.recorded(handOffs)
  }

  public func markDelivered(_ handOffs: [HandOff], zones: Zones, app: String? = nil) throws(NotifyError)
    -> FiringOutlook?
  {
    guard !handOffs.isEmpty else { return nil }
    // The outlook is a look ahead: a failure to read it never costs the record.
    var (outlook, version) = try writeMarked { db -> FiringOutlook? in
      for handOff in handOffs { try Self.recordDelivered(handOff, in: db) }
      try? Self.refreshLocalZone(zones, in: db)
      return try? self.outlook(zones: zones, app: app, in: db)
    }
    outlook?.version = version
    handOffJournals.recorded(handOffs)
    return outlook
  }

  /// Records a delivery in history, drops its claim, counts it, applies its badge and
  /// stores an alarm's next re-alert (`RealertCopies`). A
  /// claim already gone was recorded by the firer that took it over, or, held and never
  /// shown, cancelled meanwhile: nothing more to record.
  private static func recordDelivered(_ handOff: HandOff, recovered: Bool = false, in db: Database) throws {
    let claim = handOff.claim
    guard try dropClaim(claim, in: db) else { return }
    var event = HistoryEvent(delivery: handOff.delivery)
    if claim.coalesced > 0 { event.detail["coalesced"] = .int(Int64(claim.coalesced)) }
    if recovered { event.detail["recovered"] = .bool(true) }
    try HistoryWriter.insert(event, in: db)
    if let bubble = handOff.receipt.bubble {
      try DesktopIDTable.set(bubble, app: claim.notification.app, id: claim.notification.id, in: db)
      try ThreadTable.record(handOff.delivery, shownAs: bubble, in: db)
    }
    if handOff.delivery.held {
      // Shown when quiet ends: counted and badged then (`markReleased`).
      try HeldTable.insert(handOff.delivery, in: db)
      return
    }
    try db.cachedStatement(
      sql: "UPDATE notification SET delivered_count = delivered_count + 1 WHERE rowid = ?"
    )
    .execute(arguments: [claim.rowID])
    if let badge = claim.notification.badge {
      try BadgeTable.set(app: claim.notification.app, count: badge, at: handOff.delivery.deliveredAt, in: db)
    }
    // An alarm's next re-alert, in the write that records this one (`kill -9` loses none).
    try RealertCopies.plan(after: handOff.delivery, rowID: claim.rowID, in: db)
  }

  public func endHandOffs(owner: FirerIdentity) {
    handOffJournals.end(owner: owner)
  }

  public func markFailed(_ claim: Claim, reason: String, at: Date) throws(NotifyError) {
    try write { db in
      // Cancelled since the last attempt: the cancel is its fate.
      guard try Self.dropClaim(claim, in: db) else { return }
      var detail = HistoryEvent.detail(of: claim.notification)
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

  public func othersAreWriting() -> Bool { WALWriteLock.heldByOthers(store: path) }

  public func changedByOthers() throws(NotifyError) -> Bool {
    do {
      return try queue.inDatabase { db in
        // Nothing committed since the last look (or since this connection's own commit,
        // with nothing between): no read (`CommitWatch`).
        let header = CommitWatch.header(db.sqliteConnection)
        if commitWatch.isKnown(header) { return false }
        // `data_version` changes only for commits by other connections (sqlite.org/pragma.html).
        let version = try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
        commitWatch.looked(header)
        return dataVersion.exchange(version) != version
      }
    } catch {
      throw mapped(error)
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

  // MARK: - Carrying out plans, inside the caller's transaction

  /// A claim row as the planner sees it: the facts only the store can find out (whether
  /// its owner runs, by `/proc`; when it was claimed), and, for a claim the planner may take
  /// over (`ClaimPlanner.isAbandoned`), its snapshot and what the owner's hand-off journal
  /// says of it. Live owners' claims are not decoded and their journals not read.
  private func claimRow(
    _ claimRow: Row, now: Date, journals: inout [String: [HandOffJournal.Key: Date]],
    alive: inout [String: Bool]
  ) -> ClaimPlanner.ClaimRow {
    let row = ColumnValues(claimRow)
    let owner: String = row["owner"]
    let ownerAlive = alive[owner] ?? ClaimOwner.isAlive(owner)
    alive[owner] = ownerAlive
    var claim = ClaimPlanner.ClaimRow(
      rowID: row["notification_rowid"], occurrence: row["occurrence"], fireDate: Millis.date(row["fire_at"]),
      late: (row["late"] as Int) != 0, coalesced: row["coalesced"], ownerAlive: ownerAlive,
      claimedAt: Millis.date(row["claimed_at"]), notification: nil)
    guard ClaimPlanner.isAbandoned(claim, now: now) else { return claim }
    claim.notification = ClaimSnapshot.decode(row["snapshot"])
    if let identity = FirerIdentity(owner) {
      let journalPath = HandOffJournal.path(storePath: path, owner: identity)
      if journals[journalPath] == nil { journals[journalPath] = HandOffJournal.read(journalPath) }
      claim.handedOverAt =
        journals[journalPath]?[
          HandOffJournal.Key(rowID: row["notification_rowid"], occurrence: row["occurrence"])]
    }
    return claim
  }

  /// Of these dead firers' journals, the ones whose owner holds no claim and no held row
  /// being released any more.
  func finishedJournals(_ paths: Set<String>, in db: Database) throws -> [String] {
    guard !paths.isEmpty else { return [] }
    let owners = try String.fetchAll(
      db,
      sql:
        "SELECT DISTINCT owner FROM claim UNION SELECT DISTINCT claimed_by FROM held WHERE claimed_by IS NOT NULL"
    ).compactMap(FirerIdentity.init)
    return Array(paths.subtracting(owners.map { HandOffJournal.path(storePath: path, owner: $0) }))
  }

  /// Carries out one step; returns the claim it made this firer's, if any.
  private static func execute(
    _ step: ClaimPlanner.Step, now: Date, owner: FirerIdentity, snapshots: [Int64: Row], in db: Database
  ) throws -> Claim? {
    switch step {
    case .advance(let rowID, let nextOccurrence, let nextFireDate, let resolvedZone):
      try advance(rowID, to: nextOccurrence, at: nextFireDate, resolvedZone: resolvedZone, in: db)
    case .record(let event):
      try HistoryWriter.insert(event, in: db)
    case .drop(let rowID, let occurrence):
      try db.execute(
        sql: "DELETE FROM claim WHERE notification_rowid = ? AND occurrence = ?",
        arguments: [rowID, occurrence])
    case .recordHandOff(let handOff):
      try recordDelivered(handOff, recovered: true, in: db)
    case .takeOver(let claim):
      try db.execute(
        sql: "UPDATE claim SET owner = ?, claimed_at = ? WHERE notification_rowid = ? AND occurrence = ?",
        arguments: [owner.description, Millis.from(now), claim.rowID, claim.occurrence])
      return claim
    case .claim(let claim):
      guard let snapshot = snapshots[claim.rowID] else { return nil }
      try db.cachedStatement(
        sql: """
          INSERT OR IGNORE INTO claim
            (notification_rowid, occurrence, fire_at, late, coalesced, owner, claimed_at, snapshot)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)
          """
      ).execute(
        arguments: [
          claim.rowID, claim.occurrence, Millis.from(claim.fireDate), claim.late ? 1 : 0, claim.coalesced,
          owner.description, Millis.from(now), ClaimSnapshot.encode(snapshot),
        ])
      // The primary key refuses a second claim of one occurrence; indexes only move
      // forward, so this is a safety net rather than a path taken.
      return db.changesCount == 1 ? claim : nil
    }
    return nil
  }

  private static func advance(
    _ rowID: Int64, to nextOccurrence: Int, at nextFireDate: Date?, resolvedZone: String?, in db: Database
  ) throws {
    try db.cachedStatement(
      sql: "UPDATE notification SET next_occurrence = ?, next_fire_at = ?, resolved_zone = ? WHERE rowid = ?"
    ).execute(arguments: [nextOccurrence, nextFireDate.map(Millis.from), resolvedZone, rowID])
  }

  private static func release(_ claim: Claim, in db: Database) throws {
    let row = try Row.fetchOne(
      db, sql: "SELECT app, id, next_occurrence, next_fire_at FROM notification WHERE rowid = ?",
      arguments: [claim.rowID])
    let state = try row.map { row in
      let finished = (row["next_fire_at"] as Int64?) == nil
      var taken = false
      if finished {
        taken =
          try Int.fetchOne(
            db,
            sql: "SELECT count(*) FROM notification WHERE app = ? AND id = ? AND next_fire_at IS NOT NULL",
            arguments: [row["app"] as String, row["id"] as String]) ?? 0 > 0
      }
      return ReleasePlanner.RowState(
        nextOccurrence: row["next_occurrence"], finished: finished, idTakenByNewerRow: taken)
    }
    switch ReleasePlanner.decide(claim, row: state) {
    case .drop:
      try dropClaim(claim, in: db)
    case .restore(let occurrence):
      try db.execute(
        sql: "UPDATE notification SET next_occurrence = ?, next_fire_at = ? WHERE rowid = ?",
        arguments: [occurrence, Millis.from(claim.fireDate), claim.rowID])
      try dropClaim(claim, in: db)
    case .orphan:
      try db.execute(
        sql: "UPDATE claim SET owner = ? WHERE notification_rowid = ? AND occurrence = ?",
        arguments: [ClaimOwner.released, claim.rowID, claim.occurrence])
    }
  }

  /// Deletes `claim`; false when it was gone already.
  @discardableResult
  private static func dropClaim(_ claim: Claim, in db: Database) throws -> Bool {
    try db.cachedStatement(sql: "DELETE FROM claim WHERE notification_rowid = ? AND occurrence = ?")
      .execute(arguments: [claim.rowID, claim.occurrence])
    return db.changesCount > 0
  }

  @discardableResult
  public func recomputeWallClockRows(zones: Zones) throws(NotifyError) -> Int {
    let sql = """
      SELECT \(NotificationRow.columns) FROM notification
      WHERE next_fire_at IS NOT NULL AND wall_clock IS NOT NULL
      """
    func changes(in db: Database) throws -> [ClaimPlanner.Step] {
      let rows = try Row.fetchAll(db, sql: sql).map(NotificationRow.decode)
      let stored = Dictionary(uniqueKeysWithValues: rows.map { ($0.rowID, $0.nextFireDate) })
      return ClaimPlanner.refresh(rows, zones: zones).filter { step in
        guard case .advance(let rowID, _, let date, _) = step else { return false }
        return stored[rowID] != date
      }
    }
    // A read when nothing changed, which is every firer start but the first after an update.
    guard try !read({ db in try changes(in: db) }).isEmpty else { return 0 }
    return try write { db in
      let steps = try changes(in: db)
      for case .advance(let rowID, let next, let date, let zone) in steps {
        try Self.advance(rowID, to: next, at: date, resolvedZone: zone, in: db)
      }
      return steps.count
    }
  }

  /// Whether any pending `local` wall-clock row was computed for a zone other than
  /// `zones.local`. Asked on every re-arm and claim, so it is three seeks on
  /// `notification_local_zone` (below, above, or without the zone); the planner would
  /// otherwise walk `notification_next_fire`, which grows with the store.
  static func hasStaleLocalRows(_ zones: Zones, in db: Database) throws -> Bool {
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
      arguments: [zones.local.identifier]) ?? false
  }

  /// `local` rows follow the system zone: when it moved since their next fire instant was
  /// computed, compute it again.
  static func refreshLocalZone(_ zones: Zones, in db: Database) throws {
    guard try hasStaleLocalRows(zones, in: db) else { return }
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT \(NotificationRow.columns) FROM notification WHERE next_fire_at IS NOT NULL
        AND time_zone = 'local' AND (resolved_zone IS NULL OR resolved_zone <> ?)
        """,
      arguments: [zones.local.identifier])
    for case .advance(let rowID, let next, let date, let zone) in ClaimPlanner.refresh(
      rows.map(NotificationRow.decode), zones: zones)
    {
      try advance(rowID, to: next, at: date, resolvedZone: zone, in: db)
    }
  }
}

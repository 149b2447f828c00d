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
    try read { db in try Self.heldApps(app: app, in: db) }
  }

  /// `heldApps(app:)` inside the caller's transaction.
  static func heldApps(app: String?, in db: Database) throws -> [String] {
    let filter = app == nil ? "" : "AND app = ?"
    return try Row.fetchAll(
      db.cachedStatement(sql: "SELECT DISTINCT app, claimed_by FROM held WHERE 1 \(filter)"),
      arguments: app.map { [$0] } ?? []
    ).filter { row in (row["claimed_by"] as String?).map { !ClaimOwner.isAlive($0) } ?? true }
      .map { $0["app"] as String }
  }

  /// The occurrences held for quiet hours (only `app`'s when given), oldest first: what
  /// `notify list` shows as held.
  public func held(app: String?) throws(NotifyError) -> [HeldNotification] {
    try read { db in
      try Row.fetchAll(
        db, sql: "SELECT * FROM held \(app == nil ? "" : "WHERE app = ?") ORDER BY fire_date, seq",
        arguments: app.map { [$0] } ?? []
      ).map(HeldTable.decode)
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
  /// show; oldest first. An occurrence a dead releaser's hand-off journal lists as shown is
  /// recorded as released then (history `detail.recovered: true`) and not returned: it was
  /// shown before that firer could record it.
  public func claimHeld(apps: [String], owner: FirerIdentity, now: Date) throws(NotifyError)
    -> [HeldNotification]
  {
    guard !apps.isEmpty else { return [] }
    let (claimed, retired) = try write { db in
      var journals: [String: [Int64: HandOffJournal.Release]] = [:]
      var claimed: [HeldNotification] = []
      for app in apps {
        let rows = try Row.fetchAll(
          db, sql: "SELECT * FROM held WHERE app = ? ORDER BY seq", arguments: [app])
        for row in rows {
          let by = row["claimed_by"] as String?
          if let by, ClaimOwner.isAlive(by) { continue }
          var one = HeldTable.decode(row)
          if let shown = by.flatMap(FirerIdentity.init).flatMap({
            releaseNoted(one, by: $0, journals: &journals)
          }) {
            try Self.recordReleased(one, at: shown.at, summaryID: shown.summaryID, recovered: true, in: db)
            continue
          }
          try db.execute(
            sql: "UPDATE held SET claimed_by = ? WHERE seq = ?", arguments: [owner.description, one.key])
          // The bubble its release replaces, read here so that the sink reads nothing.
          one.bubble = try DesktopIDTable.bubble(app: one.notification.app, id: one.notification.id, in: db)
          if let thread = one.notification.threadIdentifier {
            one.thread = try ThreadTable.bubble(app: one.notification.app, thread: thread, now: now, in: db)
          }
          claimed.append(one)
        }
      }
      return (claimed, try finishedJournals(Set(journals.keys), in: db))
    }
    // Only once the transaction that recorded their releases has committed.
    for journal in retired { unlink(journal) }
    return claimed
  }

  /// What the hand-off journal of `releaser` says of `held`: shown, when and how, or nil.
  private func releaseNoted(
    _ held: HeldNotification, by releaser: FirerIdentity,
    journals: inout [String: [Int64: HandOffJournal.Release]]
  ) -> HandOffJournal.Release? {
    let path = HandOffJournal.path(storePath: path, owner: releaser)
    if journals[path] == nil { journals[path] = HandOffJournal.releases(path) }
    return journals[path]?[held.key]
  }

  /// Cancels the app's held occurrences of `id` (every one of the app's when nil), inside the
  /// caller's transaction: each is deleted and recorded `cancelled` (reason `quiet-hours`,
  /// `detail.heldAt`), unless a releaser's hand-off journal says it was shown already. Cancel
  /// wins over a release not yet under way: a releaser checks before each hand-off
  /// (`keepHeld`). Returns the ids cancelled, oldest first (an id once per occurrence).
  func cancelHeld(app: String, id: String?, at now: Date, probes: HandOffProbes, in db: Database) throws
    -> [String]
  {
    var arguments: StatementArguments = [app]
    if let id { arguments += [id] }
    let rows = try Row.fetchAll(
      db, sql: "SELECT * FROM held WHERE app = ? \(id == nil ? "" : "AND notification_id = ?") ORDER BY seq",
      arguments: arguments)
    var cancelled: [String] = []
    for row in rows {
      let one = HeldTable.decode(row)
      if let releaser = (row["claimed_by"] as String?).flatMap(FirerIdentity.init) {
        if probes.isHandedOver(.held(one.key), journal: HandOffJournal.path(storePath: path, owner: releaser))
        {
          continue
        }
      }
      try db.execute(sql: "DELETE FROM held WHERE seq = ?", arguments: [one.key])
      var detail = HistoryEvent.detail(of: one.notification)
      detail["heldAt"] = .string(RFC3339.string(from: one.heldAt, milliseconds: true))
      try HistoryWriter.insert(
        HistoryEvent(
          at: now, app: app, notificationID: one.notification.id, kind: .cancelled,
          reason: QuietRelease.heldReason, occurrence: one.occurrence, fireDate: one.fireDate, detail: detail),
        in: db)
      cancelled.append(one.notification.id)
    }
    return cancelled
  }

  /// Of `held`, those still held and claimed by `owner`: a releaser asks just before each
  /// hand-off, so that what the app cancelled meanwhile is not shown.
  public func keepHeld(_ held: [HeldNotification], owner: FirerIdentity) throws(NotifyError)
    -> [HeldNotification]
  {
    guard !held.isEmpty else { return [] }
    let kept = try readOneStatement { db in
      try Set(
        Int64.fetchAll(
          db,
          sql:
            "SELECT seq FROM held WHERE claimed_by = ? AND seq IN (\(Self.placeholders(held.count)))",
          arguments: [owner.description] + StatementArguments(held.map(\.key))))
    }
    return held.filter { kept.contains($0.key) }
  }

  /// Notes in `owner`'s hand-off journal that it showed `held` (one `write(2)`).
  public func noteReleased(
    _ held: [HeldNotification], at date: Date, summaryID: String?, owner: FirerIdentity
  ) throws(NotifyError) {
    guard !held.isEmpty else { return }
    try handOffJournals.append(released: held, at: date, summaryID: summaryID, owner: owner, storePath: path)
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
  /// newest badge, and forgets them. One shown on its own into its thread's bubble records
  /// the thread's bubble after it (`ThreadTable.record`, from the `thread` it replaced).
  public func markReleased(
    _ held: [HeldNotification], at date: Date, summaryID: String?, bubble: ServerBubbleID? = nil
  ) throws(NotifyError) {
    guard let first = held.first else { return }
    try write { db in
      for one in held.sorted(by: { $0.key < $1.key }) {
        try Self.recordReleased(one, at: date, summaryID: summaryID, in: db)
      }
      // The bubble shows the summary, or the one occurrence.
      if let bubble {
        try DesktopIDTable.set(
          bubble, app: first.notification.app, id: summaryID ?? first.notification.id, in: db)
        if summaryID == nil {
          var shown = Delivery(
            notification: first.notification, occurrence: first.occurrence, fireDate: first.fireDate,
            deliveredAt: date, late: true)
          shown.thread = first.thread
          try ThreadTable.record(shown, shownAs: bubble, in: db)
        }
      }
    }
    handOffJournals.recorded(released: held)
  }

  /// Records one held occurrence as shown (`markReleased`), inside the caller's transaction.
  private static func recordReleased(
    _ one: HeldNotification, at date: Date, summaryID: String?, recovered: Bool = false, in db: Database
  ) throws {
    let delivery = Delivery(
      notification: one.notification, occurrence: one.occurrence, fireDate: one.fireDate, deliveredAt: date,
      late: true)
    var event = HistoryEvent(delivery: delivery)
    event.detail["heldAt"] = .string(RFC3339.string(from: one.heldAt, milliseconds: true))
    if let summaryID {
      event.reason = QuietRelease.summarizedReason
      event.detail["summary"] = .string(summaryID)
    }
    if recovered { event.detail["recovered"] = .bool(true) }
    try HistoryWriter.insert(event, in: db)
    if let badge = one.notification.badge {
      try BadgeTable.set(app: one.notification.app, count: badge, at: date, in: db)
    }
    try db.execute(sql: "DELETE FROM held WHERE seq = ?", arguments: [one.key])
    try RealertCopies.plan(after: delivery, rowID: nil, in: db)
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

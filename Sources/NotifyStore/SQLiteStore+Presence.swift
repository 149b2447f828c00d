import Foundation
import GRDB
import NotifyCore

/// A process of an app that is online: its center's service runs, so it hears of its
/// notifications (clicks need not launch it) and, when `fires`, fires its own.
public struct AppPresence: Hashable, Sendable {
  /// The app.
  public var app: String
  /// The process.
  public var owner: FirerIdentity
  /// Whether it fires the app's scheduled notifications itself (a firer elsewhere leaves
  /// them to it while it lives).
  public var fires: Bool
  /// Where its deliveries go now (`desktop`, `stdout`), for the daemon; nil when not told.
  public var sink: String?
  /// What the firer found it can do to wake the machine (`WakeFacts`), for `notify status`;
  /// nil when not told.
  public var wake: WakeFacts?

  /// The app a firer for every app (`notify daemon`) is online for.
  public static let everyApp = "*"

  /// Creates a presence.
  public init(app: String, owner: FirerIdentity, fires: Bool, sink: String? = nil, wake: WakeFacts? = nil) {
    self.wake = wake
    self.app = app
    self.owner = owner
    self.fires = fires
    self.sink = sink
  }
}

extension SQLiteStore {
  /// Says that `presence`'s process is online for its app, until `leave(_:)` or its death.
  public func enter(_ presence: AppPresence, at now: Date) throws(NotifyError) {
    try write { db in
      try db.execute(
        sql:
          "INSERT OR REPLACE INTO presence (app, owner, fires, since, sink, wake) VALUES (?, ?, ?, ?, ?, ?)",
        arguments: [
          presence.app, presence.owner.description, presence.fires ? 1 : 0, Millis.from(now), presence.sink,
          presence.wake.map { $0.jsonValue.compactText },
        ])
      // Entries a crashed process left behind go with the next one of the same app.
      for owner in try String.fetchAll(
        db, sql: "SELECT owner FROM presence WHERE app = ?", arguments: [presence.app])
      where !(FirerIdentity(owner)?.isAlive ?? false) {
        try db.execute(
          sql: "DELETE FROM presence WHERE app = ? AND owner = ?", arguments: [presence.app, owner])
      }
    }
  }

  /// Records where `presence`'s deliveries go now (`notify status` shows it).
  public func noteSink(_ sink: String, of presence: AppPresence) throws(NotifyError) {
    try write { db in
      try db.execute(
        sql: "UPDATE presence SET sink = ? WHERE app = ? AND owner = ?",
        arguments: [sink, presence.app, presence.owner.description])
    }
  }

  /// Records what `presence`'s firer can do to wake the machine (`notify status` shows it).
  public func noteWake(_ facts: WakeFacts, of presence: AppPresence) throws(NotifyError) {
    try write { db in
      try db.execute(
        sql: "UPDATE presence SET wake = ? WHERE app = ? AND owner = ?",
        arguments: [facts.jsonValue.compactText, presence.app, presence.owner.description])
    }
  }

  /// Records what the last `fire-due` run found it can do to wake the machine (it keeps no
  /// presence: it exits), for `notify status` and `schedule --wake`.
  public func noteFireDueWake(_ facts: WakeFacts) throws(NotifyError) {
    try write { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO preference (key, value) VALUES (?, ?)",
        arguments: [Self.fireDueWakeKey, facts.jsonValue.compactText])
    }
  }

  /// What the last `fire-due` run found it can do to wake the machine; nil when none told.
  public func fireDueWakeFacts() throws(NotifyError) -> WakeFacts? {
    try read { db in
      try String.fetchOne(
        db, sql: "SELECT value FROM preference WHERE key = ?", arguments: [Self.fireDueWakeKey]
      )
      .flatMap { WakeFacts(json: try? JSONValue.parse($0)) }
    }
  }

  static let fireDueWakeKey = "wake.fire-due"

  /// How many pending notifications ask to wake the machine, and the earliest waking one
  /// (of the apps the user lets wake it) with the wake lead: what `notify status` shows.
  public func wakeOutlook() throws(NotifyError) -> (pending: Int, earliest: WakePlanner.Due?) {
    try read { db in
      let count =
        try Int.fetchOne(
          db, sql: "SELECT count(*) FROM notification WHERE wake = 1 AND next_fire_at IS NOT NULL") ?? 0
      return (count, try Self.earliestWake(app: nil, in: db))
    }
  }

  /// Says that `presence`'s process is no longer online.
  public func leave(_ presence: AppPresence) throws(NotifyError) {
    try write { db in
      try db.execute(
        sql: "DELETE FROM presence WHERE app = ? AND owner = ?",
        arguments: [presence.app, presence.owner.description])
    }
  }

  /// The app processes online now (all apps when `app` is nil), the longest online first;
  /// entries of processes that died are left out (and removed by the next `enter` of their
  /// app).
  public func presences(app: String? = nil) throws(NotifyError) -> [AppPresence] {
    try read { db in try Self.presences(app: app, in: db) }
  }

  /// `presences(app:)` inside the caller's transaction.
  static func presences(app: String?, in db: Database) throws -> [AppPresence] {
    let filter = app == nil ? "" : "WHERE app = ?"
    let rows = try Row.fetchAll(
      db.cachedStatement(
        sql: "SELECT app, owner, fires, sink, wake FROM presence \(filter) ORDER BY since, owner"),
      arguments: app.map { [$0] } ?? [])
    return rows.compactMap { row in
      guard let owner = FirerIdentity(row["owner"] as String), owner.isAlive else { return nil }
      return AppPresence(
        app: row["app"], owner: owner, fires: (row["fires"] as Int) != 0, sink: row["sink"],
        wake: WakeFacts(json: (row["wake"] as String?).flatMap { try? JSONValue.parse($0) }))
    }
  }

  /// The desktop entry configured for `app` (a desktop file id), or nil for the default
  /// (`APP.desktop`).
  public func desktopEntry(app: String) throws(NotifyError) -> String? {
    try read { db in
      try String.fetchOne(db, sql: "SELECT desktop_entry FROM app_settings WHERE app = ?", arguments: [app])
    }
  }

  /// Configures the desktop entry that launches `app`; nil goes back to `APP.desktop`.
  public func setDesktopEntry(_ entry: String?, app: String) throws(NotifyError) {
    try write { db in
      try db.execute(
        sql: """
          INSERT INTO app_settings (app, desktop_entry) VALUES (?, ?)
          ON CONFLICT(app) DO UPDATE SET desktop_entry = excluded.desktop_entry
          """,
        arguments: [app, entry])
    }
  }
}

extension SQLiteStore {
  /// How many occurrences are claimed by firers that are alive, and by dead ones (taken over
  /// at the next wake of any firer): what `notify status` shows.
  public func claimsHeld() throws(NotifyError) -> (alive: Int, dead: Int) {
    let owners = try read { db in try String.fetchAll(db, sql: "SELECT owner FROM claim") }
    let alive = owners.filter(ClaimOwner.isAlive).count
    return (alive, owners.count - alive)
  }
}

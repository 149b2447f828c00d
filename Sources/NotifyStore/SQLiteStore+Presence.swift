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

  /// The app a firer for every app (`notify daemon`) is online for.
  public static let everyApp = "*"

  /// Creates a presence.
  public init(app: String, owner: FirerIdentity, fires: Bool, sink: String? = nil) {
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
        sql: "INSERT OR REPLACE INTO presence (app, owner, fires, since, sink) VALUES (?, ?, ?, ?, ?)",
        arguments: [
          presence.app, presence.owner.description, presence.fires ? 1 : 0, Millis.from(now), presence.sink,
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
      db.cachedStatement(sql: "SELECT app, owner, fires, sink FROM presence \(filter) ORDER BY since, owner"),
      arguments: app.map { [$0] } ?? [])
    return rows.compactMap { row in
      guard let owner = FirerIdentity(row["owner"] as String), owner.isAlive else { return nil }
      return AppPresence(app: row["app"], owner: owner, fires: (row["fires"] as Int) != 0, sink: row["sink"])
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

import Foundation
import GRDB
import NotifyCore

extension SQLiteStore {
  /// The app's settings as kept: the user's switches and what the app asked for.
  public func appSettings(app: String) throws(NotifyError) -> AppSettings {
    try read { db in try SettingsTable.app(app, in: db) }
  }

  /// The settings of every app the store knows (with settings, notifications or history),
  /// by app id.
  public func allAppSettings() throws(NotifyError) -> [AppSettings] {
    try read { db in
      let apps = try String.fetchAll(
        db,
        sql: """
          SELECT app FROM app_settings UNION SELECT app FROM notification UNION SELECT app FROM event
          ORDER BY app
          """)
      return try apps.map { app in try SettingsTable.app(app, in: db) }
    }
  }

  /// The policy for what the user did not set per app.
  public func defaultSettings() throws(NotifyError) -> NotificationSettings {
    try read { db in try SettingsTable.policy(in: db) }
  }

  /// What is in force for `app` now: its switches over the default policy, limited to what
  /// it asked for.
  public func settingsInForce(app: String) throws(NotifyError) -> NotificationSettings {
    try read { db in try SettingsTable.app(app, in: db).effective(under: SettingsTable.policy(in: db)) }
  }

  /// Makes `change` to `app`'s switches, or to the default policy when `app` is nil.
  public func change(_ change: SettingsChange, app: String?) throws(NotifyError) {
    guard !change.isEmpty else { return }
    try write { db in
      guard let app else {
        let policy = change.applied(to: try SettingsTable.policy(in: db))
        try db.execute(
          sql: "INSERT OR REPLACE INTO preference (key, value) VALUES (?, ?)",
          arguments: [SettingsTable.policyKey, SettingsTable.text(policy)])
        return
      }
      let changed = change.applied(to: try SettingsTable.app(app, in: db))
      try db.execute(
        sql: """
          INSERT INTO app_settings (app, alerts, sounds, badges, breaks_quiet, time_sensitive)
          VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT(app) DO UPDATE SET alerts = excluded.alerts, sounds = excluded.sounds,
            badges = excluded.badges, breaks_quiet = excluded.breaks_quiet,
            time_sensitive = excluded.time_sensitive
          """,
        arguments: [
          app, changed.alerts, changed.sounds, changed.badges, changed.breaksQuietHours,
          changed.timeSensitive,
        ])
    }
  }

  /// Records that `app` asked for `kinds` (`requestAuthorization`); returns what is in force.
  public func request(_ kinds: PresentationOptions, app: String) throws(NotifyError) -> NotificationSettings {
    try write { db in
      try db.execute(
        sql: """
          INSERT INTO app_settings (app, requested) VALUES (?, ?)
          ON CONFLICT(app) DO UPDATE SET requested = excluded.requested
          """,
        arguments: [app, kinds.intersection(.all).rawValue])
      return try SettingsTable.app(app, in: db).effective(under: SettingsTable.policy(in: db))
    }
  }
}

/// The settings columns of `app_settings`, and the default policy in `preference`.
enum SettingsTable {
  static let policyKey = "settings.default"

  static func app(_ app: String, in db: Database) throws -> AppSettings {
    guard
      let row = try Row.fetchOne(
        db,
        sql:
          "SELECT alerts, sounds, badges, breaks_quiet, time_sensitive, requested FROM app_settings WHERE app = ?",
        arguments: [app])
    else { return AppSettings(app: app) }
    return AppSettings(
      app: app, alerts: row["alerts"], sounds: row["sounds"], badges: row["badges"],
      breaksQuietHours: row["breaks_quiet"], timeSensitive: row["time_sensitive"],
      requested: (row["requested"] as Int?).map { PresentationOptions(rawValue: $0) })
  }

  static func policy(in db: Database) throws -> NotificationSettings {
    let allow = NotificationSettings.allowAll
    guard
      let text = try String.fetchOne(
        db, sql: "SELECT value FROM preference WHERE key = ?", arguments: [policyKey]),
      case .object(let members)? = try? JSONValue.parse(text)
    else { return allow }
    func flag(_ key: String, _ fallback: Bool) -> Bool {
      if case .bool(let value)? = members[key] { return value }
      return fallback
    }
    return NotificationSettings(
      alerts: flag("alerts", allow.alerts), sounds: flag("sounds", allow.sounds),
      badges: flag("badges", allow.badges),
      breaksQuietHours: flag("breaksQuietHours", allow.breaksQuietHours),
      timeSensitive: flag("timeSensitive", allow.timeSensitive))
  }

  static func text(_ policy: NotificationSettings) -> String {
    var r = JSONRecord(capacity: 4)
    r.set("alerts", policy.alerts)
    r.set("sounds", policy.sounds)
    r.set("badges", policy.badges)
    r.set("breaksQuietHours", policy.breaksQuietHours)
    r.set("timeSensitive", policy.timeSensitive)
    return r.compactText
  }
}

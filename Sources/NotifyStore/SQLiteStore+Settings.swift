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
          INSERT INTO app_settings (app, alerts, sounds, badges, breaks_quiet, time_sensitive, wake)
          VALUES (?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT(app) DO UPDATE SET alerts = excluded.alerts, sounds = excluded.sounds,
            badges = excluded.badges, breaks_quiet = excluded.breaks_quiet,
            time_sensitive = excluded.time_sensitive, wake = excluded.wake
          """,
        arguments: [
          app, changed.alerts, changed.sounds, changed.badges, changed.breaksQuietHours,
          changed.timeSensitive, changed.wake,
        ])
    }
  }

  /// How long before a waking notification's instant the machine is woken (every app's;
  /// `WakePlanner.defaultLead` until the user sets one).
  public func wakeLead() throws(NotifyError) -> TimeInterval {
    try read { db in try SettingsTable.wakeLead(in: db) }
  }

  /// Sets the wake lead (checked: `Validator.wakeLead`).
  public func setWakeLead(_ lead: TimeInterval) throws(NotifyError) {
    try Validator.wakeLead(lead)
    try write { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO preference (key, value) VALUES (?, ?)",
        arguments: [SettingsTable.wakeLeadKey, String(Int64((lead * 1000).rounded()))])
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
  /// The wake lead, in milliseconds.
  static let wakeLeadKey = "wake.lead"

  static func wakeLead(in db: Database) throws -> TimeInterval {
    wakeLead(
      text: try String.fetchOne(
        db.cachedStatement(sql: "SELECT value FROM preference WHERE key = ?"), arguments: [wakeLeadKey]))
  }

  /// The lead the stored text says (milliseconds), the default when none or unreadable.
  static func wakeLead(text: String?) -> TimeInterval {
    guard let text, let millis = Int64(text), millis >= 0 else { return WakePlanner.defaultLead }
    return min(TimeInterval(millis) / 1000, WakePlanner.leadRange.upperBound)
  }

  static func app(_ app: String, in db: Database) throws -> AppSettings {
    guard
      let row = try Row.fetchOne(
        db,
        sql:
          "SELECT alerts, sounds, badges, breaks_quiet, time_sensitive, wake, requested FROM app_settings WHERE app = ?",
        arguments: [app])
    else { return AppSettings(app: app) }
    return AppSettings(
      app: app, alerts: row["alerts"], sounds: row["sounds"], badges: row["badges"],
      breaksQuietHours: row["breaks_quiet"], timeSensitive: row["time_sensitive"], wake: row["wake"],
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
      timeSensitive: flag("timeSensitive", allow.timeSensitive), wake: flag("wake", allow.wake))
  }

  static func text(_ policy: NotificationSettings) -> String {
    var r = JSONRecord(capacity: 4)
    r.set("alerts", policy.alerts)
    r.set("sounds", policy.sounds)
    r.set("badges", policy.badges)
    r.set("breaksQuietHours", policy.breaksQuietHours)
    r.set("timeSensitive", policy.timeSensitive)
    r.set("wake", policy.wake)
    return r.compactText
  }
}

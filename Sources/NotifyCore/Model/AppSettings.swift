/// One app's notification settings as the store keeps them: the user's own switches (nil:
/// not set, the default policy decides) and the kinds the app asked for
/// (`requestAuthorization`; nil: it never asked, so nothing is held back for that).
public struct AppSettings: Hashable, Sendable {
  public var app: String
  public var alerts: Bool?
  public var sounds: Bool?
  public var badges: Bool?
  public var breaksQuietHours: Bool?
  public var timeSensitive: Bool?
  /// Whether its notifications may wake the machine (`NotificationSettings.wake`).
  public var wake: Bool?
  /// What the app asked for, if it ever asked.
  public var requested: PresentationOptions?

  /// Settings with nothing set and nothing asked.
  public init(
    app: String, alerts: Bool? = nil, sounds: Bool? = nil, badges: Bool? = nil, breaksQuietHours: Bool? = nil,
    timeSensitive: Bool? = nil, wake: Bool? = nil, requested: PresentationOptions? = nil
  ) {
    self.timeSensitive = timeSensitive
    self.wake = wake
    self.app = app
    self.alerts = alerts
    self.sounds = sounds
    self.badges = badges
    self.breaksQuietHours = breaksQuietHours
    self.requested = requested
  }

  /// What is in force: each switch the user set, else the default policy's; a kind the app
  /// asked for, when it asked, is required too (as on iOS, an app that registered for
  /// alerts only plays no sounds).
  public func effective(under policy: NotificationSettings) -> NotificationSettings {
    let asked = requested ?? .all
    return NotificationSettings(
      alerts: (alerts ?? policy.alerts) && asked.contains(.banner),
      sounds: (sounds ?? policy.sounds) && asked.contains(.sound),
      badges: (badges ?? policy.badges) && asked.contains(.badge),
      breaksQuietHours: breaksQuietHours ?? policy.breaksQuietHours,
      timeSensitive: timeSensitive ?? policy.timeSensitive, wake: wake ?? policy.wake)
  }

  /// The JSON `notify settings --json` prints for the app: what is in force, what the user
  /// set (`set`, only the switches set), and what the app asked for (`requested`, null when
  /// it never asked).
  public func jsonRecord(under policy: NotificationSettings) -> JSONRecord {
    let inForce = effective(under: policy)
    let switches: [(String, Bool?)] = [
      ("alerts", alerts), ("sounds", sounds), ("badges", badges), ("breaksQuietHours", breaksQuietHours),
      ("timeSensitive", timeSensitive), ("wake", wake),
    ]
    let set = Dictionary(
      uniqueKeysWithValues: switches.compactMap { key, value in value.map { (key, JSONValue.bool($0)) } })
    var r = JSONRecord(capacity: 8)
    r.set("app", app)
    r.set("alerts", inForce.alerts)
    r.set("sounds", inForce.sounds)
    r.set("badges", inForce.badges)
    r.set("breaksQuietHours", inForce.breaksQuietHours)
    r.set("timeSensitive", inForce.timeSensitive)
    r.set("wake", inForce.wake)
    r.set("set", .object(set))
    let asked: JSONValue = requested.map { .array($0.kindNames.map { .string($0) }) } ?? .null
    r.set("requested", asked)
    return r
  }
}

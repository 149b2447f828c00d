/// A change the user makes to notification settings (`notify settings --alerts off ...`):
/// each switch given is set, the others are left as they are.
public struct SettingsChange: Hashable, Sendable {
  public var alerts: Bool?
  public var sounds: Bool?
  public var badges: Bool?
  public var breaksQuietHours: Bool?
  public var timeSensitive: Bool?
  public var wake: Bool?

  public init(
    alerts: Bool? = nil, sounds: Bool? = nil, badges: Bool? = nil, breaksQuietHours: Bool? = nil,
    timeSensitive: Bool? = nil, wake: Bool? = nil
  ) {
    self.wake = wake
    self.alerts = alerts
    self.sounds = sounds
    self.badges = badges
    self.breaksQuietHours = breaksQuietHours
    self.timeSensitive = timeSensitive
  }

  /// True when it sets nothing.
  public var isEmpty: Bool { self == SettingsChange() }

  /// `settings` with this change made.
  public func applied(to settings: NotificationSettings) -> NotificationSettings {
    NotificationSettings(
      alerts: alerts ?? settings.alerts, sounds: sounds ?? settings.sounds, badges: badges ?? settings.badges,
      breaksQuietHours: breaksQuietHours ?? settings.breaksQuietHours,
      timeSensitive: timeSensitive ?? settings.timeSensitive, wake: wake ?? settings.wake)
  }

  /// `settings` with this change made to the user's switches.
  public func applied(to settings: AppSettings) -> AppSettings {
    var changed = settings
    changed.alerts = alerts ?? settings.alerts
    changed.sounds = sounds ?? settings.sounds
    changed.badges = badges ?? settings.badges
    changed.breaksQuietHours = breaksQuietHours ?? settings.breaksQuietHours
    changed.timeSensitive = timeSensitive ?? settings.timeSensitive
    changed.wake = wake ?? settings.wake
    return changed
  }
}

/// What the user lets an app do (`UNNotificationSettings`; the per-app switches of GNOME
/// and KDE): show alerts, play sounds, set its badge, and break through quiet hours.
public struct NotificationSettings: Hashable, Sendable {
  /// Bubbles (and stdout lines).
  public var alerts: Bool
  /// Sounds.
  public var sounds: Bool
  /// The launcher badge.
  public var badges: Bool
  /// Shown during quiet hours instead of held.
  public var breaksQuietHours: Bool
  /// Its time-sensitive notifications (`InterruptionLevel.timeSensitive`) are shown during
  /// quiet hours (iOS's per-app "Time Sensitive Notifications", on unless the user says no).
  public var timeSensitive: Bool
  /// Its notifications that ask to (`LocalNotification.wake`) wake the machine from suspend
  /// (KAlarm's per-alarm wake, Android's exact alarms): on unless the user says no.
  public var wake: Bool

  /// Creates settings.
  public init(
    alerts: Bool, sounds: Bool, badges: Bool, breaksQuietHours: Bool, timeSensitive: Bool = true,
    wake: Bool = true
  ) {
    self.alerts = alerts
    self.sounds = sounds
    self.badges = badges
    self.breaksQuietHours = breaksQuietHours
    self.timeSensitive = timeSensitive
    self.wake = wake
  }

  /// The policy for apps the user has not set: everything allowed, as Linux desktops do,
  /// except breaking through quiet hours (time-sensitive notifications do, as on iOS).
  public static let allowAll = NotificationSettings(
    alerts: true, sounds: true, badges: true, breaksQuietHours: false)

  /// The kinds allowed, as presentation options (an alert is a banner).
  public var allowed: PresentationOptions {
    var options: PresentationOptions = []
    if alerts { options.insert(.banner) }
    if sounds { options.insert(.sound) }
    if badges { options.insert(.badge) }
    return options
  }
}

extension PresentationOptions {
  /// The kinds named as in `notify settings`: `alerts`, `sounds`, `badges`.
  public var kindNames: [String] {
    [(PresentationOptions.banner, "alerts"), (.sound, "sounds"), (.badge, "badges")].compactMap {
      contains($0.0) ? $0.1 : nil
    }
  }
}

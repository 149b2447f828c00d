import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

extension LocalNotificationCenter {
  /// Asks for the kinds of notification the app wants to use (`requestAuthorization`,
  /// `registerUserNotificationSettings:`): alerts (`.banner`), sounds, badges. There is no
  /// prompt on Linux: what is granted is what the user's settings for the app allow
  /// (`notify settings`; apps the user has not set follow the default policy, which allows
  /// all), limited to what was asked. Kinds not asked for are not presented. Returns what is
  /// granted.
  @discardableResult
  package func requestAuthorization(_ kinds: PresentationOptions) throws(NotifyError) -> PresentationOptions {
    try store.request(kinds, app: app).allowed
  }

  /// What the user lets the app do now (`currentUserNotificationSettings`).
  package func settingsInForce() throws(NotifyError) -> NotificationSettings {
    try store.settingsInForce(app: app)
  }
}

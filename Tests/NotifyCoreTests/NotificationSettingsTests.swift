import Foundation
import Testing

@testable import NotifyCore

@Suite("Per-app settings: what is in force, and what a delivery keeps")
struct NotificationSettingsTests {
  let policy = NotificationSettings.allowAll

  @Test("a switch the user set wins over the policy; a kind the app did not ask for is off")
  func effective() {
    #expect(AppSettings(app: "a").effective(under: policy) == policy)
    let quiet = NotificationSettings(alerts: true, sounds: false, badges: true, breaksQuietHours: false)
    #expect(AppSettings(app: "a").effective(under: quiet).sounds == false)
    #expect(AppSettings(app: "a", sounds: true).effective(under: quiet).sounds == true)
    let askedForAlerts = AppSettings(app: "a", sounds: true, requested: .banner).effective(under: policy)
    #expect(askedForAlerts.allowed == .banner)
  }

  func delivery(title: String? = "t", sound: SoundName = .default, badge: Int? = 3) -> Delivery {
    let now = Date(timeIntervalSince1970: 1_900_000_000)
    return Delivery(
      notification: LocalNotification(
        id: "n", app: "a", schedule: Schedule(fireDate: .instant(now)), title: title, sound: sound,
        badge: badge,
        createdAt: now),
      occurrence: 1, fireDate: now, deliveredAt: now, late: false)
  }

  @Test("settings take out what they do not allow and note only what the notification had")
  func applied() {
    // Sounds off: silent, the rest shown, sounds noted
    var silent = delivery()
    silent.apply(NotificationSettings(alerts: true, sounds: false, badges: true, breaksQuietHours: false))
    #expect(silent.presentation == [.banner, .badge] && silent.suppressed == .sound)
    #expect(silent.historyReason == nil)
    // Alerts off: the reason says so
    var hidden = delivery()
    hidden.apply(NotificationSettings(alerts: false, sounds: true, badges: true, breaksQuietHours: false))
    #expect(hidden.suppressed == .banner && hidden.historyReason == Delivery.alertsOffReason)
    // A notification without text or badge loses nothing it had to alerts or badges off
    var soundOnly = delivery(title: nil, badge: nil)
    soundOnly.apply(NotificationSettings(alerts: false, sounds: true, badges: false, breaksQuietHours: false))
    #expect(soundOnly.suppressed.isEmpty && soundOnly.historyReason == nil)
    // An app showing it itself is in-app, whatever the settings
    var inApp = delivery()
    inApp.presentation = .none
    inApp.apply(NotificationSettings(alerts: false, sounds: false, badges: false, breaksQuietHours: false))
    #expect(inApp.suppressed.isEmpty && inApp.historyReason == Delivery.inAppReason)
  }

  @Test(
    "quiet hours hold by level: critical never, time-sensitive only where the app's switch is off",
    arguments: [
      (InterruptionLevel.passive, true, true), (.active, true, true), (.timeSensitive, false, true),
      (.critical, false, false),
    ])
  func holdsByLevel(level: InterruptionLevel, heldWithSwitchOn: Bool, heldWithSwitchOff: Bool) {
    let n = LocalNotification(
      id: "n", app: "a", schedule: Schedule(fireDate: .instant(Date())), interruptionLevel: level,
      createdAt: Date())
    let on = NotificationSettings.allowAll
    var off = on
    off.timeSensitive = false
    #expect(QuietRelease.holds(n, quiet: true, settings: on) == heldWithSwitchOn)
    #expect(QuietRelease.holds(n, quiet: true, settings: off) == heldWithSwitchOff)
    // Not quiet, or an app let through: nothing is held
    #expect(!QuietRelease.holds(n, quiet: false, settings: off))
    var through = off
    through.breaksQuietHours = true
    #expect(!QuietRelease.holds(n, quiet: true, settings: through))
  }
}

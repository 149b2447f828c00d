import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyTestSupport
import NotifyZones
import Testing

/// An app asks for the kinds it wants and learns what it was granted; what it presents
/// honours the user's settings.
@Suite(.ownThreads)
struct AuthorizationTests {
  let folder = TemporaryFolder(prefix: "notify-authorization")
  let clock = ManualClock(now: Date(timeIntervalSince1970: 1_795_000_000))
  let sink = RecordingSink()

  @Test("an app is granted what it asked for that the user allows, and presents only that")
  func grantedIsAskedAndAllowed() throws {
    // Given the user switched sounds off for chat (another process: the notify command)
    let store = try SQLiteStore(path: folder.file("notify.db"))
    try store.change(SettingsChange(sounds: false), app: "chat")
    let center = try LocalNotificationCenter(app: "chat", store: store, sink: sink, clock: clock)
    // When chat asks for alerts and sounds
    let granted = try center.ownStore.requestAuthorization([.banner, .sound])
    // Then it gets alerts only, and its settings say badges are off too (it did not ask)
    #expect(granted == .banner)
    #expect(try center.ownStore.settingsInForce().allowed == .banner)
    // When it presents a notification with a sound and a badge
    let delivery = try center.ownStore.present(NotificationContent(title: "hi", sound: .default, badge: 2))
    // Then the sink got it silent and without a badge, and history notes what was held back
    let shown = try #require(sink.deliveries.first)
    #expect(shown.presentation == .banner && shown.suppressed == [.sound, .badge])
    #expect(delivery.suppressed == [.sound, .badge])
    #expect(
      try center.ownStore.recordedHistory().first?.detail["suppressed"]
        == .array([.string("sounds"), .string("badges")]))
    // And the stored badge still counts
    #expect(try center.ownStore.badge() == 2)
  }
}

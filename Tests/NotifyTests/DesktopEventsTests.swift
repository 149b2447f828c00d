import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyTestSupport
import NotifyZones
import Testing

/// The center on a real desktop: a private session bus with dunst under Xvfb, started by
/// `.ci/desktop-session.sh`. Activations and dismissals come back through `events`.
@Suite(.serialized, .ownThreads, .needsHeadlessDesktop)
struct DesktopEventsTests {
  let folder = TemporaryFolder(prefix: "notify-desktop")

  @Test func activatingADeliveredNotificationIsAnEventWithItsUserInfo() async throws {
    // Given a center delivering to dunst, with its service relaying the desktop's answers
    let session = try HeadlessDesktop()
    defer { session.stop() }
    let sink = try DesktopSink(configuration: .init(busAddress: session.busAddress))
    let center = try LocalNotificationCenter(
      app: "chat", store: try SQLiteStore(path: folder.file("notify.db")), sink: sink)
    let events = center.events
    let outcome: NotificationEvent? = try await whileRunning({ try await center.firingService().run() }) {
      // (once the service runs: the app is online then, and a click reaches it)
      guard await eventually(timeout: 10, { center.isFiring }) else { return nil }
      // When a message is presented and the user clicks it (dunst's default action)
      try center.ownStore.present(
        NotificationContent(
          body: "SteveJ: Hello, world!", sound: .default, badge: 1, userInfo: ["sender": .string("SteveJ")]),
        id: "m1")
      let shown = await eventually(timeout: 10) {
        (try? session.dunstctl("count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines)) == "1"
      }
      guard shown else { return nil }
      try session.dunstctl("action", "0")
      for await event in events where event.kind != .delivered { return event }
      return nil
    }
    // Then the activation arrives with the default action key and the userInfo
    let event = try #require(outcome, "no activation arrived")
    #expect(event.kind == .activated(actionKey: "default"))
    #expect(event.notification.id == "m1")
    #expect(event.userInfo == ["sender": .string("SteveJ")])
    // And it is in history
    let history = try center.ownStore.recordedHistory()
    #expect(history.first?.kind == .activated)
    #expect(history.first?.reason == "default")
  }

  @Test func closingADeliveredNotificationIsADismissal() async throws {
    // Given a center delivering to dunst, with its service relaying
    let session = try HeadlessDesktop()
    defer { session.stop() }
    let sink = try DesktopSink(configuration: .init(busAddress: session.busAddress))
    let center = try LocalNotificationCenter(
      app: "chat", store: try SQLiteStore(path: folder.file("notify.db")), sink: sink)
    let events = center.events
    let service = center.firingService(firesScheduledNotifications: false)
    let outcome: NotificationEvent? = try await whileRunning({ try await service.run() }) {
      // When a notification is shown and the user closes it
      try center.ownStore.present(NotificationContent(title: "Lunch", body: "12:30"), id: "lunch")
      let shown = await eventually(timeout: 10) {
        (try? session.dunstctl("count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines)) == "1"
      }
      guard shown else { return nil }
      try session.dunstctl("close")
      for await event in events where event.kind != .delivered { return event }
      return nil
    }
    // Then a dismissal by the user arrives and is recorded
    let event = try #require(outcome, "no dismissal arrived")
    #expect(event.kind == .dismissed(reason: "dismissed-by-user"))
    #expect(event.notification.id == "lunch")
    #expect(try center.ownStore.recordedHistory().first?.kind == .dismissed)
  }
}

import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyTestSupport
import NotifyZones
import Testing

/// `present` during quiet hours, in an app embedding the library.
@Suite(.ownThreads)
struct QuietPresentTests {
  let folder = TemporaryFolder(prefix: "notify-quiet")
  let clock = ManualClock(now: Date(timeIntervalSince1970: 1_795_000_000))
  let sink = RecordingSink()

  @Test("present during quiet hours holds the notification; the app's next firing pass after quiet shows it")
  func presentIsHeld() throws {
    // Given quiet hours on, and an app's center
    let store = try SQLiteStore(path: folder.file("notify.db"))
    try store.setQuietHours(QuietHours().turnedOn(until: nil, at: clock.now()))
    let center = try LocalNotificationCenter(app: "chat", store: store, sink: sink, clock: clock)
    // When it presents a message, and a critical one
    let held = try center.ownStore.present(NotificationContent(title: "ada", body: "lunch?"), id: "m1")
    try center.ownStore.present(NotificationContent(title: "fire", urgency: .critical), id: "c1")
    // Then only the critical one reaches the sink; the message is held, in history and the store
    #expect(held.held)
    #expect(sink.deliveries.map(\.notification.id) == ["c1"])
    #expect(try center.ownStore.recordedHistory().map(\.kind).contains(.held))
    #expect(try store.heldCount(app: "chat") == 1)
    // When quiet ends and the app fires what is due
    try store.setQuietHours(try store.quietHours().turnedOff(at: clock.now(), in: .utc))
    clock.advance(by: 60)
    _ = try center.ownStore.deliverDueNow()
    // Then the message is shown, late, once
    #expect(sink.deliveries.map(\.notification.id) == ["c1", "m1"])
    #expect(sink.deliveries.last?.late == true)
    #expect(try store.heldCount(app: "chat") == 0)
  }
}

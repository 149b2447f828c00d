import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyTestSupport
import NotifyZones
import Testing

/// In an app embedding the library, `cancel` withdraws what quiet hours hold.
@Suite(.ownThreads)
struct QuietCancelTests {
  let folder = TemporaryFolder(prefix: "notify-quiet-cancel")
  let clock = ManualClock(now: Date(timeIntervalSince1970: 1_795_000_000))
  let sink = RecordingSink()

  @Test("cancel(id:) and cancelAll() withdraw held notifications; quiet ending then shows nothing")
  func cancelWithdrawsHeld() async throws {
    // Given quiet hours on, and three messages an app presented, held
    let store = try SQLiteStore(path: folder.file("notify.db"))
    try store.setQuietHours(QuietHours().turnedOn(until: nil, at: clock.now()))
    let center = try LocalNotificationCenter(app: "chat", store: store, sink: sink, clock: clock)
    for id in ["m1", "m2", "m3"] {
      try center.ownStore.present(NotificationContent(title: "ada", body: id), id: id)
    }
    #expect(try await center.held().map(\.notification.id) == ["m1", "m2", "m3"])
    // When the app cancels one by id, then all the others
    let one = try center.ownStore.cancel(id: "m1")
    let rest = try center.ownStore.cancelAll()
    // Then each took effect and is recorded cancelled; nothing is held
    #expect(one)
    #expect(rest == ["m2", "m3"])
    #expect(
      try center.ownStore.recordedHistory().filter { $0.kind == .cancelled }.map(\.notificationID).sorted()
        == [
          "m1", "m2", "m3",
        ])
    #expect(try await center.held().isEmpty)
    // When quiet ends and the app fires what is due
    try store.setQuietHours(try store.quietHours().turnedOff(at: clock.now(), in: .utc))
    clock.advance(by: 60)
    _ = try center.ownStore.deliverDueNow()
    // Then nothing is shown
    #expect(sink.deliveries.isEmpty)
  }
}

import Foundation
import NotifyCore
import NotifyFiring
import NotifyStore
import NotifyTestSupport
import Testing

/// During a release, a held notification the app cancels after a releaser
/// claimed it, but before its hand-off, is not shown (a cancel wins unless the hand-off is
/// under way).
@Suite("Quiet hours: a cancel during a release")
struct HeldCancelReleaseTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  @Test(
    "two held; the app cancels the second while the first is being shown: only the first comes out",
    arguments: EngineDriver.allCases)
  func cancelDuringRelease(driver: EngineDriver) throws {
    // Given two notifications held for quiet hours
    let f = try FiringFixture()
    let clock = ManualClock(now: now)
    let sink = RecordingSink()
    let run = EngineRun(driver, store: f.store, sink: sink, clock: clock)
    try f.store.setQuietHours(QuietHours().turnedOn(until: nil, at: now))
    try f.schedule("first", at: now)
    try f.schedule("second", at: now)
    try run.look()
    #expect(f.ids(.held) == ["first", "second"])
    // When quiet ends, and the app (another process) cancels the second as the first is shown
    try f.store.setQuietHours(try f.store.quietHours().turnedOff(at: now, in: .utc))
    clock.advance(by: 60)
    let app = try f.openAgain()
    let missing = Locked<[String]?>(nil)
    sink.onDeliver = { delivery in
      guard delivery.notification.id == "first" else { return }
      missing.value = try? app.cancel(app: "test", ids: ["second"], at: clock.now())
    }
    try run.look()
    // Then the cancel took effect, only the first was shown, and nothing is held
    #expect(missing.value == [])
    #expect(sink.deliveries.map(\.notification.id) == ["first"])
    #expect(f.ids(.delivered) == ["first"])
    #expect(f.ids(.cancelled) == ["second"])
    #expect(try f.store.heldCount(app: nil) == 0)
  }
}

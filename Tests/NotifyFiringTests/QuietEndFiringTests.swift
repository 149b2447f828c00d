import Foundation
import NotifyCore
import NotifyFiring
import NotifyStore
import NotifyTestSupport
import Testing

/// A firer that holds a notification for quiet hours shows it when they
/// end by themselves (`quiet on --for`, a nightly window), with nobody turning quiet off
/// and no restart: the end of quiet is a deadline it arms while anything is held.
@Suite(.ownThreads)
struct QuietEndFiringTests {
  @Test(
    "quiet on for a few seconds, one due during them: held, then shown by the same firer when they end",
    arguments: StdoutFirer.allCases)
  func shownWhenQuietEnds(firer: StdoutFirer) throws {
    // Given a firer, and quiet hours on for a few seconds: 4, or more when a loaded machine
    // let them end before the firer looked (the notification then shown at once, after
    // their end, which tests nothing; shown before their end is a failure)
    var setUp: (FiringFixture, StdoutFiring)?
    for window in [4, 12, 36] {
      let f = try FiringFixture()
      let firing = try StdoutFiring(f, firer)
      let onAt = Date()
      let on = try notify(["quiet", "on", "--for", "\(window)s"], db: f.path)
      #expect(on.status == 0, "\(on.stderr)")
      // When a notification falls due during them
      try f.schedule("a", at: Date() + (firer == .fireDue ? 0 : 0.5))
      try firing.act()
      // Then it is held, and nothing is shown
      _ = waitUntil(timeout: 10) { f.ids(.held) == ["a"] || !firing.printed.isEmpty }
      if let shown = firing.printed.first, shown.deliveredAt >= onAt + Double(window) {
        firing.stop()
        continue
      }
      setUp = (f, firing)
      break
    }
    let (f, firing) = try #require(setUp, "quiet hours of 4, 12 and 36 s all ended before the firer looked")
    #expect(waitUntil(timeout: 10) { f.ids(.held) == ["a"] }, "\(firing.log)")
    #expect(firing.printed.isEmpty)
    // When quiet hours end by themselves (fire-due arms nothing: it is the next run after
    // they ended that releases)
    if firer == .fireDue {
      #expect(waitUntil(timeout: 15, interval: 0.25) { QuietState.of(f)?.quiet == false })
      try firing.act()
    }
    // Then the same firer shows it, once and late, records it delivered, and holds nothing
    #expect(waitUntil(timeout: 20) { !firing.printed.isEmpty }, "\(firing.log)")
    #expect(waitUntil(timeout: 10) { f.ids(.delivered) == ["a"] }, "\(firing.log)")
    #expect(firing.printed.map(\.id) == ["a"])
    #expect(firing.printed.first?.late == true)
    #expect(QuietState.of(f) == QuietState(quiet: false, held: 0))
    firing.stop()
  }
}

/// The same in process, on a manual clock: the wake-up that holds asks to be woken when
/// quiet ends, for manual quiet with an end and for a nightly window.
@Suite("Quiet hours: the wake that holds arms the end of quiet")
struct QuietEndDeadlineTests {
  /// 2027-01-15 23:00 UTC.
  let lateEvening = Date(timeIntervalSince1970: 1_800_054_000)

  @Test(
    "quiet for 5 minutes: the wake that holds is to be followed by one at their end, which shows it",
    arguments: [EngineDriver.daemon, .app])
  func manualQuietWithAnEnd(driver: EngineDriver) throws {
    // Given quiet hours on for 5 minutes, and a resident firer
    let f = try FiringFixture()
    let clock = ManualClock(now: lateEvening)
    try f.store.setQuietHours(QuietHours().turnedOn(until: lateEvening + 300, at: lateEvening))
    let sink = RecordingSink()
    let run = EngineRun(driver, store: f.store, sink: sink, clock: clock)
    // When a notification falls due and the firer wakes for it
    try f.schedule("a", at: lateEvening)
    let next = try run.look()
    // Then it is held, and the firer asks to be woken when quiet ends
    #expect(f.ids(.held) == ["a"])
    #expect(next == lateEvening + 300)
    // When it is woken then
    clock.set(lateEvening + 300)
    #expect(try run.look() == nil)
    // Then it shows the held one, late, and asks for nothing more
    #expect(sink.deliveries.map(\.notification.id) == ["a"])
    #expect(sink.deliveries.first?.late == true)
    #expect(try f.store.heldCount(app: nil) == 0)
  }

  @Test(
    "a nightly window 22:00–07:00: the wake that holds at 23:00 is to be followed by one at 07:00",
    arguments: [EngineDriver.daemon, .app])
  func nightlyWindow(driver: EngineDriver) throws {
    // Given quiet hours every night from 22:00 to 07:00 (UTC), 23:00 now, and a resident firer
    let f = try FiringFixture()
    let clock = ManualClock(now: lateEvening)
    try f.store.setQuietHours(
      QuietHours(schedule: QuietSchedule(from: .init(hour: 22, minute: 0), to: .init(hour: 7, minute: 0))))
    let sink = RecordingSink()
    let run = EngineRun(driver, store: f.store, sink: sink, clock: clock)
    // When a notification falls due, and one more is due at 09:00
    try f.schedule("night", at: lateEvening)
    try f.schedule("morning", at: lateEvening + 10 * 3600)
    let next = try run.look()
    // Then the first is held, and the firer asks to be woken at 07:00, before the 09:00 one
    #expect(f.ids(.held) == ["night"])
    let seven = lateEvening + 8 * 3600
    #expect(next == seven)
    // When it is woken then
    clock.set(seven)
    try run.look()
    // Then it shows the held one, and nothing stays held
    #expect(sink.deliveries.map(\.notification.id) == ["night"])
    #expect(try f.store.heldCount(app: nil) == 0)
  }
}

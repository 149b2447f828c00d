import Foundation
import NotifyCore
import NotifyFiring
import NotifyStore
import NotifyTestSupport
import Testing

/// What quiet hours held is shown once when they end, even when recording that
/// it was shown fails (the store busy) or the releasing firer dies before it could record.
@Suite("Quiet hours: a released notification is never shown twice")
struct QuietReleaseOnceTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  /// Quiet hours on, and `ids` held by `run`'s firer.
  func hold(_ ids: [String], _ f: FiringFixture, _ run: EngineRun) throws {
    try f.store.setQuietHours(QuietHours().turnedOn(until: nil, at: now))
    for id in ids { try f.schedule(id, at: now) }
    try run.look()
    #expect(try f.store.heldCount(app: nil) == ids.count)
    #expect(try f.events(.held).map(\.notificationID) == ids)
  }

  func endQuiet(_ f: FiringFixture, _ clock: ManualClock) throws {
    try f.store.setQuietHours(try f.store.quietHours().turnedOff(at: clock.now(), in: .utc))
    clock.advance(by: 60)
  }

  @Test(
    "the store busy as a release is recorded: shown once, recorded delivered once by a later look",
    arguments: EngineDriver.allCases)
  func busyStoreAfterTheHandOff(driver: EngineDriver) throws {
    // Given one notification a firer held for quiet hours
    let f = try FiringFixture()
    let clock = ManualClock(now: now)
    let store = BusyReleaseStore(f.store)
    let sink = RecordingSink()
    let run = EngineRun(driver, store: store, sink: sink, clock: clock)
    try hold(["a"], f, run)
    // When quiet ends and the firer shows it, but recording that fails once (store busy)
    try endQuiet(f, clock)
    store.failReleases(1)
    let next = try run.look()
    #expect(store.failedReleases == 1)
    #expect(sink.deliveries.map(\.notification.id) == ["a"])
    // (a resident firer asks to be woken to record it)
    if driver != .fireDue { #expect(next == clock.now() + Firer.recordRetry) }
    // And the firer looks again, twice
    clock.advance(by: 5)
    try run.look()
    try run.look()
    // Then it was handed to the sink exactly once, is recorded delivered once, and nothing is held
    #expect(sink.deliveries.map(\.notification.id) == ["a"])
    #expect(try f.events(.delivered).map(\.notificationID) == ["a"])
    #expect(try f.store.heldCount(app: nil) == 0)
  }

  @Test(
    "a releaser that dies between showing and recording: the next firer records it, shows nothing",
    arguments: EngineDriver.allCases)
  func releaserDiesAfterTheHandOff(driver: EngineDriver) throws {
    // Given one notification held by a firer that will die (an identity no process has)
    let f = try FiringFixture()
    let clock = ManualClock(now: now)
    let store = BusyReleaseStore(f.store)
    let firstSink = RecordingSink()
    let first = EngineRun(driver, store: store, sink: firstSink, clock: clock, identity: deadFirer)
    try hold(["a"], f, first)
    // When quiet ends and it shows the held one, but every record of that fails (store busy)
    // until it is gone
    try endQuiet(f, clock)
    store.failReleases(100)
    try first.look()
    #expect(firstSink.deliveries.map(\.notification.id) == ["a"])
    #expect(try f.store.heldCount(app: nil) == 1)
    // And another firer (another process: its own connection) looks
    let secondSink = RecordingSink()
    let second = EngineRun(driver, store: try f.openAgain(), sink: secondSink, clock: clock)
    clock.advance(by: 5)
    try second.look()
    // Then it shows nothing, and records the one the first showed as delivered, recovered
    #expect(secondSink.deliveries.isEmpty)
    let delivered = try f.events(.delivered)
    #expect(delivered.map(\.notificationID) == ["a"])
    #expect(delivered.first?.detail["recovered"] == .bool(true))
    #expect(try f.store.heldCount(app: nil) == 0)
    // And the dead firer's hand-off journal, all recorded now, is gone
    let journal = "\(f.path)-handoff-\(deadFirer.pid)-\(deadFirer.startTime)-\(deadFirer.bootID.prefix(8))"
    #expect(!FileManager.default.fileExists(atPath: journal))
  }

  @Test(
    "a summary of five, the store busy as it is recorded: the bubble is shown once, each held one recorded once",
    arguments: EngineDriver.allCases)
  func busyStoreAfterASummary(driver: EngineDriver) throws {
    // Given five notifications of one app held
    let f = try FiringFixture()
    let clock = ManualClock(now: now)
    let store = BusyReleaseStore(f.store)
    let sink = RecordingSink()
    let run = EngineRun(driver, store: store, sink: sink, clock: clock)
    try hold(["n1", "n2", "n3", "n4", "n5"], f, run)
    // When quiet ends, the summary is shown, and recording it fails once
    try endQuiet(f, clock)
    store.failReleases(1)
    try run.look()
    clock.advance(by: 5)
    try run.look()
    // Then one summary bubble came out, and each of the five is recorded delivered once
    #expect(sink.deliveries.count == 1)
    #expect(sink.deliveries.first?.notification.id.hasPrefix("quiet-") == true)
    #expect(try f.events(.delivered).map(\.notificationID).sorted() == ["n1", "n2", "n3", "n4", "n5"])
    #expect(try f.store.heldCount(app: nil) == 0)
  }
}

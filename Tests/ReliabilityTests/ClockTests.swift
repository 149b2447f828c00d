import Foundation
import Logging
import Notify
import NotifyCore
import NotifyDesktop
import NotifyFiring
import NotifySound
import NotifyStore
import NotifyTestSupport
import NotifyZones
import Testing

/// The wall clock jumping and the machine sleeping, against the real firing engine and a
/// real SQLite file, with the time source injected (SPEC.md §6: set forwards, what became
/// due fires at once; set backwards, nothing twice; after downtime one coalesced late
/// occurrence per repeating notification).
@Suite("Reliability: clock jumps and suspend", .ownThreads)
struct ClockTests {
  let start = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z
  let utc = testZone("UTC")

  /// Who fires: the daemon's engine over every app, or an app's center firing its own.
  enum Driver: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case daemon, app
    var testDescription: String { rawValue }
  }

  /// A fresh store, a clock standing at `start`, and a firer delivering into a recorder.
  final class Rig: @unchecked Sendable {
    let folder = TemporaryFolder(prefix: "notify-clock")
    let store: SQLiteStore
    let clock: ManualClock
    let sink = Recorder()
    let fireBatch: () throws -> Firer.BatchReport

    init(start: Date, driver: Driver) throws {
      store = try SQLiteStore(path: folder.file("notify.db"))
      clock = ManualClock(now: start)
      var logger = Logger(label: "notify.reliability")
      logger.logLevel = .warning  // each delivery logs at info: hundreds of lines here
      switch driver {
      case .daemon:
        let firer = Firer(
          store: store, sink: sink, identity: .current, clock: clock, logger: logger,
          options: .init(claimAhead: FiringLoop.claimAhead))
        fireBatch = { try firer.fireBatch() }
      case .app:
        let center = try LocalNotificationCenter(app: "clock", store: store, sink: sink, clock: clock)
        fireBatch = {
          var report = Firer.BatchReport()
          report.delivered = try center.ownStore.deliverDueNow()
          report.claimed = report.delivered
          return report
        }
      }
    }

    /// Schedules `id` at `date`, optionally repeating.
    func schedule(_ id: String, at date: Date, repeat unit: RepeatInterval? = nil) throws {
      let n = LocalNotification(
        id: id, app: "clock", schedule: Schedule(fireDate: .instant(date), repeatInterval: unit),
        title: id, createdAt: clock.now())
      _ = try store.schedule(n, zones: testZones(clock.zones.local))
    }

    /// Runs batches until one delivers nothing (as the daemon does on one wake-up).
    @discardableResult
    func fire() throws -> Int {
      var total = 0
      while true {
        let report = try fireBatch()
        total += report.delivered
        if report.claimed == 0 { return total }
      }
    }

    /// `id#occurrence` of every delivery so far.
    var keys: [String] { sink.deliveries.map { "\($0.notification.id)#\($0.occurrence)" } }
  }

  @Test("set forwards by 2 h: what became due fires at once, each once", arguments: Driver.allCases)
  func forwardJump(driver: Driver) throws {
    // Given two one-shots 10 min and 90 min ahead, an hourly repeat from 30 min ahead and a
    // one-shot 3 h ahead, nothing due yet
    let rig = try Rig(start: start, driver: driver)
    try rig.schedule("in10m", at: start + 600)
    try rig.schedule("in90m", at: start + 5400)
    try rig.schedule("hourly", at: start + 1800, repeat: .hour)
    try rig.schedule("in3h", at: start + 10_800)
    #expect(try rig.fire() == 0)
    // When the clock is set 2 h forwards and the firer wakes (twice: a re-arm may come twice)
    rig.clock.advance(by: 7200)
    try rig.fire()
    try rig.fire()
    // Then the two one-shots and one occurrence of the repeat fired, once each, late;
    // the 3 h one did not
    #expect(rig.keys.sorted() == ["hourly#2", "in10m#1", "in90m#1"])
    #expect(rig.sink.deliveries.allSatisfy { $0.late })
    // And the repeat waits for its next instant, 2.5 h after the old now
    #expect(try rig.store.nextFireDate(zones: testZones(utc)) == start + 9000)
  }

  @Test(
    "set backwards by 1 h after deliveries: nothing fires twice as the clock catches up",
    arguments: Driver.allCases)
  func backwardJump(driver: Driver) throws {
    // Given a minutely repeat and two one-shots, delivered up to start + 2 min
    let rig = try Rig(start: start, driver: driver)
    try rig.schedule("minutely", at: start, repeat: .minute)
    try rig.schedule("once", at: start + 30)
    try rig.schedule("later", at: start + 3600 + 150)
    for step in 0...4 {
      rig.clock.set(start + Double(step) * 30)
      try rig.fire()
    }
    let before = rig.keys
    #expect(before.sorted() == ["minutely#1", "minutely#2", "minutely#3", "once#1"])
    // When the clock is set back 1 h and then runs forwards again, the firer waking every
    // 10 s, until 2 min past where it was and past `later`
    rig.clock.set(start + 120 - 3600)
    while rig.clock.now() < start + 3600 + 240 {
      try rig.fire()
      rig.clock.advance(by: 10)
    }
    // Then no occurrence came out twice, and the repeat went on from where it was
    let keys = rig.keys
    #expect(keys.count == Set(keys).count, "duplicates: \(keys)")
    #expect(keys.filter { $0 == "once#1" }.count == 1)
    #expect(keys.contains("later#1"))
    #expect(!keys.dropFirst(before.count).contains { before.contains($0) })
  }

  @Test(
    "the user flies from Tokyo to Berlin: a local 09:00 daily fires at 09:00 Berlin time, not Tokyo's",
    arguments: Driver.allCases)
  func zoneChange(driver: Driver) throws {
    // Given a daily 09:00 in the `local` zone from 2027-01-15, scheduled in Tokyo the
    // evening before (23:00Z, 08:00 Tokyo)
    let tokyo = testZone("Asia/Tokyo")
    let berlin = testZone("Europe/Berlin")
    let rig = try Rig(start: start - 32_400, driver: driver)
    rig.clock.setLocalZone(tokyo)
    let n = LocalNotification(
      id: "standup", app: "clock",
      schedule: Schedule(
        fireDate: .wallClock(WallClock(year: 2027, month: 1, day: 15, hour: 9), .local), repeatInterval: .day),
      title: "standup", createdAt: rig.clock.now())
    _ = try rig.store.schedule(n, zones: testZones(tokyo))
    #expect(try rig.fire() == 0)
    // When the user lands in Berlin (the system zone moves) before Tokyo's 09:00
    rig.clock.setLocalZone(berlin)
    // Then nothing fires at Tokyo's 09:00 (00:00Z)
    rig.clock.set(start - 28_800)
    #expect(try rig.fire() == 0)
    // And it fires at 09:00 in Berlin (08:00Z), once, on time
    rig.clock.set(start)
    #expect(try rig.fire() == 1)
    #expect(try rig.fire() == 0)
    #expect(rig.sink.deliveries.map(\.fireDate) == [start])
    #expect(rig.sink.deliveries.first?.late == false)
  }

  @Test(
    "a simulated 2 h suspend delivers one late occurrence per repeating notification",
    arguments: Driver.allCases)
  func suspend(driver: Driver) throws {
    // Given repeats by the minute, by the hour and by the day, and a one-shot, all firing
    // around `start`
    let rig = try Rig(start: start, driver: driver)
    try rig.schedule("minutely", at: start, repeat: .minute)
    try rig.schedule("hourly", at: start + 90, repeat: .hour)
    try rig.schedule("daily", at: start + 1800, repeat: .day)
    try rig.schedule("once", at: start + 3600)
    try rig.fire()
    #expect(rig.keys == ["minutely#1"])
    // When the machine sleeps for 2 h and 30 s (the clock jumps, nothing ran) and wakes
    rig.clock.advance(by: 7230)
    try rig.fire()
    try rig.fire()
    // Then each notification delivers exactly one late occurrence: its latest past one
    let after = Array(rig.sink.deliveries.dropFirst())
    #expect(after.map(\.notification.id).sorted() == ["daily", "hourly", "minutely", "once"])
    #expect(after.allSatisfy { $0.late })
    let occurrence = Dictionary(uniqueKeysWithValues: after.map { ($0.notification.id, $0.occurrence) })
    #expect(occurrence["minutely"] == 121)
    #expect(occurrence["hourly"] == 2)
    #expect(occurrence["daily"] == 1)
    // And then the repeats move on without a burst: the next minute brings one delivery
    rig.clock.advance(by: 30)
    #expect(try rig.fire() == 1)
    #expect(rig.keys.last == "minutely#122")
  }
}

/// A sink that records every delivery.
final class Recorder: DeliverySink, @unchecked Sendable {
  let name = "recorder"
  private let lock = NSLock()
  private var recorded: [Delivery] = []

  var deliveries: [Delivery] { lock.withLock { recorded } }

  func deliver(_ delivery: Delivery) throws -> DeliveryReceipt {
    lock.withLock { recorded.append(delivery) }
    return DeliveryReceipt()
  }
}

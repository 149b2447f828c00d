import Foundation
import NotifyCore
import NotifyFiring
import NotifyStore
import NotifyTestSupport
import Testing

/// What one delivery costs the store, in transactions (BENCHMARKS.md, "Store
/// transactions per delivery"). Counts, not times: a firer's store work is the same on
/// every run, so an upper bound on it is a fact a test can hold.
///
/// The harness drives the firer as `notify daemon` does, on a manual clock: a change
/// committed by another connection wakes it (`changedByOthers`, then `wake`), and each
/// `next` it asks for is the timer going off, until it has nothing to wait for. Run it with
/// `swift test --skip-build --filter StoreTransactions`; each case prints its figures.
@Suite("Store transactions per delivery")
struct StoreTransactionsTests {
  /// The daemon's store connection, counting, and the firer on it.
  struct Harness {
    let fixture: FiringFixture
    let store: SQLiteStore
    let clock: ManualClock
    let sink = RecordingSink()
    let firer: Firer

    init(start: Date, batchLimit: Int = 64) throws {
      fixture = try FiringFixture()
      store = try fixture.openAgain()
      clock = ManualClock(now: start)
      firer = Firer(
        store: store, sink: sink, identity: .current, clock: clock, sounds: UncheckedSounds(),
        options: .init(batchLimit: batchLimit, claimAhead: 0.01))
      // Idle before: nothing pending, the timer disarmed.
      _ = try store.changedByOthers()
      #expect(try firer.wake().next == nil)
    }

    /// Counts what the firer does from a change committed by another connection until it
    /// is idle again. The loop's change filter (`changedByOthers`: one `PRAGMA
    /// data_version` per inotify event on the store's files) is the driver's, not counted.
    func run(schedule: () throws -> Void) throws -> StoreTransactions {
      try schedule()
      // The store's change wakes the loop: its filter, then the wake.
      #expect(try store.changedByOthers())
      firer.storeChanged()
      store.countTransactions()
      let next = try wakeUntilIdle(clock: clock) { try firer.wake().next }
      #expect(next == nil, "the firer went back to sleep with nothing to wait for")
      return store.transactions
    }
  }

  static let instant = Date(timeIntervalSince1970: 1_900_000_000)

  @Test("one delivery at an instant, the daemon idle before it")
  func oneDelivery() throws {
    // Given a daemon idle, with nothing pending
    let h = try Harness(start: Self.instant - 60)
    // When another process schedules one for a minute later, and it comes due
    let cost = try h.run { try h.fixture.schedule("one", at: Self.instant) }
    // Then it is delivered once, for at most the target's transactions
    #expect(h.sink.deliveries.map(\.notification.id) == ["one"])
    print("store transactions, one delivery: \(cost)")
    #expect(cost.writes <= Self.writeBound)
    #expect(cost.total <= Self.totalBound)
  }

  @Test("a burst of five at one instant")
  func burstOfFive() throws {
    // Given a daemon idle, with nothing pending
    let h = try Harness(start: Self.instant - 60)
    // When another process schedules five for one instant a minute later (one commit each,
    // seen by the daemon as one change)
    let cost = try h.run {
      for n in 1...5 { try h.fixture.schedule("burst-\(n)", at: Self.instant) }
    }
    // Then all five are delivered, for the transactions of about one
    #expect(h.sink.deliveries.count == 5)
    print("store transactions, a burst of 5: \(cost) (\(Double(cost.total) / 5) per delivery)")
    #expect(cost.writes <= Self.writeBound)
    #expect(cost.total <= Self.totalBound)
  }

  @Test("a burst claimed in several batches is handed over without confirming the earlier batches")
  func burstInBatches() throws {
    // Given a daemon that claims two at a time
    let h = try Harness(start: Self.instant - 60, batchLimit: 2)
    // When six fall due at one instant
    let cost = try h.run {
      for n in 1...6 { try h.fixture.schedule("batch-\(n)", at: Self.instant) }
    }
    // Then all six are delivered: the outlook read, three claims, one record. Its own later
    // claims do not make the earlier batches' claims doubtful (nobody else committed
    // between them), so no claim is confirmed with a read of its own before its hand-off.
    #expect(h.sink.deliveries.count == 6)
    print("store transactions, 6 claimed 2 at a time: \(cost)")
    #expect(cost.reads <= 1)
    #expect(cost.writes <= 4)
  }

  @Test("a claim cancelled by another process between the claim and the instant is not handed over")
  func cancelledAfterTheClaim() throws {
    // Given a daemon that claimed one 10 ms before its instant, asking nothing since
    let h = try Harness(start: Self.instant - 60)
    try h.fixture.schedule("cancelled", at: Self.instant)
    #expect(try h.store.changedByOthers())
    h.firer.storeChanged()
    let armed = try #require(try h.firer.wake().next)
    h.clock.set(armed)
    #expect(try h.firer.wake().report.claimed == 1)
    // When another process cancels it before the instant, and the timer goes off before
    // the loop has seen that change (no `storeChanged()`)
    // (it returns the ids it found nothing of: none)
    #expect(try h.fixture.store.cancel(app: "test", ids: ["cancelled"], at: Self.instant - 0.005).isEmpty)
    h.clock.set(Self.instant)
    let wake = try h.firer.wake()
    // Then the store's changed state makes the firer confirm the claim, and it shows nothing
    #expect(wake.report.delivered == 0)
    #expect(h.sink.deliveries.isEmpty)
  }

  /// What the firer may cost at most, for one delivery or a burst at one instant:
  /// one read (the outlook, at the change), the claim, the record.
  static let writeBound = 2
  static let totalBound = 3
}

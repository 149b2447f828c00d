import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifyFiring
import NotifyStore
import NotifyTestSupport
import Testing

/// What one delivery to the desktop costs the store, in transactions (BENCHMARKS.md,
/// "Store transactions per delivery"), as `StoreTransactionsTests` counts it for stdout: the
/// sinks as `notify daemon --sink desktop` assembles them (the sound fallback, the click
/// router, the server ids kept in the store) on a real session bus with dunst, and the firer
/// driven as the daemon does on a manual clock. The bubble to replace comes with the claim,
/// and the server id goes back in the delivery's own record: a sink that read the stored id
/// before each `Notify` or wrote it back after would cost a transaction more per delivery,
/// and these bounds would fail.
@Suite(.serialized, .ownThreads, .needsHeadlessDesktop)
struct DesktopStoreTransactionsTests {
  let folder = TemporaryFolder(prefix: "notify-desktop-transactions")
  static let instant = Date(timeIntervalSince1970: 1_900_000_000)

  @Test(
    "one delivery to the desktop, and the same id again replacing its bubble: at most 3 transactions each")
  func desktopDeliveries() throws {
    // Given a daemon's firer idle on a store, delivering to dunst
    let session = try HeadlessDesktop()
    defer { session.stop() }
    let path = folder.file("notify.db")
    let others = try SQLiteStore(path: path)
    let store = try SQLiteStore(path: path)
    let clock = ManualClock(now: Self.instant - 60)
    let sinks = SinkAssembly(
      try DesktopSink(configuration: .init(busAddress: session.busAddress)), store: store, clock: clock)
    let firer = Firer(
      store: store, sink: sinks.sink, identity: .current, clock: clock, sounds: UncheckedSounds(),
      options: .init(claimAhead: 0.01, clickReach: sinks.clickReach))
    _ = try store.changedByOthers()
    #expect(try firer.wake().next == nil)

    // When another process schedules one, and it comes due
    let first = try run(firer, store, clock) {
      try schedule("same", title: "First", at: Self.instant, in: others)
    }
    // Then it is shown, its server id recorded with the delivery, for at most 3 transactions
    let shown = try #require(try others.desktopServerID(app: "chat", id: "same"), "no server id recorded")
    #expect(shown.server == sinks.desktop?.serverInstance)
    print("store transactions, one delivery to the desktop: \(first)")
    #expect(first.writes <= 2)
    #expect(first.total <= 3)

    // When the same id is scheduled again, and comes due
    let second = try run(firer, store, clock) {
      try schedule("same", title: "Second", at: Self.instant + 60, in: others)
    }
    // Then it replaced the first bubble (the id came with the claim), for as few transactions
    print("store transactions, a delivery replacing a bubble: \(second)")
    #expect(second.writes <= 2)
    #expect(second.total <= 3)
    #expect(try others.desktopServerID(app: "chat", id: "same") == shown)
    #expect(
      try session.dunstctl("count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    #expect(try others.history(app: "chat", limit: 10).filter { $0.kind == .delivered }.count == 2)
  }

  /// Counts what the firer does from a change committed by another connection until it is
  /// idle again (`StoreTransactionsTests.Harness.run`).
  private func run(
    _ firer: Firer, _ store: SQLiteStore, _ clock: ManualClock, schedule: () throws -> Void
  ) throws -> StoreTransactions {
    try schedule()
    #expect(try store.changedByOthers())
    firer.storeChanged()
    store.countTransactions()
    let next = try wakeUntilIdle(clock: clock) { try firer.wake().next }
    #expect(next == nil, "the firer went back to sleep with nothing to wait for")
    return store.transactions
  }

  private func schedule(_ id: String, title: String, at date: Date, in store: SQLiteStore) throws {
    let notification = LocalNotification(
      id: id, app: "chat", schedule: Schedule(fireDate: .instant(date)), title: title, body: "body",
      createdAt: date - 60)
    _ = try store.schedule(notification, zones: testZones(testZone("UTC")))
  }
}

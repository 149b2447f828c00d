import Foundation
import NotifyCore
import NotifyFiring
import NotifyStore
import NotifyTestSupport
import Testing

@Suite("Firer: claim, deliver, mark under a budget")
struct FirerTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  @Test("missed occurrences come out once, late; a repeat coalesces and moves on")
  func lateDelivery() throws {
    // Given a one-shot an hour overdue and a minutely repeat that missed ten
    let f = try FiringFixture()
    try f.schedule("once", at: now - 3600)
    try f.schedule("rep", at: now - 600 + 5, repeat: .minute)
    let sink = RecordingSink()
    let firer = Firer(
      store: f.store, sink: sink, identity: .current, clock: ManualClock(now: now), sounds: UncheckedSounds())
    // When one batch runs
    let report = try firer.fireBatch()
    // Then each was delivered once, late, the repeat as its latest occurrence
    #expect(report.delivered == 2)
    #expect(sink.deliveries.map(\.notification.id) == ["once", "rep"])
    #expect(sink.deliveries.allSatisfy { $0.late })
    #expect(sink.deliveries.last?.occurrence == 10)
    // And the repeat waits for its next future minute
    #expect(try f.store.nextFireDate(zones: testZones(f.utc)) == now + 5)
    #expect(try firer.fireBatch().claimed == 0)
  }

  @Test("a refused delivery is tried again, then recorded failed with the reason")
  func retries() throws {
    let f = try FiringFixture()
    try f.schedule("flaky", at: now - 1)
    try f.schedule("dead", at: now)
    let sink = RecordingSink()
    let firer = Firer(
      store: f.store, sink: sink, identity: .current, clock: ManualClock(now: now), sounds: UncheckedSounds(),
      options: .init(attempts: 3))
    // When the sink fails twice, then works; then fails three times
    sink.failuresLeft = 2
    var report = try firer.fireBatch()
    // Then the first got through on its third try
    #expect(report.delivered == 2)
    sink.failuresLeft = 0
    try f.schedule("never", at: now)
    sink.failuresLeft = 3
    report = try firer.fireBatch()
    #expect(report.failed == 1)
    let failed = try f.events(.failed)
    #expect(failed.map(\.notificationID) == ["never"])
    #expect(failed.first?.reason?.contains("did not answer") == true)
  }

  @Test("when the budget runs out the rest is given back and the next run delivers it")
  func budget() throws {
    // Given 20 due notifications and a sink that takes one second each
    let f = try FiringFixture()
    for i in 0..<20 { try f.schedule("n\(i)", at: now - 100 + Double(i)) }
    let clock = ManualClock(now: now)
    let sink = RecordingSink()
    sink.onDeliver = { _ in clock.advance(by: 1) }
    let firer = Firer(store: f.store, sink: sink, identity: .current, clock: clock, sounds: UncheckedSounds())
    // When a batch runs under a 10 s budget (handler at 9 s)
    let expired = ExpiredFlag()
    let task = BackgroundTask.begin(named: "t", budget: 10, clock: clock) { expired.set() }
    let report = try firer.fireBatch(task: task)
    // Then 9 were delivered and 11 given back, still due
    #expect(expired.isSet)
    #expect(report.delivered == 9)
    #expect(report.released == 11)
    #expect(report.stopped)
    #expect(try f.store.dueCount(now: clock.now()) == 11)
    // When the next run has time
    let rest = try firer.fireBatch()
    // Then it delivers exactly the other 11
    #expect(rest.delivered == 11)
    let ids = sink.deliveries.map(\.notification.id)
    #expect(ids.count == 20)
    #expect(Set(ids).count == 20)
  }

  @Test("fire-due stops within budget and counts what is left")
  func fireDueSummary() throws {
    let f = try FiringFixture()
    for i in 0..<10 { try f.schedule("n\(i)", at: now - 100 + Double(i)) }
    let clock = ManualClock(now: now)
    let sink = RecordingSink()
    sink.onDeliver = { _ in clock.advance(by: 1) }
    let firer = Firer(store: f.store, sink: sink, identity: .current, clock: clock, sounds: UncheckedSounds())
    let summary = try FireDue.run(
      firer: firer, budget: 5, clock: clock, dueCount: { try f.store.dueCount(now: $0) })
    #expect(summary.budgetSpent)
    #expect(summary.report.delivered == 5)
    #expect(summary.left == 5)
  }
}

/// A flag the expiration handler sets.
final class ExpiredFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  func set() { lock.withLock { value = true } }
  var isSet: Bool { lock.withLock { value } }
}

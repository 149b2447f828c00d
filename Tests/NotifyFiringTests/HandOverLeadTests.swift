import Foundation
import NotifyCore
import NotifyFiring
import NotifyStore
import NotifyTestSupport
import Testing

/// A loop's firer hands an occurrence to its sink a lead before its instant, and the sink
/// waits at its gate (`DeliveryGate`) for the instant itself, its line or message made by
/// then: what is left at the instant is the one call that shows it.
@Suite("Hand-over lead: built before the instant, shown at it, never earlier")
struct HandOverLeadTests {
  let t0 = Date(timeIntervalSince1970: 1_800_000_000)

  @Test(
    "the sink gets the delivery a lead early with a gate at the instant; it is recorded as shown at the instant"
  )
  func gateAtTheInstant() throws {
    // Given a notification due at t0 and a firer that claims 10 ms and hands over 1 ms ahead
    let f = try FiringFixture()
    try f.schedule("x", at: t0)
    let clock = WaitingClock(now: t0 - 0.01)
    let sink = GateSink(clock: clock)
    let firer = Firer(
      store: f.store, sink: sink, identity: .current, clock: clock, sounds: UncheckedSounds(),
      options: .init(claimAhead: 0.01, handOverLead: 0.001))
    // When it wakes 10 ms ahead, it claims and asks to be woken 1 ms ahead
    let claimed = try firer.wake()
    #expect(claimed.report.claimed == 1)
    #expect(claimed.next == t0 - 0.001)
    #expect(sink.calls.isEmpty)
    // And woken then, it hands over before the instant, and the sink waits for it
    clock.set(t0 - 0.001)
    let handed = try firer.wake()
    #expect(handed.report.delivered == 1)
    let call = try #require(sink.calls.first)
    #expect(call.gate == t0)
    #expect(call.calledAt == t0 - 0.001)
    #expect(call.shownAt == t0)
    #expect(clock.waits == [t0])
    // Then the delivery and its history say the instant, not when it was handed over
    #expect(call.delivery.deliveredAt == t0)
    #expect(!call.delivery.late)
    #expect(try f.events(.delivered).map(\.at) == [t0])
  }

  @Test("an overdue occurrence goes through an open gate: no waiting")
  func overdueIsOpen() throws {
    let f = try FiringFixture()
    try f.schedule("late", at: t0 - 5)
    let clock = WaitingClock(now: t0)
    let sink = GateSink(clock: clock)
    let firer = Firer(
      store: f.store, sink: sink, identity: .current, clock: clock, sounds: UncheckedSounds(),
      options: .init(claimAhead: 0.01, handOverLead: 0.001))
    #expect(try firer.fireBatch().delivered == 1)
    #expect(sink.calls.map(\.gate) == [.distantPast])
    #expect(clock.waits.isEmpty)
    #expect(sink.calls.first?.delivery.deliveredAt == t0)
  }

  @Test("the real clock's gate returns at the instant, not before it")
  func systemClockWaits() {
    let clock = ZoneCachingClock()
    for lead in [0.0003, 0.002, 0.015] {
      let instant = Date() + lead
      DeliveryGate(instant, clock: clock).pass()
      #expect(Date() >= instant, "returned \(instant.timeIntervalSince(Date())) s early")
    }
    let before = Date()
    DeliveryGate(before - 1, clock: clock).pass()
    DeliveryGate.open.pass()
    #expect(Date().timeIntervalSince(before) < 1, "a gate in the past kept it waiting")
  }
}

/// A clock of tests whose `sleep(until:)` moves it to the instant, and says it did.
private final class WaitingClock: NotifyClock, @unchecked Sendable {
  private let base: ManualClock
  private let lock = NSLock()
  private var waited: [Date] = []

  init(now: Date) { base = ManualClock(now: now) }

  var waits: [Date] { lock.withLock { waited } }
  func now() -> Date { base.now() }
  var zones: Zones { base.zones }
  func set(_ date: Date) { base.set(date) }

  func sleep(until instant: Date) {
    lock.withLock { waited.append(instant) }
    if instant > base.now() { base.set(instant) }
  }
}

/// A sink that notes when it was called, its gate, and when it passed it.
private final class GateSink: DeliverySink, @unchecked Sendable {
  struct Call {
    var delivery: Delivery
    var gate: Date
    var calledAt: Date
    var shownAt: Date
  }

  let name = "gate"
  private let clock: any NotifyClock
  private let lock = NSLock()
  private var made: [Call] = []

  init(clock: any NotifyClock) { self.clock = clock }

  var calls: [Call] { lock.withLock { made } }

  func deliver(_ delivery: Delivery) throws -> DeliveryReceipt {
    try deliver(delivery, after: .open)
  }

  func deliver(_ delivery: Delivery, after gate: DeliveryGate) throws -> DeliveryReceipt {
    let calledAt = clock.now()
    gate.pass()
    lock.withLock {
      made.append(Call(delivery: delivery, gate: gate.instant, calledAt: calledAt, shownAt: clock.now()))
    }
    return DeliveryReceipt()
  }
}

import Foundation
import NotifyCore
import NotifyFiring
import NotifyStore
import Testing

/// The firer's side of stopping and of sink faults,
/// in process against a real SQLite file: what is handed over, given back, recorded.
@Suite("Firer: a stop request and a faulty sink")
struct FirerStopTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  @Test("a stop request between hand-offs: nothing more starts, the rest goes back, nothing failed")
  func stopBetweenHandOffs() throws {
    // Given six due notifications and a stop requested while the second is handed over
    let f = try FiringFixture()
    for i in 0..<6 { try f.schedule("n\(i)", at: now - 10 + Double(i)) }
    let sink = StopAfterSink(count: 2)
    let firer = Firer(
      store: f.store, sink: sink, identity: .current, clock: ManualClock(now: now), sounds: UncheckedSounds())
    firer.isStopRequested = { sink.stopped }
    // When a run fires
    let report = try firer.fireBatch()
    // Then two were handed over and recorded, the rest is pending again, nothing failed
    #expect(report.interrupted)
    #expect(report.delivered == 2)
    #expect(report.released == 4)
    #expect(sink.names == ["n0", "n1"])
    #expect(try f.events(.delivered).map(\.notificationID) == ["n0", "n1"])
    #expect(try f.events(.failed).isEmpty)
    #expect(try f.store.claimsHeld() == (alive: 0, dead: 0))
    #expect(try f.store.pendingCount() == 4)
  }

  @Test("a stop request after a refused attempt: not tried again, not failed, given back")
  func stopBetweenAttempts() throws {
    let f = try FiringFixture()
    try f.schedule("n", at: now - 1)
    let sink = RecordingSink()
    sink.failuresLeft = 1
    let firer = Firer(
      store: f.store, sink: sink, identity: .current, clock: ManualClock(now: now), sounds: UncheckedSounds(),
      options: .init(attempts: 3))
    // (the stop comes while the first attempt is refused)
    firer.isStopRequested = { sink.failuresLeft == 0 }
    let report = try firer.fireBatch()
    #expect(report.interrupted && report.failed == 0 && report.released == 1)
    #expect(sink.deliveries.isEmpty)
    #expect(try f.events(.failed).isEmpty)
    #expect(try f.store.pendingCount() == 1)
  }

  @Test(
    "a stalled sink: the burst goes back at once, nothing failed, the firer asks to try again later",
    arguments: [SinkFault.Kind.stalled, .gone])
  func sinkFault(kind: SinkFault.Kind) throws {
    // Given five due notifications and a sink that takes two, then faults
    let f = try FiringFixture()
    for i in 0..<5 { try f.schedule("n\(i)", at: now - 10 + Double(i)) }
    let sink = FaultAfterSink(count: 2, kind: kind)
    let firer = Firer(
      store: f.store, sink: sink, identity: .current, clock: ManualClock(now: now), sounds: UncheckedSounds(),
      options: .init(attempts: 3))
    // When the firer wakes
    let wake = try firer.wake()
    // Then the two are recorded, the three others pending (not claimed), none failed, and
    // a stalled sink is tried again 2 s later (a gone one not at all)
    #expect(wake.report.delivered == 2 && wake.report.failed == 0 && wake.report.released == 3)
    #expect(wake.report.sinkFault?.kind == kind)
    #expect(sink.attempts == 3, "a sink fault is not an attempt to repeat")
    #expect(try f.events(.failed).isEmpty)
    #expect(try f.store.claimsHeld() == (alive: 0, dead: 0))
    #expect(try f.store.pendingCount() == 3)
    #expect(wake.next == (kind == .stalled ? now + Firer.stalledSinkRetry : nil))
  }
}

/// Takes deliveries and, once it has taken `count`, says stop.
private final class StopAfterSink: DeliverySink, @unchecked Sendable {
  let name = "stop-after"
  let count: Int
  private(set) var names: [String] = []
  init(count: Int) { self.count = count }
  var stopped: Bool { names.count >= count }
  func deliver(_ delivery: Delivery) throws -> DeliveryReceipt {
    names.append(delivery.notification.id)
    return DeliveryReceipt()
  }
}

/// Takes `count` deliveries, then throws a `SinkFault` of `kind` for every other one.
private final class FaultAfterSink: DeliverySink, @unchecked Sendable {
  let name = "fault-after"
  let count: Int
  let kind: SinkFault.Kind
  private(set) var attempts = 0
  init(count: Int, kind: SinkFault.Kind) {
    self.count = count
    self.kind = kind
  }
  func deliver(_ delivery: Delivery) throws -> DeliveryReceipt {
    attempts += 1
    if attempts > count { throw SinkFault(kind, sink: name, reason: "its reader has not read for 1 s") }
    return DeliveryReceipt()
  }
}

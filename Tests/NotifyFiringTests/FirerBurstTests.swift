import Foundation
import NotifyCore
import NotifyFiring
import NotifyStore
import NotifyTestSupport
import Testing

/// A firer whose sink shows a burst with one call (`BurstSink`) hands an instant's claims
/// over together, tries a refused one again on its own, and gives back what a fault left.
@Suite("Firer: bursts to a burst sink")
struct FirerBurstTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  @Test(
    "three due at once go over in one call; the refused one is tried again alone and all three are recorded")
  func refusedRetriedAlone() throws {
    let f = try FiringFixture()
    for id in ["a", "b", "c"] { try f.schedule(id, at: now - 1) }
    let sink = ScriptedBurstSink(answers: [[.shown, .refused, .shown]])
    let firer = Firer(
      store: f.store, sink: sink, identity: .current, clock: ManualClock(now: now), sounds: UncheckedSounds())
    let report = try firer.fireBatch()
    #expect(report.delivered == 3)
    #expect(sink.calls == [["a", "b", "c"], ["b"]])
    #expect(try f.events(.delivered).map(\.notificationID).sorted() == ["a", "b", "c"])
    #expect(try f.store.pendingCount() == 0)
  }

  @Test("a fault mid-burst: what was shown is recorded, the rest is pending again, none failed")
  func faultGivesBackTheRest() throws {
    let f = try FiringFixture()
    for id in ["a", "b", "c"] { try f.schedule(id, at: now - 1) }
    let sink = ScriptedBurstSink(answers: [[.shown, .stalled]])
    let firer = Firer(
      store: f.store, sink: sink, identity: .current, clock: ManualClock(now: now), sounds: UncheckedSounds())
    let report = try firer.fireBatch()
    #expect(report.delivered == 1)
    #expect(report.sinkFault?.kind == .stalled)
    #expect(sink.calls == [["a", "b", "c"]])
    #expect(try f.events(.delivered).map(\.notificationID) == ["a"])
    #expect(try f.events(.failed).isEmpty)
    #expect(try f.store.pendingCount() == 2)
    #expect(try f.store.claimsHeld() == (alive: 0, dead: 0))
  }
}

/// A burst sink that answers each call from a script (then shows everything), and records
/// the ids of each call.
private final class ScriptedBurstSink: BurstSink, @unchecked Sendable {
  enum Answer { case shown, refused, stalled }

  let name = "scripted"
  let showsBursts = true
  private let lock = NSLock()
  private var script: [[Answer]]
  private var made: [[String]] = []

  init(answers: [[Answer]]) { script = answers }

  var calls: [[String]] { lock.withLock { made } }

  func deliver(_ delivery: Delivery) throws -> DeliveryReceipt {
    let answers = deliver(burst: [delivery], after: .open)
    return try answers[0].get()
  }

  func deliver(burst deliveries: [Delivery], after gate: DeliveryGate) -> [Result<DeliveryReceipt, any Error>]
  {
    gate.pass()
    let answers = lock.withLock {
      made.append(deliveries.map(\.notification.id))
      return script.isEmpty ? [] : script.removeFirst()
    }
    var results: [Result<DeliveryReceipt, any Error>] = []
    for (index, _) in deliveries.enumerated() {
      switch index < answers.count ? answers[index] : .shown {
      case .shown: results.append(.success(DeliveryReceipt()))
      case .refused: results.append(.failure(NotifyError(.unavailable, "busy")))
      case .stalled:
        results.append(.failure(SinkFault(.stalled, sink: name, reason: "full")))
        return results
      }
    }
    return results
  }
}

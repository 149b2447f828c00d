import Foundation
import NotifyCore
import NotifyFiring
import NotifyStore
import NotifyTestSupport
import Testing

/// Claims that outlive their owner's attention: a live firer stopped with
/// Ctrl-Z cannot hold an occurrence past `ClaimLease.duration`, a cancel wins over a claim
/// not handed over, and a firer that resumes does not hand over what it lost.
@Suite("Claim leases", .ownThreads)
struct ClaimLeaseTests {
  let now = Date()

  @Test(
    "a live firer's claim past its lease is taken over and delivered once; the stopped owner, resuming, skips it"
  )
  func stalledOwnerLosesItsClaim() throws {
    // Given notification "x", due 2 minutes ago, claimed 90 s ago by a firer that is alive
    // but stopped (its clock is held at the moment it claimed)
    let f = try FiringFixture()
    try f.schedule("x", at: now - 120)
    let stoppedClock = ManualClock(now: now - 90)
    let stoppedSink = RecordingSink()
    let stopped = Firer(
      store: try f.openAgain(), sink: stoppedSink, identity: otherLiveFirer, clock: stoppedClock,
      sounds: UncheckedSounds())
    let otherSink = RecordingSink()
    let other = Firer(
      store: f.store, sink: otherSink, identity: .current, clock: ManualClock(now: Date()),
      sounds: UncheckedSounds())
    // Then another firer sees when it may take it over: at once, the lease having run out
    #expect(try f.store.nextFireDate(zones: testZones(f.utc)).map { $0 <= now } == true)
    // When the stopped firer claims, and before its hand-off the other firer runs
    var taken = Firer.BatchReport()
    _ = try stopped.wake(beforeEach: { taken = (try? other.fireBatch()) ?? Firer.BatchReport() })
    // Then the other firer took the claim over and delivered it, late
    #expect(taken.delivered == 1)
    #expect(otherSink.deliveries.map(\.notification.id) == ["x"])
    #expect(otherSink.deliveries.first?.late == true)
    // And the stopped firer, resuming, handed nothing over: it had lost the claim
    #expect(stoppedSink.deliveries.isEmpty)
    #expect(try f.events(.delivered).count == 1)
  }

  @Test("a claim within its lease stays its live owner's")
  func freshClaimIsKept() throws {
    let f = try FiringFixture()
    try f.schedule("y", at: now - 10)
    let owner = Firer(
      store: try f.openAgain(), sink: RecordingSink(), identity: otherLiveFirer,
      clock: ManualClock(now: now - 5),
      sounds: UncheckedSounds())
    let otherSink = RecordingSink()
    let other = Firer(
      store: f.store, sink: otherSink, identity: .current, clock: ManualClock(now: Date()),
      sounds: UncheckedSounds())
    var taken = Firer.BatchReport()
    _ = try owner.wake(beforeEach: { taken = (try? other.fireBatch()) ?? Firer.BatchReport() })
    #expect(taken.delivered == 0)
    #expect(otherSink.deliveries.isEmpty)
    #expect(try f.events(.delivered).count == 1)
  }

  @Test("a cancel wins over a claim that has not been handed over; the owner skips it")
  func cancelWins() throws {
    // Given a one-shot due now, claimed by a firer about to hand it over
    let f = try FiringFixture()
    try f.schedule("z", at: now - 1)
    let sink = RecordingSink()
    let firer = Firer(
      store: try f.openAgain(), sink: sink, identity: .current, clock: ManualClock(now: Date()),
      sounds: UncheckedSounds())
    // When the user cancels it between the claim and the hand-off
    let cancel = CommandRunner(environment: ["NOTIFY_APP": "test", "NOTIFY_DB": f.path])
    var cancelled: CommandRunner.Result?
    _ = try firer.wake(beforeEach: { cancelled = try? cancel.run(["cancel", "z"]) })
    // Then the cancel took effect (exit 0, not "not pending"), history says cancelled, and
    // nothing was shown
    #expect(cancelled?.status == 0, "\(cancelled?.stderr ?? "-")")
    #expect(try f.events(.cancelled).map(\.notificationID) == ["z"])
    #expect(sink.deliveries.isEmpty)
    #expect(try f.events(.delivered).isEmpty)
  }
}

import Foundation
import NotifyCore
import Testing

/// The firer's decisions between wake-ups, with literal instants (no store, no timer).
@Suite("FiringStateMachine: what a wake-up does")
struct FiringStateMachineTests {
  let t0 = utc("2026-11-23T09:00:00Z")

  func claim(_ id: String, at date: Date, row: Int64 = 1) -> Claim {
    Claim(
      rowID: row, occurrence: 0, fireDate: date, late: false,
      notification: LocalNotification(
        id: id, app: "a", schedule: Schedule(fireDate: .instant(date)), body: id, createdAt: date))
  }

  @Test("nothing pending: disarm")
  func idle() {
    var machine = FiringStateMachine(claimAhead: 0.01)
    #expect(machine.wake(now: t0, next: nil) == [.disarm])
  }

  @Test("something later: arm claimAhead before it")
  func armsAhead() {
    var machine = FiringStateMachine(claimAhead: 0.01)
    #expect(machine.wake(now: t0, next: t0 + 60) == [.arm(t0 + 59.99)])
  }

  @Test("within claimAhead of the next instant: claim up to the horizon, then arm for the claimed instant")
  func claimsAheadThenArmsForTheInstant() {
    // Given a machine woken 10 ms before an instant
    var machine = FiringStateMachine(claimAhead: 0.01)
    let now = t0 - 0.01
    // When it wakes, then reports the claim of a burst due at t0
    #expect(machine.wake(now: now, next: t0) == [.claim(dueBy: t0)])
    let burst = (0..<5).map { claim("n\($0)", at: t0, row: Int64($0)) }
    let actions = machine.claimed(burst, now: now, next: t0 + 3600)
    // Then nothing is handed over early, and the timer is armed for the instant itself
    #expect(actions == [.arm(t0)])
    #expect(machine.prepared.count == 5)
    // When the timer fires at the instant
    // Then the whole burst is handed over together, and the next wake is claimAhead before the next one
    #expect(machine.wake(now: t0, next: t0 + 3600) == [.handOver(burst), .arm(t0 + 3599.99)])
    #expect(machine.prepared.isEmpty)
  }

  @Test("overdue claims are handed over as soon as they are claimed")
  func overdueAtOnce() {
    var machine = FiringStateMachine()
    #expect(machine.wake(now: t0, next: t0 - 3600) == [.claim(dueBy: t0)])
    let late = [claim("late", at: t0 - 3600)]
    #expect(machine.claimed(late, now: t0, next: nil) == [.handOver(late), .disarm])
  }

  @Test("a full batch claims again; a bounded number of rounds, then it re-arms at once")
  func claimRounds() {
    var machine = FiringStateMachine(claimAhead: 0, claimRounds: 3)
    #expect(machine.wake(now: t0, next: t0) == [.claim(dueBy: t0)])
    for round in 0..<3 {
      let batch = [claim("b\(round)", at: t0, row: Int64(round))]
      let actions = machine.claimed(batch, now: t0, next: t0)
      #expect(actions.first == .handOver(batch))
      // Still due after the batch: claim again until the rounds are used up
      #expect(actions.last == (round < 2 ? .claim(dueBy: t0) : .arm(t0)))
    }
  }

  @Test("due but nothing claimable: look again a millisecond later instead of spinning")
  func emptyClaimDoesNotSpin() {
    var machine = FiringStateMachine()
    #expect(machine.wake(now: t0, next: t0) == [.claim(dueBy: t0)])
    #expect(machine.claimed([], now: t0, next: t0) == [.arm(t0 + FiringStateMachine.retryAfterEmptyClaim)])
  }

  @Test("a clock set backwards hands over nothing early and re-arms for the claimed instant")
  func clockBackwards() {
    var machine = FiringStateMachine(claimAhead: 0.01)
    _ = machine.wake(now: t0 - 0.01, next: t0)
    let prepared = [claim("x", at: t0)]
    _ = machine.claimed(prepared, now: t0 - 0.01, next: nil)
    // When the clock jumps an hour back and the machine is woken
    #expect(machine.wake(now: t0 - 3600, next: nil) == [.arm(t0)])
    #expect(machine.prepared == prepared)
  }

  @Test("a spent budget keeps the unstarted ones prepared and wakes again at once; stop gives them back")
  func budgetAndStop() {
    var machine = FiringStateMachine()
    let unstarted = [claim("u1", at: t0, row: 1), claim("u2", at: t0, row: 2)]
    #expect(machine.budgetSpent(unstarted: unstarted, now: t0 + 1) == [.arm(t0 + 1)])
    #expect(machine.prepared == unstarted)
    #expect(machine.stop() == [.giveBack(unstarted)])
    #expect(machine.prepared.isEmpty)
    #expect(machine.stop().isEmpty)
  }
}

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
    var machine = FiringStateMachine(claimAhead: 0.01, claimCost: 0)
    #expect(machine.wake(now: t0, next: nil) == [.disarm])
  }

  @Test("something later: arm claimAhead before it")
  func armsAhead() {
    var machine = FiringStateMachine(claimAhead: 0.01, claimCost: 0)
    #expect(machine.wake(now: t0, next: .init(t0 + 60)) == [.arm(t0 + 59.99)])
  }

  @Test("within claimAhead of the next instant: claim up to the horizon, then arm for the claimed instant")
  func claimsAheadThenArmsForTheInstant() {
    // Given a machine woken 10 ms before an instant
    var machine = FiringStateMachine(claimAhead: 0.01, claimCost: 0)
    let now = t0 - 0.01
    // When it wakes, then reports the claim of a burst due at t0
    #expect(machine.wake(now: now, next: .init(t0)) == [.claim(dueBy: t0)])
    let burst = (0..<5).map { claim("n\($0)", at: t0, row: Int64($0)) }
    let actions = machine.claimed(burst, now: now, next: .init(t0 + 3600))
    // Then nothing is handed over early, and the timer is armed for the instant itself
    #expect(actions == [.arm(t0)])
    #expect(machine.prepared.count == 5)
    // When the timer fires at the instant
    // Then the whole burst is handed over together, and the next wake is claimAhead before the next one
    #expect(machine.wake(now: t0, next: .init(t0 + 3600)) == [.handOver(burst), .arm(t0 + 3599.99)])
    #expect(machine.prepared.isEmpty)
  }

  @Test("a burst is claimed earlier the larger it is, so that all of it is claimed by its instant")
  func marginGrowsWithTheBurst() {
    // Given 1000 due at t0, and a claim cost of 100 µs each
    var machine = FiringStateMachine(claimAhead: 0.01, claimCost: 0.0001)
    let burst = FiringStateMachine.NextDue(t0, count: 1000)
    let margin = machine.margin(for: burst)
    #expect(abs(margin - 0.11) < 1e-9)
    #expect(machine.margin(for: .init(t0, count: 5)) < 0.011)
    // Then it arms 110 ms before, and claims everything due by the instant when woken
    #expect(machine.wake(now: t0 - 60, next: burst) == [.arm(t0 - margin)])
    #expect(machine.wake(now: t0 - margin, next: burst) == [.claim(dueBy: t0)])
    // And a run that exits (no claim-ahead) claims what is due, when it is due
    var run = FiringStateMachine()
    #expect(run.wake(now: t0 - 1, next: burst) == [.arm(t0)])
  }

  @Test("a wake-up hands over what is due before it asks the store for anything")
  func handOverBeforeReading() {
    var machine = FiringStateMachine(claimAhead: 0.01, claimCost: 0)
    let prepared = [claim("x", at: t0)]
    _ = machine.wake(now: t0 - 0.01, next: .init(t0))
    _ = machine.claimed(prepared, now: t0 - 0.01, next: nil)
    // When the timer fires at the instant
    // Then the hand-off comes first, and only then is the store's next instant wanted
    #expect(machine.wake(now: t0) == [.handOver(prepared), .readNext])
    #expect(machine.nextRead(.init(t0 + 60), now: t0) == [.arm(t0 + 59.99)])
  }

  @Test("overdue claims are handed over as soon as they are claimed")
  func overdueAtOnce() {
    var machine = FiringStateMachine()
    #expect(machine.wake(now: t0, next: .init(t0 - 3600)) == [.claim(dueBy: t0)])
    let late = [claim("late", at: t0 - 3600)]
    #expect(machine.claimed(late, now: t0, next: nil) == [.handOver(late), .disarm])
  }

  @Test("a full batch claims again; a bounded number of rounds, then it re-arms at once")
  func claimRounds() {
    var machine = FiringStateMachine(claimAhead: 0, claimRounds: 3)
    #expect(machine.wake(now: t0, next: .init(t0)) == [.claim(dueBy: t0)])
    for round in 0..<3 {
      let batch = [claim("b\(round)", at: t0, row: Int64(round))]
      let actions = machine.claimed(batch, now: t0, next: .init(t0))
      #expect(actions.first == .handOver(batch))
      // Still due after the batch: claim again until the rounds are used up
      #expect(actions.last == (round < 2 ? .claim(dueBy: t0) : .arm(t0)))
    }
  }

  @Test("due but nothing claimable: look again a millisecond later instead of spinning")
  func emptyClaimDoesNotSpin() {
    var machine = FiringStateMachine()
    #expect(machine.wake(now: t0, next: .init(t0)) == [.claim(dueBy: t0)])
    #expect(
      machine.claimed([], now: t0, next: .init(t0)) == [.arm(t0 + FiringStateMachine.retryAfterEmptyClaim)])
  }

  @Test("a clock set backwards hands over nothing early and re-arms for the claimed instant")
  func clockBackwards() {
    var machine = FiringStateMachine(claimAhead: 0.01, claimCost: 0)
    _ = machine.wake(now: t0 - 0.01, next: .init(t0))
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

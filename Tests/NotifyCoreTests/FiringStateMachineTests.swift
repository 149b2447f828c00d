import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// The firer's decisions, event by event, with literal instants (no store, no timer, no
/// sink): each test plays the firer's part by reporting results back.
@Suite("FiringStateMachine: every decision of a firer")
struct FiringStateMachineTests {
  let t0 = utc("2026-11-23T09:00:00Z")

  func claim(_ id: String, at date: Date, row: Int64 = 1) -> Claim {
    Claim(
      rowID: row, occurrence: 0, fireDate: date, late: false,
      notification: LocalNotification(
        id: id, app: "a", schedule: Schedule(fireDate: .instant(date)), body: id, createdAt: date))
  }

  func handOff(_ claim: Claim, at now: Date) -> HandOff {
    HandOff(
      claim: claim,
      delivery: Delivery(
        notification: claim.notification, occurrence: claim.occurrence + 1, fireDate: claim.fireDate,
        deliveredAt: now, late: false))
  }

  /// Plays the firer through a burst: every hand-over is taken. Returns the action after
  /// the last hand-over (the burst's record).
  func takeAll(_ machine: inout FiringStateMachine, from action: FiringStateMachine.Action, at now: Date)
    -> (handed: [Claim], next: FiringStateMachine.Action)
  {
    var action = action
    var handed: [Claim] = []
    while case .handOver(let claim, _) = action {
      handed.append(claim)
      action = machine.handedOver(.taken(handOff(claim, at: now)), now: now)
    }
    return (handed, action)
  }

  @Test("nothing pending: sleep until something changes")
  func idle() {
    var machine = FiringStateMachine(claimAhead: 0.01, claimCost: 0)
    #expect(machine.wake(now: t0, next: nil) == .sleep(until: nil))
    #expect(machine.isIdle)
  }

  @Test("something later: sleep until claimAhead before it")
  func armsAhead() {
    var machine = FiringStateMachine(claimAhead: 0.01, claimCost: 0)
    #expect(machine.wake(now: t0, next: .init(t0 + 60)) == .sleep(until: t0 + 59.99))
  }

  @Test(
    "within claimAhead: claim, sleep until the instant, then hand the burst over back to back and record it once"
  )
  func claimsAheadThenHandsOverTheBurst() {
    // Given a machine woken 10 ms before an instant
    var machine = FiringStateMachine(claimAhead: 0.01, claimCost: 0)
    let now = t0 - 0.01
    #expect(machine.wake(now: now, next: .init(t0)) == .claim(dueBy: t0))
    let burst = (0..<5).map { claim("n\($0)", at: t0, row: Int64($0)) }
    // When it is told the claim of a burst due at t0
    // Then nothing is handed over early: it sleeps until the instant itself
    #expect(machine.claimed(burst, now: now, next: .init(t0 + 3600)) == .sleep(until: t0))
    #expect(machine.prepared.count == 5)
    // When the timer fires at the instant
    // Then the burst is handed over in order, one after another, and recorded in one write
    let (handed, next) = takeAll(&machine, from: machine.wake(now: t0, next: .init(t0 + 3600)), at: t0)
    #expect(handed == burst)
    #expect(next == .record(burst.map { handOff($0, at: t0) }))
    #expect(machine.prepared.isEmpty)
    // And after the record it sleeps until claimAhead before the next instant
    #expect(machine.recorded(now: t0, next: .init(t0 + 3600)) == .sleep(until: t0 + 3599.99))
    let report = machine.takeReport()
    #expect(report.claimed == 5)
    #expect(report.delivered == 5)
    #expect(machine.takeReport() == FiringReport())
  }

  @Test(
    "with a hand-over lead: claimed ahead, handed over a lead before the instant (for the sink to wait at its gate), never earlier"
  )
  func handsOverALeadAhead() {
    // Given a machine that claims 10 ms and hands over 1 ms ahead
    var machine = FiringStateMachine(claimAhead: 0.01, handOverLead: 0.001, claimCost: 0)
    let now = t0 - 0.01
    #expect(machine.wake(now: now, next: .init(t0)) == .claim(dueBy: t0))
    let burst =
      (0..<3).map { claim("n\($0)", at: t0, row: Int64($0)) } + [claim("later", at: t0 + 0.0005, row: 9)]
    // When the claim comes back, it sleeps until the lead before the instant
    #expect(machine.claimed(burst, now: now, next: .init(t0 + 3600)) == .sleep(until: t0 - 0.001))
    // And a wake-up earlier than that hands nothing over
    #expect(machine.wake(now: t0 - 0.002, next: .init(t0 + 3600)) == .sleep(until: t0 - 0.001))
    // Then at the lead it hands over what is due by the instant, in order
    let (handed, next) = takeAll(
      &machine, from: machine.wake(now: t0 - 0.001, next: .init(t0 + 3600)), at: t0 - 0.001)
    #expect(handed == Array(burst.prefix(3)))
    #expect(next == .record(burst.prefix(3).map { handOff($0, at: t0 - 0.001) }))
    // And the later instant's claim at its own lead
    #expect(machine.recorded(now: t0 - 0.001, next: .init(t0 + 3600)) == .sleep(until: t0 + 0.0005 - 0.001))
    // And the lead is at most half the claim-ahead; without claiming ahead there is none
    #expect(FiringStateMachine(claimAhead: 0.01, handOverLead: 1).handOverLead == 0.005)
    #expect(FiringStateMachine(handOverLead: 0.001).handOverLead == 0)
  }

  @Test("a sink that shows bursts gets the instant's claims at once; a refused one is tried again on its own")
  func burstAtOnce() {
    // Given a machine whose sink shows a burst with one call, and four claims due at t0
    var machine = FiringStateMachine(claimAhead: 0.01, handsOverBursts: true, claimCost: 0, attempts: 2)
    _ = machine.wake(now: t0 - 0.01, next: .init(t0))
    let burst = (0..<4).map { claim("n\($0)", at: t0, row: Int64($0)) }
    _ = machine.claimed(burst, now: t0 - 0.01, next: nil)
    // When the instant comes, the four go over together
    #expect(machine.wake(now: t0, next: nil) == .handOverBurst(burst))
    // And the sink took two, one was cancelled meanwhile and one was refused
    let action = machine.handedOverBurst(
      [.taken(handOff(burst[0], at: t0)), .lost, .refused("busy"), .taken(handOff(burst[3], at: t0))], now: t0
    )
    // Then the refused one gets its second attempt alone, and then the failure
    #expect(action == .handOver(burst[2], attempt: 2))
    #expect(machine.handedOver(.refused("busy"), now: t0) == .markFailed(burst[2], reason: "busy"))
    // And the burst's record holds what was taken
    #expect(machine.markedFailed(now: t0) == .record([handOff(burst[0], at: t0), handOff(burst[3], at: t0)]))
    _ = machine.recorded(now: t0, next: nil)
    let report = machine.takeReport()
    #expect(report.delivered == 2)
    #expect(report.failed == 1)
    // And one claim alone is handed over as one
    #expect(machine.wake(now: t0 + 0.995, next: .init(t0 + 1)) == .claim(dueBy: t0 + 1.005))
    _ = machine.claimed([claim("single", at: t0 + 1)], now: t0 + 0.995, next: nil)
    #expect(machine.wake(now: t0 + 1, next: nil) == .handOver(claim("single", at: t0 + 1), attempt: 1))
  }

  @Test("a refusal in a burst larger than a part: the refused one alone, then the rest in parts again")
  func refusalInALargeBurst() {
    // Given 150 claims due at t0 for a sink that shows bursts
    var machine = FiringStateMachine(claimAhead: 0.01, handsOverBursts: true, claimCost: 0, attempts: 2)
    _ = machine.wake(now: t0 - 0.01, next: .init(t0))
    let burst = (0..<150).map { claim("n\($0)", at: t0, row: Int64($0)) }
    _ = machine.claimed(burst, now: t0 - 0.01, next: nil)
    let limit = FiringStateMachine.burstLimit
    #expect(machine.wake(now: t0, next: nil) == .handOverBurst(Array(burst.prefix(limit))))
    // When the sink refuses the second of the first part and takes the rest of it
    var results = burst.prefix(limit).map { FiringStateMachine.HandOffResult.taken(handOff($0, at: t0)) }
    results[1] = .refused("busy")
    // Then the refused one gets its second attempt alone
    #expect(machine.handedOverBurst(results, now: t0) == .handOver(burst[1], attempt: 2))
    // And after it the others go on in parts, not one by one
    let second = Array(burst[limit..<(2 * limit)])
    #expect(machine.handedOver(.taken(handOff(burst[1], at: t0)), now: t0) == .handOverBurst(second))
    let third = Array(burst[(2 * limit)...])
    #expect(
      machine.handedOverBurst(second.map { .taken(handOff($0, at: t0)) }, now: t0) == .handOverBurst(third))
    // And the record holds all 150, each once
    guard
      case .record(let taken) = machine.handedOverBurst(third.map { .taken(handOff($0, at: t0)) }, now: t0)
    else {
      Issue.record("expected the burst's record")
      return
    }
    #expect(Set(taken.map(\.claim)) == Set(burst))
    #expect(taken.count == 150)
  }

  @Test(
    "a burst that stops at a sink fault: what was taken is recorded, the fault's claim and the rest go back")
  func burstFault() {
    var machine = FiringStateMachine(claimAhead: 0.01, handsOverBursts: true, claimCost: 0, stalledRetry: 2)
    _ = machine.wake(now: t0 - 0.01, next: .init(t0))
    let burst = (0..<4).map { claim("n\($0)", at: t0, row: Int64($0)) }
    _ = machine.claimed(burst, now: t0 - 0.01, next: nil)
    #expect(machine.wake(now: t0, next: nil) == .handOverBurst(burst))
    let stalled = SinkFault(.stalled, sink: "stdout", reason: "full")
    // When the sink took the first and stalled on the second (the last two not tried)
    let action = machine.handedOverBurst([.taken(handOff(burst[0], at: t0)), .fault(stalled)], now: t0)
    // Then the first is recorded, and the other three are given back, to be tried in 2 s
    #expect(action == .record([handOff(burst[0], at: t0)]))
    #expect(machine.recorded(now: t0, next: nil) == .giveBack(Array(burst.dropFirst())))
    #expect(machine.gaveBack(now: t0) == .sleep(until: t0 + 2))
    #expect(machine.takeReport().sinkFault == stalled)
  }

  @Test("a burst is claimed earlier the larger it is, so that all of it is claimed by its instant")
  func marginGrowsWithTheBurst() {
    var machine = FiringStateMachine(claimAhead: 0.01, claimCost: 0.0001)
    let burst = FiringStateMachine.NextDue(t0, count: 1000)
    let margin = machine.margin(for: burst)
    #expect(abs(margin - 0.11) < 1e-9)
    #expect(machine.margin(for: .init(t0, count: 5)) < 0.011)
    #expect(machine.wake(now: t0 - 60, next: burst) == .sleep(until: t0 - margin))
    #expect(machine.wake(now: t0 - margin, next: burst) == .claim(dueBy: t0))
    // And a run that exits (no claim-ahead) claims what is due, when it is due
    var run = FiringStateMachine()
    #expect(run.wake(now: t0 - 1, next: burst) == .sleep(until: t0))
  }

  @Test(
    "claims seen to be slower than claimCost move the next burst's claim earlier, and faster ones back slowly"
  )
  func marginLearnsTheClaimCost() {
    var machine = FiringStateMachine(claimAhead: 0.01, claimCost: 0.0001)
    let later = t0 + 60
    let burst = (1...32).map { claim("c\($0)", at: t0, row: Int64($0)) }
    // Given a claim of 32 that took 6.4 ms: 200 µs each, twice what was expected
    let start = t0 - machine.margin(for: .init(t0, count: 32))
    #expect(machine.wake(now: start, next: .init(t0, count: 32)) == .claim(dueBy: t0))
    _ = machine.claimed(burst, now: start + 0.0064, next: .init(later, count: 1000))
    // Then a burst is counted at twice that: 1000 are claimed 0.41 s ahead, not 0.11 s
    #expect(abs(machine.observedClaimCost - 0.0002) < 1e-6)
    #expect(abs(machine.margin(for: .init(later, count: 1000)) - 0.41) < 1e-6)
    // And a faster claim (100 µs each) lowers the cost by an eighth of the difference
    var faster = FiringStateMachine(claimAhead: 0.01, claimCost: 0.0001)
    _ = faster.wake(now: start, next: .init(t0, count: 32))
    _ = faster.claimed(burst, now: start + 0.0064, next: nil)
    _ = takeAll(&faster, from: faster.wake(now: t0, next: nil), at: t0)
    _ = faster.recorded(now: t0, next: .init(later, count: 32))
    #expect(faster.wake(now: later - 0.02, next: .init(later, count: 32)) == .claim(dueBy: later))
    _ = faster.claimed(
      burst.map { claim($0.notification.id, at: later, row: $0.rowID) }, now: later - 0.0168, next: nil)
    #expect(abs(faster.observedClaimCost - (0.0002 - 0.0001 / 8)) < 1e-6)
    // And a claim of a few says nothing of the cost of one; with no claimCost the margin never grows
    var few = FiringStateMachine(claimAhead: 0.01, claimCost: 0.0001)
    #expect(few.wake(now: t0 - 0.01, next: .init(t0, count: 2)) == .claim(dueBy: t0))
    _ = few.claimed(Array(burst.prefix(2)), now: t0 - 0.005, next: nil)
    #expect(few.observedClaimCost == 0)
    var flat = FiringStateMachine(claimAhead: 0.01, claimCost: 0)
    #expect(flat.wake(now: t0 - 0.01, next: .init(t0, count: 32)) == .claim(dueBy: t0))
    _ = flat.claimed(burst, now: t0 - 0.0036, next: nil)
    #expect(flat.margin(for: .init(later, count: 1000)) == 0.01)
    // And the cost counted is at most maxClaimCost
    var slow = FiringStateMachine(claimAhead: 0.01, claimCost: 0.0001)
    #expect(slow.wake(now: start, next: .init(t0, count: 32)) == .claim(dueBy: t0))
    _ = slow.claimed(burst, now: start + 1, next: nil)
    #expect(slow.expectedClaimCost == FiringStateMachine.maxClaimCost)
  }

  @Test("claims are kept soonest first, whether a batch follows the ones before it or comes between them")
  func preparedStaysInOrder() {
    var machine = FiringStateMachine(claimAhead: 1, claimCost: 0)
    let first = [claim("a", at: t0 + 0.5, row: 1), claim("b", at: t0 + 0.5, row: 2)]
    let after = [claim("c", at: t0 + 0.6, row: 3)]
    var second = claim("d", at: t0 + 0.5, row: 1)
    second.occurrence = 1
    let between = [second, claim("e", at: t0 + 0.4, row: 9)]
    #expect(machine.wake(now: t0, next: .init(t0 + 0.5)) == .claim(dueBy: t0 + 1))
    #expect(machine.claimed(first, now: t0, next: .init(t0 + 0.6)) == .claim(dueBy: t0 + 1))
    #expect(machine.prepared == first)
    #expect(machine.claimed(after, now: t0, next: .init(t0 + 0.4)) == .claim(dueBy: t0 + 1))
    #expect(machine.prepared == first + after)
    #expect(machine.claimed(between, now: t0, next: nil) == .sleep(until: t0 + 0.4))
    #expect(machine.prepared.map(\.notification.id) == ["e", "a", "d", "b", "c"])
  }

  @Test("a wake-up hands over what is due before it claims anything")
  func handOverBeforeClaiming() {
    var machine = FiringStateMachine(claimAhead: 0.01, claimCost: 0)
    let prepared = [claim("x", at: t0)]
    _ = machine.wake(now: t0 - 0.01, next: .init(t0))
    _ = machine.claimed(prepared, now: t0 - 0.01, next: nil)
    // When the timer fires at the instant and the store says more is due right now
    // Then the hand-off comes first, the claim only after the record
    #expect(machine.wake(now: t0, next: .init(t0)) == .handOver(prepared[0], attempt: 1))
    #expect(
      machine.handedOver(.taken(handOff(prepared[0], at: t0)), now: t0)
        == .record([handOff(prepared[0], at: t0)]))
    #expect(machine.recorded(now: t0, next: .init(t0)) == .claim(dueBy: t0 + 0.01))
  }

  @Test("overdue claims are handed over as soon as they are claimed")
  func overdueAtOnce() {
    var machine = FiringStateMachine()
    #expect(machine.wake(now: t0, next: .init(t0 - 3600)) == .claim(dueBy: t0))
    let late = claim("late", at: t0 - 3600)
    #expect(machine.claimed([late], now: t0, next: nil) == .handOver(late, attempt: 1))
  }

  @Test("a full batch claims again; a bounded number of rounds, then it sleeps for no time")
  func claimRounds() {
    var machine = FiringStateMachine(claimAhead: 0, claimRounds: 3)
    #expect(machine.wake(now: t0, next: .init(t0)) == .claim(dueBy: t0))
    for round in 0..<3 {
      let batch = [claim("b\(round)", at: t0, row: Int64(round))]
      let (handed, record) = takeAll(&machine, from: machine.claimed(batch, now: t0, next: .init(t0)), at: t0)
      #expect(handed == batch)
      #expect(record == .record(batch.map { handOff($0, at: t0) }))
      // Still due after the batch: claim again until the rounds are used up
      #expect(
        machine.recorded(now: t0, next: .init(t0)) == (round < 2 ? .claim(dueBy: t0) : .sleep(until: t0)))
    }
  }

  @Test("due but nothing claimable: look again a millisecond later instead of spinning")
  func emptyClaimDoesNotSpin() {
    var machine = FiringStateMachine()
    #expect(machine.wake(now: t0, next: .init(t0)) == .claim(dueBy: t0))
    #expect(
      machine.claimed([], now: t0, next: .init(t0))
        == .sleep(until: t0 + FiringStateMachine.retryAfterEmptyClaim))
  }

  @Test("a clock set backwards hands over nothing early and sleeps until the claimed instant")
  func clockBackwards() {
    var machine = FiringStateMachine(claimAhead: 0.01, claimCost: 0)
    _ = machine.wake(now: t0 - 0.01, next: .init(t0))
    let prepared = [claim("x", at: t0)]
    _ = machine.claimed(prepared, now: t0 - 0.01, next: nil)
    #expect(machine.wake(now: t0 - 3600, next: nil) == .sleep(until: t0))
    #expect(machine.prepared == prepared)
  }

  @Test("a refused delivery is tried again, then recorded failed, and the burst goes on")
  func refusalsThenFailure() {
    var machine = FiringStateMachine(attempts: 3)
    let (a, b) = (claim("a", at: t0, row: 1), claim("b", at: t0, row: 2))
    _ = machine.wake(now: t0, next: .init(t0))
    #expect(machine.claimed([a, b], now: t0, next: nil) == .handOver(a, attempt: 1))
    #expect(machine.handedOver(.refused("no"), now: t0) == .handOver(a, attempt: 2))
    #expect(machine.handedOver(.refused("no"), now: t0) == .handOver(a, attempt: 3))
    #expect(machine.handedOver(.refused("still no"), now: t0) == .markFailed(a, reason: "still no"))
    #expect(machine.markedFailed(now: t0) == .handOver(b, attempt: 1))
    #expect(machine.handedOver(.taken(handOff(b, at: t0)), now: t0) == .record([handOff(b, at: t0)]))
    #expect(machine.recorded(now: t0, next: nil) == .sleep(until: nil))
    let report = machine.takeReport()
    #expect((report.claimed, report.delivered, report.failed) == (2, 1, 1))
  }

  @Test("a stalled sink: what it took is recorded, every other claim goes back, and it looks again later")
  func stalledSink() {
    var machine = FiringStateMachine(claimAhead: 0.01, claimCost: 0, stalledRetry: 2)
    let burst = (0..<3).map { claim("s\($0)", at: t0, row: Int64($0)) }
    let later = claim("later", at: t0 + 0.005, row: 9)
    _ = machine.wake(now: t0 - 0.01, next: .init(t0))
    _ = machine.claimed(burst + [later], now: t0 - 0.01, next: nil)
    #expect(machine.wake(now: t0, next: nil) == .handOver(burst[0], attempt: 1))
    #expect(machine.handedOver(.taken(handOff(burst[0], at: t0)), now: t0) == .handOver(burst[1], attempt: 1))
    let fault = SinkFault(.stalled, sink: "stdout", reason: "its reader has not read for 1 s")
    #expect(machine.handedOver(.fault(fault), now: t0) == .record([handOff(burst[0], at: t0)]))
    #expect(machine.recorded(now: t0, next: nil) == .giveBack([burst[1], burst[2], later]))
    #expect(machine.gaveBack(now: t0) == .sleep(until: t0 + 2))
    #expect(machine.prepared.isEmpty)
    let report = machine.takeReport()
    #expect(report.sinkFault == fault)
    #expect((report.delivered, report.released) == (1, 3))
  }

  @Test("a sink that is gone: everything goes back and it sleeps until woken")
  func goneSink() {
    var machine = FiringStateMachine()
    let a = claim("a", at: t0)
    _ = machine.wake(now: t0, next: .init(t0))
    _ = machine.claimed([a], now: t0, next: nil)
    #expect(
      machine.handedOver(.fault(SinkFault(.gone, sink: "stdout", reason: "closed")), now: t0) == .record([]))
    #expect(machine.recorded(now: t0, next: nil) == .giveBack([a]))
    #expect(machine.gaveBack(now: t0) == .sleep(until: nil))
  }

  @Test(
    "a spent budget records what was taken, keeps the rest prepared and wakes again at once; stop gives them back"
  )
  func budgetAndStop() {
    var machine = FiringStateMachine()
    let burst = (1...3).map { claim("u\($0)", at: t0, row: Int64($0)) }
    _ = machine.wake(now: t0, next: .init(t0))
    _ = machine.claimed(burst, now: t0, next: nil)
    #expect(machine.handedOver(.taken(handOff(burst[0], at: t0)), now: t0) == .handOver(burst[1], attempt: 1))
    #expect(machine.interrupted(.budget, now: t0 + 1) == .record([handOff(burst[0], at: t0)]))
    #expect(machine.recorded(now: t0 + 1, next: .init(t0)) == .sleep(until: t0 + 1))
    #expect(machine.prepared == Array(burst[1...]))
    #expect(machine.takeReport().stopped)
    #expect(machine.stop() == Array(burst[1...]))
    #expect(machine.prepared.isEmpty)
    #expect(machine.stop().isEmpty)
    #expect(machine.takeReport().released == 2)
  }

  @Test("a stop request between hand-overs keeps the rest for the driver and sleeps until woken")
  func stopRequest() {
    var machine = FiringStateMachine()
    let burst = (1...2).map { claim("s\($0)", at: t0, row: Int64($0)) }
    _ = machine.wake(now: t0, next: .init(t0))
    _ = machine.claimed(burst, now: t0, next: nil)
    #expect(machine.interrupted(.stop, now: t0) == .record([]))
    #expect(machine.recorded(now: t0, next: .init(t0)) == .sleep(until: nil))
    #expect(machine.takeReport().interrupted)
    #expect(machine.stop() == burst)
  }

  @Test("a store failure mid-burst returns to idle with nothing lost")
  func failureKeepsClaims() {
    var machine = FiringStateMachine()
    let burst = (1...2).map { claim("f\($0)", at: t0, row: Int64($0)) }
    _ = machine.wake(now: t0, next: .init(t0))
    _ = machine.claimed(burst, now: t0, next: nil)
    machine.failed()
    #expect(machine.isIdle)
    #expect(machine.prepared == burst)
  }

  @Test("an event the state cannot have traps")
  func impossibleEventTraps() throws {
    // In a process of its own (`pool-check-fixture - machine-trap`), not an exit test: Swift
    // Testing's exit-test monitor waits for any child with WNOWAIT and spins for ever on a
    // zombie child of another test that is not reaped yet, so the suite never ends.
    let result = try CommandRunner(executable: CommandRunner.product("pool-check-fixture")).run([
      "-", "machine-trap",
    ])
    #expect(result.status > 128, "exit \(result.status): \(result.stderr)")
    #expect(result.stderr.contains("recorded while"), "\(result.stderr)")
  }
}

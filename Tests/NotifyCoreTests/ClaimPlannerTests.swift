import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// One claim transaction's plan, from rows given as literals.
@Suite("ClaimPlanner and ReleasePlanner: what a claim and a give-back do to the store")
struct ClaimPlannerTests {
  let now = utc("2026-11-23T09:00:00Z")

  func stored(_ id: String, row: Int64, at date: Date, repeat unit: RepeatInterval? = nil, next: Int = 0)
    -> StoredNotification
  {
    StoredNotification(
      rowID: row,
      notification: LocalNotification(
        id: id, app: "a", schedule: Schedule(fireDate: .instant(date), repeatInterval: unit), body: id,
        createdAt: date),
      nextOccurrence: next, nextFireDate: date)
  }

  func abandoned(
    _ id: String, row: Int64, at date: Date, alive: Bool = false, claimedAt: Date? = nil, app: String = "a",
    readable: Bool = true
  )
    -> ClaimPlanner.ClaimRow
  {
    ClaimPlanner.ClaimRow(
      rowID: row, occurrence: 0, fireDate: date, late: false, coalesced: 0, ownerAlive: alive,
      claimedAt: claimedAt ?? date - 0.01,
      notification: readable
        ? LocalNotification(
          id: id, app: app, schedule: Schedule(fireDate: .instant(date)), body: id, createdAt: date)
        : nil)
  }

  var claims: (ClaimPlanner.Plan) -> [Claim] {
    { plan in
      plan.steps.compactMap {
        switch $0 {
        case .claim(let c), .takeOver(let c): c
        default: nil
        }
      }
    }
  }

  @Test("a due one-off is claimed and leaves the pending list")
  func oneOff() {
    let plan = ClaimPlanner.plan(
      claims: [], due: [stored("x", row: 1, at: now - 0.5)], now: now, zones: testZones(utcZone),
      misfireGrace: nil,
      limit: 64)
    #expect(plan.steps.first == .advance(rowID: 1, nextOccurrence: 1, nextFireDate: nil, resolvedZone: nil))
    #expect(claims(plan).map(\.notification.id) == ["x"])
    #expect(claims(plan).first?.late == false)
  }

  @Test("a repeat that missed ten minutes is claimed once, late, coalesced, and moves to its next minute")
  func coalesces() {
    let plan = ClaimPlanner.plan(
      claims: [], due: [stored("r", row: 1, at: now - 600 + 5, repeat: .minute)], now: now,
      zones: testZones(utcZone), misfireGrace: nil, limit: 64)
    let claim = claims(plan).first
    #expect(claim?.occurrence == 9)
    #expect(claim?.coalesced == 9)
    #expect(claim?.late == true)
    #expect(
      plan.steps.first == .advance(rowID: 1, nextOccurrence: 10, nextFireDate: now + 5, resolvedZone: nil))
  }

  @Test("past the misfire grace: recorded missed, not claimed")
  func missed() {
    let plan = ClaimPlanner.plan(
      claims: [], due: [stored("old", row: 1, at: now - 3600)], now: now, zones: testZones(utcZone),
      misfireGrace: 60, limit: 64)
    #expect(claims(plan).isEmpty)
    guard case .record(let event)? = plan.steps.last else {
      Issue.record("no history event: \(plan.steps)")
      return
    }
    #expect(event.kind == .missed)
    #expect(event.reason == "misfire-grace")
  }

  @Test("a dead firer's due claim is taken over, late; a live one's and a future one are not")
  func takeOver() {
    let plan = ClaimPlanner.plan(
      claims: [
        abandoned("dead", row: 1, at: now - 30), abandoned("live", row: 2, at: now - 30, alive: true),
        abandoned("future", row: 3, at: now + 30),
      ], due: [], now: now, zones: testZones(utcZone), misfireGrace: nil, limit: 64)
    #expect(plan.steps.count == 1)
    guard case .takeOver(let claim)? = plan.steps.first else {
      Issue.record("not taken over: \(plan.steps)")
      return
    }
    #expect(claim.notification.id == "dead")
    #expect(claim.late)
  }

  @Test("a live firer's claim past its lease is taken over; one renewed within it is not")
  func leaseExpiry() {
    let stuck = abandoned(
      "stuck", row: 1, at: now - 120, alive: true, claimedAt: now - ClaimLease.duration - 1)
    let renewed = abandoned("renewed", row: 2, at: now - 120, alive: true, claimedAt: now - 1)
    #expect(ClaimPlanner.isAbandoned(stuck, now: now))
    #expect(!ClaimPlanner.isAbandoned(renewed, now: now))
    let plan = ClaimPlanner.plan(
      claims: [stuck, renewed], due: [], now: now, zones: testZones(utcZone), misfireGrace: nil, limit: 64)
    #expect(claims(plan).map(\.notification.id) == ["stuck"])
  }

  @Test("an unreadable abandoned claim is dropped; another app's is left to that app")
  func dropsAndScopes() {
    let plan = ClaimPlanner.plan(
      claims: [
        abandoned("bad", row: 1, at: now - 1, readable: false), abandoned("b", row: 2, at: now - 1, app: "b"),
      ],
      due: [], now: now, zones: testZones(utcZone), misfireGrace: nil, limit: 64, app: "a")
    #expect(plan.steps == [.drop(rowID: 1, occurrence: 0)])
  }

  @Test("the limit counts take-overs and claims together")
  func limit() {
    let plan = ClaimPlanner.plan(
      claims: [abandoned("dead", row: 9, at: now - 1)],
      due: (1...5).map { stored("n\($0)", row: Int64($0), at: now - 1) }, now: now, zones: testZones(utcZone),
      misfireGrace: nil, limit: 3)
    #expect(claims(plan).map(\.notification.id) == ["dead", "n1", "n2"])
  }

  @Test("a local row follows the system zone: recomputed for the zone it is asked in")
  func refresh() {
    let row = StoredNotification(
      rowID: 4,
      notification: LocalNotification(
        id: "w", app: "a", schedule: Schedule(fireDate: .wallClock(wall("2026-11-24T09:00"), .local)),
        body: "w",
        createdAt: now),
      nextOccurrence: 0, nextFireDate: nil)
    #expect(
      ClaimPlanner.refresh([row], zones: testZones(berlin)) == [
        .advance(
          rowID: 4, nextOccurrence: 0, nextFireDate: utc("2026-11-24T08:00:00Z"),
          resolvedZone: "Europe/Berlin")
      ])
  }

  @Test(
    "give-back: an untouched row is restored at the first occurrence it stood for; a moved one orphans the claim; a gone one drops it"
  )
  func release() {
    let claim = Claim(
      rowID: 1, occurrence: 5, fireDate: now, late: true, coalesced: 3,
      notification: LocalNotification(
        id: "r", app: "a", schedule: Schedule(fireDate: .instant(now)), createdAt: now))
    let untouched = ReleasePlanner.RowState(nextOccurrence: 6, finished: false, idTakenByNewerRow: false)
    #expect(ReleasePlanner.decide(claim, row: untouched) == .restore(occurrence: 2))
    let moved = ReleasePlanner.RowState(nextOccurrence: 7, finished: false, idTakenByNewerRow: false)
    #expect(ReleasePlanner.decide(claim, row: moved) == .orphan)
    #expect(ReleasePlanner.decide(claim, row: nil) == .drop)
    let replaced = ReleasePlanner.RowState(nextOccurrence: 6, finished: true, idTakenByNewerRow: true)
    #expect(ReleasePlanner.decide(claim, row: replaced) == .drop)
    let finished = ReleasePlanner.RowState(nextOccurrence: 6, finished: true, idTakenByNewerRow: false)
    #expect(ReleasePlanner.decide(claim, row: finished) == .restore(occurrence: 2))
  }
}

import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// How late is too late (`LocalNotification.expireLate`) in a claim's plan.
@Suite("ClaimPlanner: expire-late")
struct ExpireLatePlannerTests {
  let now = utc("2026-11-23T09:00:00Z")

  func stored(_ id: String, row: Int64, at date: Date, expireLate: TimeInterval?) -> StoredNotification {
    StoredNotification(
      rowID: row,
      notification: LocalNotification(
        id: id, app: "a", schedule: Schedule(fireDate: .instant(date)), title: "t \(id)", wake: true,
        expireLate: expireLate, createdAt: date),
      nextOccurrence: 0, nextFireDate: date)
  }

  func missed(_ plan: ClaimPlanner.Plan) -> [HistoryEvent] {
    plan.steps.compactMap { if case .record(let event) = $0, event.kind == .missed { event } else { nil } }
  }

  func claimed(_ plan: ClaimPlanner.Plan) -> [String] {
    plan.steps.compactMap { if case .claim(let claim) = $0 { claim.notification.id } else { nil } }
  }

  @Test("later than its own limit: recorded missed with how late, not claimed; within it: claimed late")
  func ownLimit() throws {
    let plan = ClaimPlanner.plan(
      claims: [],
      due: [
        stored("expired", row: 1, at: now - 3600, expireLate: 1800),
        stored("within", row: 2, at: now - 600, expireLate: 1800),
      ], now: now, zones: testZones(utcZone), misfireGrace: nil, limit: 64)
    #expect(claimed(plan) == ["within"])
    let event = try #require(missed(plan).first)
    #expect(event.notificationID == "expired" && event.reason == "expire-late")
    #expect(event.detail["lateBy"] == .int(3600))
    #expect(event.fireDate == now - 3600 && event.late == true)
  }

  @Test("the tighter of its own limit and the firer's misfire grace decides, and names itself")
  func tighterWins() throws {
    let plan = ClaimPlanner.plan(
      claims: [],
      due: [
        stored("own", row: 1, at: now - 700, expireLate: 600),
        stored("grace", row: 2, at: now - 700, expireLate: 3600),
      ], now: now, zones: testZones(utcZone), misfireGrace: 650, limit: 64)
    #expect(claimed(plan).isEmpty)
    #expect(missed(plan).map(\.reason) == ["expire-late", "misfire-grace"])
  }

  @Test("a dead firer's claim later than the limit is dropped and recorded missed, not taken over")
  func abandonedClaim() throws {
    let row = ClaimPlanner.ClaimRow(
      rowID: 7, occurrence: 0, fireDate: now - 7200, late: false, coalesced: 0, ownerAlive: false,
      notification: stored("old", row: 7, at: now - 7200, expireLate: 60).notification)
    let plan = ClaimPlanner.plan(
      claims: [row], due: [], now: now, zones: testZones(utcZone), misfireGrace: nil, limit: 64)
    #expect(plan.steps.first == .drop(rowID: 7, occurrence: 0))
    #expect(missed(plan).first?.detail["lateBy"] == .int(7200))
  }
}

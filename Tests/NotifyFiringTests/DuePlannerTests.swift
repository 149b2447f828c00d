import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

@Suite("DuePlanner: what a firer does with a due notification")
struct DuePlannerTests {
  let anchor = Date(timeIntervalSince1970: 1_800_000_000)
  let utc = testZone("UTC")

  /// Occurrence k of a schedule that repeats every `step` seconds, `count` times (nil: forever).
  func every(_ step: TimeInterval, count: Int? = nil) -> (Int) -> Date? {
    { [anchor] k in
      guard k >= 0, count.map({ k < $0 }) ?? true else { return nil }
      return anchor + TimeInterval(k) * step
    }
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var nextIndex: Int
    var secondsAfterAnchor: TimeInterval
    var count: Int?
    var grace: TimeInterval?
    var expected: Expected?
    var testDescription: String { name }

    struct Expected: Sendable {
      var deliver: Bool
      var index: Int
      var late: Bool
      var coalesced: Int
      var nextIndex: Int?
    }
  }

  static let cases: [Case] = [
    Case(name: "not due yet", nextIndex: 0, secondsAfterAnchor: -0.5, expected: nil),
    Case(
      name: "due right now is on time", nextIndex: 0, secondsAfterAnchor: 0,
      expected: .init(deliver: true, index: 0, late: false, coalesced: 0, nextIndex: 1)),
    Case(
      name: "within the late tolerance is on time", nextIndex: 0, secondsAfterAnchor: 0.9,
      expected: .init(deliver: true, index: 0, late: false, coalesced: 0, nextIndex: 1)),
    Case(
      name: "past the tolerance is late", nextIndex: 0, secondsAfterAnchor: 5,
      expected: .init(deliver: true, index: 0, late: true, coalesced: 0, nextIndex: 1)),
    Case(
      name: "downtime coalesces into the latest occurrence", nextIndex: 2, secondsAfterAnchor: 60 * 10 + 30,
      expected: .init(deliver: true, index: 10, late: true, coalesced: 8, nextIndex: 11)),
    Case(
      name: "a year of minutes coalesces into one", nextIndex: 0, secondsAfterAnchor: 365 * 86_400 + 1,
      expected: .init(deliver: true, index: 525_600, late: true, coalesced: 525_600, nextIndex: 525_601)),
    Case(
      name: "the last of a counted repeat finishes it", nextIndex: 0, secondsAfterAnchor: 60 * 100, count: 3,
      expected: .init(deliver: true, index: 2, late: true, coalesced: 2, nextIndex: nil)),
    Case(
      name: "past the misfire grace is missed", nextIndex: 0, secondsAfterAnchor: 150, grace: 20,
      expected: .init(deliver: false, index: 2, late: true, coalesced: 2, nextIndex: 3)),
    Case(
      name: "coalesced but the latest within grace is delivered", nextIndex: 0, secondsAfterAnchor: 130,
      grace: 60, expected: .init(deliver: true, index: 2, late: true, coalesced: 2, nextIndex: 3)),
    Case(
      name: "past the end of the schedule", nextIndex: 3, secondsAfterAnchor: 1000, count: 3, expected: nil),
  ]

  @Test("plans", arguments: cases)
  func plans(_ c: Case) {
    // Given a minutely schedule whose next undelivered occurrence is c.nextIndex
    let now = anchor + c.secondsAfterAnchor
    // When the planner looks at it at `now`
    let plan = DuePlanner.plan(
      nextIndex: c.nextIndex, now: now, misfireGrace: c.grace, occurrence: every(60, count: c.count))
    // Then it delivers or misses the expected occurrence and moves on
    guard let expected = c.expected else {
      #expect(plan == nil)
      return
    }
    let due = try! #require(plan).action.occurrence
    #expect(due.index == expected.index)
    #expect(due.fireDate == anchor + TimeInterval(expected.index) * 60)
    #expect(due.late == expected.late)
    #expect(due.coalesced == expected.coalesced)
    if case .deliver = plan!.action { #expect(expected.deliver) } else { #expect(!expected.deliver) }
    #expect(plan!.next?.index == expected.nextIndex)
    if let next = plan!.next { #expect(next.fireDate > now) }
  }

  @Test("a clock set backwards never plans an earlier occurrence again")
  func backwardsClock() {
    // Given occurrence 5 was delivered (next index 6)
    let occurrence = every(60)
    // When the clock goes back to just after occurrence 3
    let plan = DuePlanner.plan(
      nextIndex: 6, now: anchor + 3 * 60 + 1, misfireGrace: nil, occurrence: occurrence)
    // Then nothing is due: indexes only move forward
    #expect(plan == nil)
  }

  @Test("the search costs O(log n) calls, not one per missed occurrence")
  func logarithmicSearch() {
    // Given a minute repeat missed for ten years
    var calls = 0
    let occurrence = every(60)
    // When planning
    let plan = DuePlanner.plan(nextIndex: 0, now: anchor + 10 * 365 * 86_400, misfireGrace: nil) { k in
      calls += 1
      return occurrence(k)
    }
    // Then it finds the latest with a few dozen calls
    #expect(plan?.action.occurrence.index == 10 * 365 * 1440)
    #expect(calls < 100)
  }

  @Test("works on a real schedule with repeat-count and until")
  func realSchedule() {
    // Given an hourly schedule limited to 5 deliveries, and one limited by --until
    let counted = Schedule(fireDate: .instant(anchor), repeatInterval: .hour, repeatCount: 5)
    let until = Schedule(fireDate: .instant(anchor), repeatInterval: .hour, until: anchor + 2.5 * 3600)
    // When both are looked at long after they ended
    let late = anchor + 30 * 3600
    let a = DuePlanner.plan(counted, nextIndex: 1, now: late, zones: testZones(utc), misfireGrace: nil)
    let b = DuePlanner.plan(until, nextIndex: 0, now: late, zones: testZones(utc), misfireGrace: nil)
    // Then each delivers its last occurrence once and finishes
    #expect(a?.action.occurrence.index == 4)
    #expect(a?.action.occurrence.coalesced == 3)
    #expect(a?.next == nil)
    #expect(b?.action.occurrence.index == 2)
    #expect(b?.next == nil)
  }
}

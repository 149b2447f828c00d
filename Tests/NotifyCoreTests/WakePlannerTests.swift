import Foundation
import Testing

@testable import NotifyCore

/// When the wake-capable timer is armed for the earliest waking notification.
@Suite("WakePlanner: the alarm a wake lead ahead")
struct WakePlannerTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  @Test(
    "the lead before the instant; the instant itself once inside the lead; nothing once due or without one",
    arguments: [
      (instant: 3600.0, lead: 60.0, alarm: 3540.0 as Double?),
      (instant: 3600, lead: 0, alarm: 3600),
      (instant: 3600, lead: 600, alarm: 3000),
      (instant: 30, lead: 60, alarm: 30),
      (instant: 60, lead: 60, alarm: 60),
      (instant: 0, lead: 60, alarm: nil),
      (instant: -5, lead: 60, alarm: nil),
    ])
  func alarm(instant: Double, lead: Double, alarm: Double?) {
    // Given the earliest waking notification `instant` seconds from now and a lead
    let due = WakePlanner.Due(instant: now + instant, lead: lead)
    // Then the alarm is armed where expected
    #expect(WakePlanner.alarm(for: due, now: now) == alarm.map { now + $0 })
  }

  @Test("nothing waking pending: no alarm")
  func none() {
    #expect(WakePlanner.alarm(for: nil, now: now) == nil)
  }

  @Test(
    "the lead's bounds: 0 to 10 minutes", arguments: [(-1.0, false), (0, true), (600, true), (601, false)])
  func leadBounds(lead: Double, valid: Bool) {
    #expect(((try? Validator.wakeLead(lead)) != nil) == valid)
  }

  @Test(
    "expire-late's bounds: a second to a year",
    arguments: [(0.5, false), (1, true), (31_536_000, true), (31_536_001, false)])
  func expireLateBounds(limit: Double, valid: Bool) {
    #expect(((try? Validator.expireLate(limit)) != nil) == valid)
  }

  @Test(
    "a duration out of its bounds is a value: which field, which bound; a huge one does not trap",
    arguments: [
      (Field.expireLate, -5.0, Violation.outOfRange(-5, 1...31_536_000)),
      (.expireLate, 1e300, .notANumber("1e+300")),
      (.expireLate, .nan, .notANumber("nan")),
      (.wakeLead, 601, .outOfRange(601, 0...600)),
      (.wakeLead, -.infinity, .notANumber("-inf")),
    ])
  func durationReasons(field: Field, seconds: Double, violation: Violation) {
    // When the duration is checked for its field
    let check = { () throws(NotifyError) in
      field == .expireLate ? try Validator.expireLate(seconds) : try Validator.wakeLead(seconds)
    }
    let error = #expect(throws: NotifyError.self) { try check() }
    // Then the reason names the field and the bound, and the words the value
    #expect(error?.reason == .invalid(field, violation))
    #expect(error?.exitCode == 65)
  }

  typealias Field = NotifyError.Field
  typealias Violation = NotifyError.Violation
}

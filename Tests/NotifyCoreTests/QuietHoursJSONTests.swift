import Foundation
import Testing

@testable import NotifyCore

@Suite("QuietHours JSON: notify quiet --json and the store")
struct QuietHoursJSONTests {
  @Test("the JSON names every member, nulls included, days in week order")
  func text() {
    // Given manual quiet until an instant, a skip and a schedule
    let quiet = QuietHours(
      manual: .until(utc("2026-06-06T05:00:00Z")), scheduleSkippedUntil: utc("2026-06-06T05:00:00.250Z"),
      schedule: quietSchedule("22:00", "07:30", days: [.sunday, .monday, .friday]))
    // When written; then the text is the documented form
    #expect(
      quiet.jsonRecord.compactText
        == #"{"manual":"on","manualUntil":"2026-06-06T05:00:00Z","scheduleSkippedUntil":"2026-06-06T05:00:00.250Z","#
        + #""schedule":{"days":["mon","fri","sun"],"from":"22:00","to":"07:30"}}"#)
    #expect(
      QuietHours().jsonRecord.compactText
        == #"{"manual":"off","manualUntil":null,"scheduleSkippedUntil":null,"schedule":null}"#)
  }

  struct Value: CustomTestStringConvertible, Sendable {
    let name: String
    let quiet: QuietHours
    var testDescription: String { name }
    init(_ name: String, _ quiet: QuietHours) {
      self.name = name
      self.quiet = quiet
    }
  }

  static let values: [Value] = [
    Value("never quiet", QuietHours()),
    Value("on until turned off", QuietHours(manual: .untilTurnedOff)),
    Value(
      "on until an instant with milliseconds", QuietHours(manual: .until(utc("2026-06-06T05:00:00.123Z")))),
    Value(
      "a skipped night",
      QuietHours(scheduleSkippedUntil: utc("2026-06-06T05:00:00Z"), schedule: quietSchedule("22:00", "07:00"))
    ),
    Value("weeknights", QuietHours(schedule: quietSchedule("23:45", "06:15", days: weekdaysOnly))),
    Value("a schedule with no days", QuietHours(schedule: quietSchedule("00:00", "00:00", days: []))),
    Value(
      "everything",
      QuietHours(
        manual: .until(utc("1999-12-31T23:59:59Z")), scheduleSkippedUntil: utc("2100-01-01T00:00:00Z"),
        schedule: quietSchedule("09:05", "17:00", days: [.saturday]))
    ),
  ]

  @Test("a round trip through the text gives the same value", arguments: values)
  func roundTrip(_ value: Value) throws {
    // Given quiet hours; when written as text and read back
    let back = try QuietHours(json: try JSONValue.parse(value.quiet.jsonRecord.compactText))
    // Then they are equal, schedule included
    #expect(back == value.quiet)
    if let schedule = value.quiet.schedule {
      #expect(try QuietSchedule(json: try JSONValue.parse(schedule.jsonRecord.compactText)) == schedule)
    }
  }

  @Test("members that are null may be left out")
  func missingMembers() throws {
    // Given objects without the nullable members; when read; then they mean null
    #expect(try QuietHours(json: JSONValue.parse("{}")) == QuietHours())
    #expect(try QuietHours(json: JSONValue.parse(#"{"manual":"on"}"#)) == QuietHours(manual: .untilTurnedOff))
  }

  @Test(
    "rejects JSON that is not the form written, as invalid data",
    arguments: [
      ("[]", "not an object"),
      (#"{"manual":true}"#, "manual is true"),
      (#"{"manual":"maybe"}"#, #"manual is "maybe""#),
      (#"{"manual":"off","manualUntil":"2026-06-06T05:00:00Z"}"#, "manualUntil is set while manual is off"),
      (#"{"manual":"on","manualUntil":"tomorrow"}"#, "manualUntil 'tomorrow' is not an RFC 3339 instant"),
      (#"{"scheduleSkippedUntil":"2026-06-06T05:00"}"#, "is not an RFC 3339 instant"),
      (#"{"scheduleSkippedUntil":5}"#, "scheduleSkippedUntil is 5"),
      (#"{"schedule":{"from":"22:00","days":[]}}"#, "needs from, to and days"),
      (#"{"schedule":{"from":"25:00","to":"07:00","days":[]}}"#, "hour 25"),
      (#"{"schedule":{"from":"22:00","to":"7:00","days":[]}}"#, "HH:MM"),
      (#"{"schedule":{"from":"22:00","to":"07:00","days":["mon","xyz"]}}"#, #"days hold "xyz""#),
      (#"{"schedule":{"from":"22:00","to":"07:00","days":"mon"}}"#, "needs from, to and days"),
    ])
  func rejects(text: String, mention: String) throws {
    // Given JSON that does not read back
    let value = try JSONValue.parse(text)
    // When read
    let error = #expect(throws: NotifyError.self) { try QuietHours(json: value) }
    // Then it is invalid data that says what is wrong
    #expect(error?.kind == .invalidData)
    #expect(
      error?.description.contains(mention) == true, "\(error?.description ?? "no error") lacks '\(mention)'")
  }
}

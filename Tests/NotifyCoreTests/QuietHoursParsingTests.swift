import Foundation
import Testing

@testable import NotifyCore

@Suite("QuietHours parsing: --from, --to, --days, --for, --until")
struct QuietHoursParsingTests {
  struct Accepted: CustomTestStringConvertible, Sendable {
    let name: String
    let from: String?
    let to: String?
    var days: String? = nil
    let expected: QuietSchedule?
    var testDescription: String { name }
  }

  static let accepted: [Accepted] = [
    Accepted(name: "nothing given: no schedule", from: nil, to: nil, expected: nil),
    Accepted(
      name: "from and to without days: every day", from: "22:00", to: "07:00",
      expected: quietSchedule("22:00", "07:00")),
    Accepted(
      name: "equal from and to: a whole day", from: "00:00", to: "00:00", days: "sun",
      expected: quietSchedule("00:00", "00:00", days: [.sunday])),
    Accepted(
      name: "last minute of the day", from: "23:59", to: "00:00",
      expected: quietSchedule("23:59", "00:00")),
    Accepted(
      name: "a range", from: "22:00", to: "07:00", days: "mon-fri",
      expected: quietSchedule("22:00", "07:00", days: weekdaysOnly)),
    Accepted(
      name: "a range over the weekend wraps", from: "22:00", to: "07:00", days: "fri-mon",
      expected: quietSchedule("22:00", "07:00", days: [.friday, .saturday, .sunday, .monday])),
    Accepted(
      name: "a list, any case, full names, spaces after commas", from: "22:00", to: "07:00",
      days: "Sat, SUNDAY, wednesday",
      expected: quietSchedule("22:00", "07:00", days: [.saturday, .sunday, .wednesday])),
    Accepted(
      name: "ranges and names mixed, repeats harmless", from: "22:00", to: "07:00", days: "mon-wed,fri,tue",
      expected: quietSchedule("22:00", "07:00", days: [.monday, .tuesday, .wednesday, .friday])),
    Accepted(
      name: "a one-day range", from: "22:00", to: "07:00", days: "sun-sun",
      expected: quietSchedule("22:00", "07:00", days: [.sunday])),
  ]

  @Test("accepts schedules", arguments: accepted)
  func accepts(_ a: Accepted) throws {
    // Given the option values; when parsed; then they make the expected schedule
    #expect(try QuietSchedule.parse(from: a.from, to: a.to, days: a.days) == a.expected)
  }

  struct Failure: CustomTestStringConvertible, Sendable {
    let name: String
    let from: String?
    let to: String?
    var days: String? = nil
    let kind: NotifyError.Kind
    /// Words the message must contain.
    let mentions: [String]
    var testDescription: String { name }
  }

  static let failures: [Failure] = [
    Failure(name: "from without to", from: "22:00", to: nil, kind: .usage, mentions: ["no end", "to 07:00"]),
    Failure(
      name: "to without from", from: nil, to: "07:00", kind: .usage,
      mentions: ["no start", "quiet hours from as well, as in 22:00 to 07:00"]),
    Failure(
      name: "days alone", from: nil, to: nil, days: "mon", kind: .usage,
      mentions: ["quiet hours from and quiet hours to"]),
    Failure(
      name: "hour 25", from: "25:00", to: "07:00", kind: .invalidData,
      mentions: ["quiet hours from '25:00'", "hour 25", "00 to 23"]),
    Failure(
      name: "hour 24 is not midnight", from: "22:00", to: "24:00", kind: .invalidData,
      mentions: ["quiet hours to", "hour 24", "midnight is 00:00"]),
    Failure(name: "minute 60", from: "22:60", to: "07:00", kind: .invalidData, mentions: ["minute 60"]),
    Failure(
      name: "a bare hour", from: "22:00", to: "7", kind: .invalidData, mentions: ["HH:MM", "write 07:00"]),
    Failure(
      name: "a one-digit hour", from: "7:30", to: "08:00", kind: .invalidData, mentions: ["write 07:30"]),
    Failure(
      name: "seconds", from: "22:00:00", to: "07:00", kind: .invalidData, mentions: ["not a time of day"]),
    Failure(name: "no colon", from: "2200", to: "07:00", kind: .invalidData, mentions: ["not a time of day"]),
    Failure(name: "empty time", from: "", to: "07:00", kind: .invalidData, mentions: ["not a time of day"]),
    Failure(name: "a word", from: "noon", to: "07:00", kind: .invalidData, mentions: ["not a time of day"]),
    Failure(name: "a sign", from: "+7:00", to: "07:00", kind: .invalidData, mentions: ["not a time of day"]),
    Failure(
      name: "empty days", from: "22:00", to: "07:00", days: "", kind: .invalidData,
      mentions: ["empty", "mon-fri"]),
    Failure(
      name: "blank days", from: "22:00", to: "07:00", days: " ", kind: .invalidData, mentions: ["empty"]),
    Failure(
      name: "an unknown day", from: "22:00", to: "07:00", days: "mon,xyz", kind: .invalidData,
      mentions: ["'xyz' is not a day", "mon tue wed thu fri sat sun"]),
    Failure(
      name: "two-letter day", from: "22:00", to: "07:00", days: "mo", kind: .invalidData,
      mentions: ["'mo' is not a day"]),
    Failure(
      name: "an empty item", from: "22:00", to: "07:00", days: "mon,,tue", kind: .invalidData,
      mentions: ["empty day name", "single commas"]),
    Failure(
      name: "a trailing comma", from: "22:00", to: "07:00", days: "mon,", kind: .invalidData,
      mentions: ["empty day name"]),
    Failure(
      name: "a range without an end", from: "22:00", to: "07:00", days: "mon-", kind: .invalidData,
      mentions: ["empty day name"]),
    Failure(
      name: "a range with three ends", from: "22:00", to: "07:00", days: "mon-tue-wed", kind: .invalidData,
      mentions: ["more than two ends"]),
    Failure(
      name: "control characters are shown escaped", from: "22:00", to: "07:00", days: "mon\u{1B}",
      kind: .invalidData, mentions: ["\\u{1b}"]),
  ]

  @Test("rejects bad schedules with the exit code and a fix", arguments: failures)
  func rejects(_ f: Failure) {
    // Given bad option values; when parsed
    let error = #expect(throws: NotifyError.self) {
      try QuietSchedule.parse(from: f.from, to: f.to, days: f.days)
    }
    // Then the error has the kind (64 usage, 65 bad data) and says the problem and the fix
    #expect(error?.kind == f.kind)
    #expect(error?.fix?.isEmpty == false)
    for word in f.mentions {
      #expect(
        error?.description.contains(word) == true, "\(error?.description ?? "no error") lacks '\(word)'")
    }
  }

  /// Friday 2026-06-05 23:00 in Berlin (UTC+2).
  static let now = utc("2026-06-05T23:00:00+02:00")

  @Test(
    "--for and --until give the end of manual quiet",
    arguments: [
      ("neither: until turned off", nil, nil, nil),
      ("for an hour", "1h", nil, "2026-06-06T00:00:00+02:00"),
      ("for a sum", "1h30m", nil, "2026-06-06T00:30:00+02:00"),
      ("until a later time of day: tomorrow's", nil, "07:00", "2026-06-06T07:00:00+02:00"),
      ("until a time later today", nil, "23:30", "2026-06-05T23:30:00+02:00"),
      ("until the time of day it is now: tomorrow's", nil, "23:00", "2026-06-06T23:00:00+02:00"),
      ("until a wall-clock date and time", nil, "2026-06-07T09:00", "2026-06-07T09:00:00+02:00"),
      ("until an RFC 3339 instant", nil, "2026-06-06T05:00:00Z", "2026-06-06T05:00:00Z"),
    ] as [(String, String?, String?, String?)])
  func manualEnd(name: String, duration: String?, until: String?, expected: String?) throws {
    // Given --for or --until at Friday 23:00; when parsed in Berlin; then quiet ends at the instant
    #expect(
      try QuietHours.manualEnd(for: duration, until: until, now: Self.now, zone: berlin) == expected.map(utc))
  }

  @Test("--until in tonight's DST gap moves forward by the gap")
  func untilInAGap() throws {
    // Given Saturday 2026-03-28 23:00 CET, the night Berlin skips 02:00–03:00
    let saturday = utc("2026-03-28T23:00:00+01:00")
    // When quiet is turned on until 02:30
    let end = try QuietHours.manualEnd(for: nil, until: "02:30", now: saturday, zone: berlin)
    // Then it ends at 03:30 CEST
    #expect(end == utc("2026-03-29T03:30:00+02:00"))
  }

  @Test(
    "rejects bad --for and --until",
    arguments: [
      ("both", "1h", "07:00", NotifyError.Kind.usage, ["quiet for '1h'", "until '07:00'", "give one"]),
      ("zero duration", "0s", nil, .invalidData, ["quiet for '0s'", "greater than zero"]),
      ("duration without a unit", "90", nil, .invalidData, ["quiet for '90'", "no unit"]),
      ("empty duration", "", nil, .invalidData, ["quiet for needs a duration"]),
      ("until in the past", nil, "2026-06-05T22:00", .invalidData, ["not in the future", "07:00"]),
      ("until a bad time", nil, "25:00", .invalidData, ["until '25:00'", "hour 25"]),
    ] as [(String, String?, String?, NotifyError.Kind, [String])])
  func rejectsManualEnd(
    name: String, duration: String?, until: String?, kind: NotifyError.Kind, mentions: [String]
  ) {
    // Given bad --for / --until; when parsed
    let error = #expect(throws: NotifyError.self) {
      try QuietHours.manualEnd(for: duration, until: until, now: Self.now, zone: berlin)
    }
    // Then it is the kind expected, names the option as quiet's own, and says what to do
    #expect(error?.kind == kind)
    #expect(error?.fix?.isEmpty == false)
    #expect(error?.description.contains("the delay") == false)
    for word in mentions {
      #expect(
        error?.description.contains(word) == true, "\(error?.description ?? "no error") lacks '\(word)'")
    }
  }
}

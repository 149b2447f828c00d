import Foundation
import NotifyTestSupport
import Testing

@testable import NotifyCore

@Suite("TimeParser.fireDate: --at and --time-zone")
struct FireDateParsingTests {
  struct Accepted: CustomTestStringConvertible, Sendable {
    let name: String
    let text: String
    let timeZone: String?
    let now: String
    let expected: FireDate
    var testDescription: String { name }
  }

  static let noon = "2026-06-01T10:00:00Z"

  static let accepted: [Accepted] = [
    Accepted(
      name: "offset", text: "2026-11-22T09:00:00+01:00", timeZone: nil, now: noon,
      expected: .instant(utc("2026-11-22T08:00:00Z"))),
    Accepted(
      name: "negative offset", text: "2026-11-22T09:00:00-05:30", timeZone: nil, now: noon,
      expected: .instant(utc("2026-11-22T14:30:00Z"))),
    Accepted(
      name: "Z", text: "2026-11-22T09:00:00Z", timeZone: nil, now: noon,
      expected: .instant(utc("2026-11-22T09:00:00Z"))),
    Accepted(
      name: "lower-case t and z", text: "2026-11-22t09:00:00z", timeZone: nil, now: noon,
      expected: .instant(utc("2026-11-22T09:00:00Z"))),
    Accepted(
      name: "fractional seconds", text: "2026-11-22T09:00:00.250Z", timeZone: nil, now: noon,
      expected: .instant(utc("2026-11-22T09:00:00.250Z"))),
    Accepted(
      name: "space instead of T with offset", text: "2026-11-22 09:00:00+00:00", timeZone: nil, now: noon,
      expected: .instant(utc("2026-11-22T09:00:00Z"))),
    Accepted(
      name: "offset without seconds", text: "2026-11-22T09:00Z", timeZone: nil, now: noon,
      expected: .instant(utc("2026-11-22T09:00:00Z"))),
    Accepted(
      name: "leap second is the next minute", text: "2016-12-31T23:59:60Z", timeZone: nil, now: noon,
      expected: .instant(utc("2017-01-01T00:00:00Z"))),
    Accepted(
      name: "wall-clock date and time is local", text: "2026-11-22T09:00", timeZone: nil, now: noon,
      expected: .wallClock(wall("2026-11-22T09:00"), .local)),
    Accepted(
      name: "wall-clock with seconds and a space", text: "2026-11-22 09:00:30", timeZone: nil, now: noon,
      expected: .wallClock(wall("2026-11-22T09:00:30"), .local)),
    Accepted(
      name: "named zone", text: "2026-11-22T09:00", timeZone: "Europe/Berlin", now: noon,
      expected: .wallClock(wall("2026-11-22T09:00"), .named("Europe/Berlin"))),
    Accepted(
      name: "explicit local", text: "2026-11-22T09:00", timeZone: "local", now: noon,
      expected: .wallClock(wall("2026-11-22T09:00"), .local)),
    Accepted(
      name: "wall-clock in a DST gap is kept as written", text: "2026-03-29T02:30", timeZone: "Europe/Berlin",
      now: noon, expected: .wallClock(wall("2026-03-29T02:30"), .named("Europe/Berlin"))),
    Accepted(
      name: "past wall-clock dates are kept (fire at once)", text: "2020-01-01T00:00", timeZone: nil,
      now: noon, expected: .wallClock(wall("2020-01-01T00:00"), .local)),
    Accepted(
      name: "leap day", text: "2028-02-29T09:00", timeZone: nil, now: noon,
      expected: .wallClock(wall("2028-02-29T09:00"), .local)),
    Accepted(
      name: "HH:MM later today", text: "11:00", timeZone: nil, now: noon,
      expected: .wallClock(wall("2026-06-01T11:00"), .local)),
    Accepted(
      name: "HH:MM earlier is tomorrow", text: "09:00", timeZone: nil, now: noon,
      expected: .wallClock(wall("2026-06-02T09:00"), .local)),
    Accepted(
      name: "HH:MM equal to now is tomorrow", text: "10:00", timeZone: nil, now: noon,
      expected: .wallClock(wall("2026-06-02T10:00"), .local)),
    Accepted(
      name: "HH:MM:SS one second after now is today", text: "10:00:01", timeZone: nil, now: noon,
      expected: .wallClock(wall("2026-06-01T10:00:01"), .local)),
    Accepted(
      name: "HH:MM midnight", text: "00:00", timeZone: nil, now: noon,
      expected: .wallClock(wall("2026-06-02T00:00"), .local)),
    Accepted(
      name: "HH:MM across the year end", text: "23:00", timeZone: nil, now: "2026-12-31T23:30:00Z",
      expected: .wallClock(wall("2027-01-01T23:00"), .local)),
    Accepted(
      name: "HH:MM uses the date in the named zone", text: "23:00", timeZone: "Europe/Berlin",
      now: "2026-06-01T22:30:00Z", expected: .wallClock(wall("2026-06-02T23:00"), .named("Europe/Berlin"))),
    Accepted(
      name: "HH:MM passed in the named zone is tomorrow there", text: "00:15", timeZone: "Europe/Berlin",
      now: "2026-06-01T22:30:00Z", expected: .wallClock(wall("2026-06-03T00:15"), .named("Europe/Berlin"))),
    Accepted(
      name: "HH:MM in a gap still ahead of now is today", text: "02:30", timeZone: "Europe/Berlin",
      now: "2026-03-29T01:15:00Z", expected: .wallClock(wall("2026-03-29T02:30"), .named("Europe/Berlin"))),
  ]

  @Test("parses --at", arguments: accepted)
  func parses(_ c: Accepted) throws {
    // Given --at text, an optional --time-zone and now (system zone UTC)
    // When it is parsed
    let fireDate = try TimeParser.fireDate(
      c.text, timeZone: c.timeZone, now: utc(c.now), zones: testZones(utcZone))
    // Then it is the expected instant or wall-clock time
    #expect(fireDate == c.expected)
  }

  @Test("HH:MM for a local zone uses the system zone's date")
  func localUsesSystemZone() throws {
    // Given now is 2026-06-01 22:30 UTC, already June 2 in Tokyo
    let now = utc("2026-06-01T22:30:00Z")
    // When 08:00 is parsed with Tokyo as the system zone
    let fireDate = try TimeParser.fireDate(
      "08:00", timeZone: nil, now: now, zones: testZones(zone("Asia/Tokyo")))
    // Then it is 08:00 on June 2 (07:30 Tokyo time now), kept as a local wall-clock time
    #expect(fireDate == .wallClock(wall("2026-06-02T08:00"), .local))
  }

  struct Rejected: CustomTestStringConvertible, Sendable {
    let name: String
    let text: String
    let timeZone: String?
    let kind: NotifyError.Kind
    let mentions: String
    var testDescription: String { name }
  }

  static let rejected: [Rejected] = [
    Rejected(name: "empty", text: "", timeZone: nil, kind: .invalidData, mentions: "is not a time"),
    Rejected(name: "words", text: "tomorrow", timeZone: nil, kind: .invalidData, mentions: "is not a time"),
    Rejected(name: "one-digit hour", text: "9:00", timeZone: nil, kind: .invalidData, mentions: "09:00"),
    Rejected(
      name: "date without time", text: "2026-11-22", timeZone: nil, kind: .invalidData,
      mentions: "2026-11-22T09:00"),
    Rejected(
      name: "month 13", text: "2026-13-01T09:00", timeZone: nil, kind: .invalidData, mentions: "month 13"),
    Rejected(
      name: "month 0", text: "2026-00-10T09:00", timeZone: nil, kind: .invalidData, mentions: "month 0"),
    Rejected(
      name: "Feb 30", text: "2026-02-30T09:00", timeZone: nil, kind: .invalidData,
      mentions: "day 30 does not exist in February 2026"),
    Rejected(
      name: "Feb 29 in a common year", text: "2026-02-29T09:00", timeZone: nil, kind: .invalidData,
      mentions: "01 to 28"),
    Rejected(
      name: "Apr 31", text: "2026-04-31T09:00", timeZone: nil, kind: .invalidData, mentions: "01 to 30"),
    Rejected(name: "day 0", text: "2026-04-00T09:00", timeZone: nil, kind: .invalidData, mentions: "day 0"),
    Rejected(
      name: "hour 24", text: "2026-01-01T24:00", timeZone: nil, kind: .invalidData, mentions: "hour 24"),
    Rejected(name: "bare hour 24", text: "24:00", timeZone: nil, kind: .invalidData, mentions: "hour 24"),
    Rejected(
      name: "minute 60", text: "2026-01-01T09:60", timeZone: nil, kind: .invalidData, mentions: "minute 60"),
    Rejected(name: "second 61", text: "09:00:61", timeZone: nil, kind: .invalidData, mentions: "second 61"),
    Rejected(
      name: "second 60 without offset", text: "09:00:60", timeZone: nil, kind: .invalidData,
      mentions: "leap second"),
    Rejected(
      name: "second 61 with offset", text: "2016-12-31T23:59:61Z", timeZone: nil, kind: .invalidData,
      mentions: "second 61"),
    Rejected(
      name: "fraction without offset", text: "2026-11-22T09:00:00.5", timeZone: nil, kind: .invalidData,
      mentions: "fractional"),
    Rejected(
      name: "fraction without seconds", text: "2026-11-22T09:00.5Z", timeZone: nil, kind: .invalidData,
      mentions: "is not a time"),
    Rejected(
      name: "empty fraction", text: "2026-11-22T09:00:00.Z", timeZone: nil, kind: .invalidData,
      mentions: "is not a time"),
    Rejected(
      name: "offset on a bare time", text: "09:00Z", timeZone: nil, kind: .invalidData,
      mentions: "cannot carry an offset"),
    Rejected(
      name: "offset out of range", text: "2026-11-22T09:00:00+24:00", timeZone: nil, kind: .invalidData,
      mentions: "+23:59"),
    Rejected(
      name: "offset without colon", text: "2026-11-22T09:00:00+0100", timeZone: nil, kind: .invalidData,
      mentions: "is not a time"),
    Rejected(
      name: "surrounding whitespace", text: " 09:00", timeZone: nil, kind: .invalidData,
      mentions: "is not a time"),
    Rejected(
      name: "trailing garbage", text: "2026-11-22T09:00:00Zulu", timeZone: nil, kind: .invalidData,
      mentions: "is not a time"),
    Rejected(
      name: "unknown zone", text: "09:00", timeZone: "Mars/Olympus_Mons", kind: .invalidData,
      mentions: "no such zone file in /usr/share/zoneinfo"),
    Rejected(
      name: "empty zone", text: "09:00", timeZone: "", kind: .invalidData, mentions: "unknown time zone"),
    Rejected(
      name: "zone names are case-sensitive", text: "09:00", timeZone: "europe/berlin", kind: .invalidData,
      mentions: "unknown time zone 'europe/berlin'"),
    Rejected(
      name: "zone with an offset", text: "2026-11-22T09:00:00+01:00", timeZone: "Europe/Berlin", kind: .usage,
      mentions: "drop timeZone"),
    Rejected(
      name: "zone with Z", text: "2026-11-22T09:00:00Z", timeZone: "UTC", kind: .usage,
      mentions: "already has an offset"),
    Rejected(
      name: "local with an offset", text: "2026-11-22T09:00:00Z", timeZone: "local", kind: .usage,
      mentions: "timeZone 'local'"),
    Rejected(
      name: "unknown zone with an offset is still usage", text: "2026-11-22T09:00:00Z", timeZone: "Nowhere",
      kind: .usage, mentions: "timeZone 'Nowhere'"),
  ]

  @Test("rejects bad --at and --time-zone with the right exit code", arguments: rejected)
  func rejects(_ c: Rejected) {
    // Given a bad --at / --time-zone; When it is parsed
    let error = #expect(throws: NotifyError.self) {
      try TimeParser.fireDate(c.text, timeZone: c.timeZone, now: utc(Self.noon), zones: testZones(utcZone))
    }
    // Then the kind (exit code) matches and the message says what and how to fix
    #expect(error?.kind == c.kind)
    #expect(error?.fix?.isEmpty == false)
    #expect(error?.description.contains(c.mentions) == true, "\(error?.description ?? "")")
  }

  @Test("--until accepts RFC 3339 and wall-clock times in the notification's zone")
  func until() throws {
    let now = utc("2026-06-01T10:00:00Z")
    #expect(
      try TimeParser.instant("2026-11-22T09:00:00Z", zone: berlin, now: now) == utc("2026-11-22T09:00:00Z"))
    #expect(try TimeParser.instant("2026-11-22T09:00", zone: berlin, now: now) == utc("2026-11-22T08:00:00Z"))
    #expect(try TimeParser.instant("2026-03-29T02:30", zone: berlin, now: now) == utc("2026-03-29T01:30:00Z"))
    #expect(
      try TimeParser.instant("2026-11-01T01:30", zone: newYork, now: now) == utc("2026-11-01T05:30:00Z"))
    #expect(try TimeParser.instant("11:00", zone: berlin, now: now) == utc("2026-06-02T09:00:00Z"))
    #expect(try TimeParser.instant("13:00", zone: berlin, now: now) == utc("2026-06-01T11:00:00Z"))
    let error = #expect(throws: NotifyError.self) {
      try TimeParser.instant("2026-02-30T09:00", zone: berlin, now: now)
    }
    #expect(error?.kind == .invalidData)
    // (the core names what it refers to as the library does; the command line says --until)
    #expect(error?.description.contains("until '2026-02-30T09:00'") == true)
    #expect(error?.rendered { $0 == .until ? "--until" : $0.apiName }.contains("--until '2026-02-30") == true)
  }

  @Test("zoneRule maps nil and local to .local and keeps valid IANA names")
  func zoneRules() throws {
    #expect(try TimeParser.zoneRule(nil, in: testZoneDatabase) == .local)
    #expect(try TimeParser.zoneRule("local", in: testZoneDatabase) == .local)
    #expect(try TimeParser.zoneRule("America/New_York", in: testZoneDatabase) == .named("America/New_York"))
    #expect(try TimeParser.zoneRule("UTC", in: testZoneDatabase) == .named("UTC"))
  }
}

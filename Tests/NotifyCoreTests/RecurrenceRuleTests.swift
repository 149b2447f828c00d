import Foundation
import NotifyTestSupport
import Testing

@testable import NotifyCore

@Suite("Calendar rules: text, errors, short forms and the cases dateutil reads otherwise")
struct RecurrenceRuleTests {
  struct TextCase: CustomTestStringConvertible, Sendable {
    var input: String
    var canonical: String
    var testDescription: String { input }
  }

  static let texts: [TextCase] = [
    .init(input: "FREQ=WEEKLY;BYDAY=MO,WE", canonical: "FREQ=WEEKLY;BYDAY=MO,WE"),
    .init(input: "rrule:freq=weekly;byday=we,mo;interval=1", canonical: "FREQ=WEEKLY;BYDAY=MO,WE"),
    .init(input: "FREQ=MONTHLY;BYDAY=-1FR", canonical: "FREQ=MONTHLY;BYDAY=-1FR"),
    .init(input: "FREQ=MONTHLY;BYDAY=+1MO", canonical: "FREQ=MONTHLY;BYDAY=1MO"),
    .init(
      input: "FREQ=MONTHLY;BYSETPOS=-1;BYDAY=MO,TU,WE,TH,FR",
      canonical: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"),
    .init(
      input: "FREQ=YEARLY;BYMONTHDAY=1,-1;BYMONTH=12,1;COUNT=4;WKST=SU",
      canonical: "FREQ=YEARLY;BYMONTH=1,12;BYMONTHDAY=-1,1;WKST=SU;COUNT=4"),
    .init(input: "FREQ=DAILY;UNTIL=20261231T230000Z", canonical: "FREQ=DAILY;UNTIL=20261231T230000Z"),
    .init(input: "FREQ=DAILY;UNTIL=20261231", canonical: "FREQ=DAILY;UNTIL=20261231"),
    .init(
      input: "FREQ=MINUTELY;INTERVAL=15;BYHOUR=9,10,11", canonical: "FREQ=MINUTELY;INTERVAL=15;BYHOUR=9,10,11"
    ),
    .init(
      input: "RRULE:FREQ=WEEKLY;BYDAY=FR\nEXDATE:20261225T090000,20270101",
      canonical: "FREQ=WEEKLY;BYDAY=FR\nEXDATE:20261225T090000,20270101"),
  ]

  @Test("parses and prints the canonical text, which parses to the same rule", arguments: texts)
  func roundTrip(_ c: TextCase) throws {
    let rule = try RecurrenceRule(parsing: c.input)
    #expect(rule.text == c.canonical)
    #expect(try RecurrenceRule(parsing: rule.text) == rule)
  }

  struct BadCase: CustomTestStringConvertible, Sendable {
    var text: String
    var part: String
    var testDescription: String { text }
  }

  static let bad: [BadCase] = [
    .init(text: "FREQ=DAILY;BYMONTHDAY=32", part: "BYMONTHDAY=32"),
    .init(text: "FREQ=SECONDLY", part: "FREQ=SECONDLY"),
    .init(text: "FREQ=FORTNIGHTLY", part: "FREQ=FORTNIGHTLY"),
    .init(text: "BYDAY=MO", part: "BYDAY=MO"),
    .init(text: "FREQ=DAILY;BYHOUR=24", part: "BYHOUR=24"),
    .init(text: "FREQ=DAILY;BYSECOND=60", part: "BYSECOND=60"),
    .init(text: "FREQ=WEEKLY;BYDAY=1MO", part: "BYDAY=1MO"),
    .init(text: "FREQ=MONTHLY;BYDAY=6MO", part: "BYDAY=6MO"),
    .init(text: "FREQ=WEEKLY;BYDAY=XX", part: "BYDAY=XX"),
    .init(text: "FREQ=WEEKLY;BYMONTHDAY=1", part: "BYMONTHDAY=1"),
    .init(text: "FREQ=DAILY;BYSETPOS=1", part: "BYSETPOS=1"),
    .init(text: "FREQ=DAILY;COUNT=0", part: "COUNT=0"),
    .init(text: "FREQ=DAILY;INTERVAL=0", part: "INTERVAL=0"),
    .init(text: "FREQ=DAILY;COUNT=2;UNTIL=20261231T000000Z", part: "COUNT"),
    .init(text: "FREQ=DAILY;UNTIL=2026-12-31", part: "UNTIL=2026-12-31"),
    .init(text: "FREQ=DAILY;BYWEEKNO=1", part: "BYWEEKNO=1"),
    .init(text: "FREQ=DAILY;FREQ=WEEKLY", part: "FREQ"),
    .init(text: "FREQ=DAILY;X-NAME=1", part: "X-NAME=1"),
    .init(text: "FREQ=DAILY;COUNT", part: "COUNT"),
    .init(text: "FREQ=DAILY\nEXDATE:20260230T090000", part: "EXDATE:20260230T090000"),
    .init(text: "FREQ=DAILY\nEXDATE;TZID=Europe/Berlin:20261224T090000", part: "EXDATE;TZID=Europe/Berlin"),
  ]

  @Test("a malformed rule is refused naming the part", arguments: bad)
  func refused(_ c: BadCase) {
    #expect {
      _ = try RecurrenceRule(parsing: c.text)
    } throws: { error in
      guard let error = error as? RecurrenceRuleError else { return false }
      return error.part == c.part && error.notifyError.kind == .invalidData && !error.fix.isEmpty
    }
  }

  @Test("a rule that never fires is refused naming the parts that cannot meet")
  func neverFires() throws {
    let berlin = zone("Europe/Berlin")
    let start = FireDate.wallClock(
      WallClock(year: 2026, month: 11, day: 23, hour: 9), .named("Europe/Berlin"))
    for (text, part) in [
      ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "BYMONTH=2;BYMONTHDAY=30"),
      ("FREQ=MONTHLY;BYMONTH=4,6;BYMONTHDAY=31,-31", "BYMONTH=4,6;BYMONTHDAY=-31,31"),
      ("FREQ=HOURLY;INTERVAL=2;BYHOUR=4", "INTERVAL=2;BYHOUR=4"),
      ("FREQ=DAILY;BYHOUR=9,10;BYSETPOS=3", "BYSETPOS=3"),
    ] {
      let schedule = try Schedule(fireDate: start, rule: RecurrenceRule(parsing: text))
      #expect(schedule.occurrence(0, zones: testZones(berlin)) == nil, "\(text)")
      #expect(schedule.neverFiresError.problem.contains("'\(part)'"), "\(text): \(schedule.neverFiresError)")
    }
    // FREQ=YEARLY;INTERVAL=4 from 2025 never meets a Feb 29: found by walking a whole cycle
    let leap = try Schedule(
      fireDate: .wallClock(WallClock(year: 2025, month: 1, day: 1, hour: 9), .named("Europe/Berlin")),
      rule: RecurrenceRule(parsing: "FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29"))
    #expect(leap.occurrence(0, zones: testZones(berlin)) == nil)
    #expect(leap.neverFiresError.kind == .invalidData)
  }

  @Test("short forms: --every and --on make the rules people mean")
  func shortForms() throws {
    let cases: [(every: String?, on: String?, rule: String)] = [
      (nil, "mon,wed", "FREQ=WEEKLY;BYDAY=MO,WE"),
      ("2w", nil, "FREQ=WEEKLY;INTERVAL=2"),
      ("2w", "fri", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"),
      (nil, "mon-fri", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
      (nil, "sat-mon", "FREQ=WEEKLY;BYDAY=MO,SA,SU"),
      (nil, "1,15", "FREQ=MONTHLY;BYMONTHDAY=1,15"),
      (nil, "last", "FREQ=MONTHLY;BYMONTHDAY=-1"),
      (nil, "last-fri", "FREQ=MONTHLY;BYDAY=-1FR"),
      (nil, "-1fri", "FREQ=MONTHLY;BYDAY=-1FR"),
      (nil, "2nd-tue,first-monday", "FREQ=MONTHLY;BYDAY=1MO,2TU"),
      ("3mo", "last-fri", "FREQ=MONTHLY;INTERVAL=3;BYDAY=-1FR"),
      ("90m", nil, "FREQ=MINUTELY;INTERVAL=90"),
      ("day", "mon-fri", "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR"),
      ("1y", nil, "FREQ=YEARLY"),
    ]
    for c in cases {
      #expect(try RecurrenceRule.shortForm(every: c.every, on: c.on).ruleText == c.rule, "\(c)")
    }
    for (every, on, part) in [
      ("2x", nil, "--every 2x"), (nil, "funday", "--on funday"), ("1w", "last-fri", "--on last-fri"),
      ("1w", "15", "--on 15"), ("0d", nil, "--every 0d"),
    ] as [(String?, String?, String)] {
      #expect(throws: RecurrenceRuleError.self) { _ = try RecurrenceRule.shortForm(every: every, on: on) }
      do {
        _ = try RecurrenceRule.shortForm(every: every, on: on)
      } catch {
        #expect(error.part == part)
      }
    }
  }

  @Test("BYSETPOS counts the whole first week, as RFC 5545 says (dateutil starts it at DTSTART)")
  func weeklySetPositionCountsTheWholeWeek() throws {
    // Given a rule for the first of each week's Tuesday and Friday, started on a Thursday
    let schedule = try Schedule(
      fireDate: .wallClock(WallClock(year: 2026, month: 11, day: 26, hour: 8), .named("UTC")),
      rule: RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=TU,FR;BYHOUR=9;BYSETPOS=1"))
    // Then that week's pick is Tuesday, before the start, so the first is next week's Tuesday
    let first = schedule.upcoming(2, zones: testZones(zone("UTC"))).map { RFC3339.string(from: $0) }
    #expect(first == ["2026-12-01T09:00:00Z", "2026-12-08T09:00:00Z"])
  }

  @Test("SPEC §2 on every occurrence: a gap moves a time forward, two times on one instant fire once")
  func daylightSaving() throws {
    let berlin = zone("Europe/Berlin")
    // Berlin skips 02:00–03:00 on 2026-03-29 and repeats 02:00–03:00 on 2026-10-25
    let spring = try Schedule(
      fireDate: .wallClock(WallClock(year: 2026, month: 3, day: 29, hour: 1), .named("Europe/Berlin")),
      rule: RecurrenceRule(parsing: "FREQ=MINUTELY;INTERVAL=30;COUNT=6"))
    // 01:00 01:30 02:00→03:00 02:30→03:30 03:00(=03:00) 03:30(=03:30): four instants
    #expect(
      spring.upcoming(10, zones: testZones(berlin)).map { RFC3339.string(from: $0) } == [
        "2026-03-29T00:00:00Z", "2026-03-29T00:30:00Z", "2026-03-29T01:00:00Z", "2026-03-29T01:30:00Z",
      ])
    let autumn = try Schedule(
      fireDate: .wallClock(WallClock(year: 2026, month: 10, day: 25, hour: 1), .named("Europe/Berlin")),
      rule: RecurrenceRule(parsing: "FREQ=HOURLY;COUNT=3"))
    // 01:00 CEST, 02:00 CEST (first instance), 03:00 CET: the repeated hour fires once
    #expect(
      autumn.upcoming(5, zones: testZones(berlin)).map { RFC3339.string(from: $0) } == [
        "2026-10-24T23:00:00Z", "2026-10-25T00:00:00Z", "2026-10-25T02:00:00Z",
      ])
  }

  @Test("excluded days and times, and an UNTIL day that includes the day")
  func exclusionsAndUntilDay() throws {
    let rule = try RecurrenceRule(
      parsing: "FREQ=DAILY;BYHOUR=9,18;UNTIL=20261205\nEXDATE:20261202,20261203T180000")
    let schedule = try Schedule(
      fireDate: .wallClock(WallClock(year: 2026, month: 12, day: 1, hour: 9), .named("UTC")), rule: rule)
    let got = schedule.upcoming(20, zones: testZones(zone("UTC"))).map { RFC3339.string(from: $0) }
    #expect(
      got == [
        "2026-12-01T09:00:00Z", "2026-12-01T18:00:00Z", "2026-12-03T09:00:00Z", "2026-12-04T09:00:00Z",
        "2026-12-04T18:00:00Z", "2026-12-05T09:00:00Z", "2026-12-05T18:00:00Z",
      ])
  }

  @Test("a rule anchored years ago answers first/latest with the index arithmetic gives, however asked")
  func anchoredLongAgo() throws {
    // Given a quarter-hourly rule anchored eight years ago (UTC: index k is anchor + 15k minutes)
    let anchor = Date(timeIntervalSince1970: 1_546_300_800)  // 2019-01-01T00:00:00Z
    let schedule = try Schedule(
      fireDate: .instant(anchor), rule: RecurrenceRule(parsing: "FREQ=MINUTELY;INTERVAL=15"))
    let utc = zone("UTC")
    var random = SeededGenerator(seed: 42)
    for _ in 0..<20 {
      // When asked about random instants in any order
      let seconds = Int64.random(in: 0..<(8 * 366 * 86_400), using: &random)
      let instant = anchor + TimeInterval(seconds)
      let latest = try #require(schedule.latestOccurrence(atOrBefore: instant, zones: testZones(utc)))
      let first = try #require(schedule.firstOccurrence(atOrAfter: instant, zones: testZones(utc)))
      // Then the answers are the arithmetic ones
      let k = Int(seconds / 900)
      #expect(latest.index == k && latest.date == anchor + TimeInterval(k * 900))
      let next = seconds % 900 == 0 ? k : k + 1
      #expect(first.index == next && first.date == anchor + TimeInterval(next * 900))
      #expect(schedule.occurrence(k, zones: testZones(utc)) == latest.date)
    }
  }
}

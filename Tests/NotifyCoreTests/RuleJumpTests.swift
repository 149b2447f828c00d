import Foundation
import NotifyTestSupport
import Testing

@testable import NotifyCore

/// A rule that starts long ago: its next occurrence, and its number,
/// are computed by jumping over whole periods, not by walking them. Each query runs with
/// a step limit, so that a walk from the start fails the test instead of hanging it.
@Suite("Rules that start long ago: a jump to now, the same occurrence numbers")
struct RuleJumpTests {
  /// Periods a query may expand: a jump lands a period or two before the answer.
  static let stepLimit = 10_000
  static let yearOne = WallClock(year: 1000, month: 1, day: 1)
  /// 2026-11-27T10:15:42.5Z.
  static let now = Date(timeIntervalSince1970: 1_795_774_542.5)

  static func sequence(_ text: String, start: WallClock = yearOne, zone: Zone? = nil) throws -> RuleSequence {
    RuleSequence(
      rule: try RecurrenceRule(parsing: text), start: start, zone: zone, fraction: 0, stepLimit: stepLimit)
  }

  @Test("FREQ=MINUTELY from year 1000: the next minute and its number, in a few steps")
  func minutelyFromYear1000() throws {
    // Given a minutely rule from 1000-01-01T00:00 (UTC wall-clock times)
    let sequence = try Self.sequence("FREQ=MINUTELY")
    let start = Self.yearOne.localSeconds
    let nextMinute = (Int64(Self.now.timeIntervalSince1970) / 60 + 1) * 60
    // When asked for the first occurrence at or after now, and the latest at or before it
    let first = sequence.first(atOrAfter: Self.now, from: 0)
    let latest = sequence.latest(atOrBefore: Self.now, from: 0)
    // Then they are the minutes around now, numbered from the start
    #expect(first?.date == Date(timeIntervalSince1970: TimeInterval(nextMinute)))
    #expect(first?.index == Int((nextMinute - start) / 60))
    #expect(latest?.index == Int((nextMinute - 60 - start) / 60))
    #expect(latest?.date == Date(timeIntervalSince1970: TimeInterval(nextMinute - 60)))
    #expect(sequence.steps <= Self.stepLimit)
  }

  @Test("occurrence k of a minutely rule from year 1000, asked first in a fresh sequence")
  func occurrenceByNumber() throws {
    // Given a fresh sequence (what a new fire-due process has) and a stored occurrence number
    let sequence = try Self.sequence("FREQ=MINUTELY")
    let index = 538_000_123
    // When asked for that occurrence
    let date = sequence.occurrence(index)
    // Then it is that many minutes after the start
    #expect(date == Date(timeIntervalSince1970: TimeInterval(Self.yearOne.localSeconds + Int64(index) * 60)))
    #expect(sequence.steps <= Self.stepLimit)
  }

  @Test("second 30 of every minute (BYSECOND=30) from year 1000")
  func secondThirtyOfEveryMinute() throws {
    // Given a rule that fires at :30 of every minute (one BYSECOND: more are refused, as
    // notify repeats at most once a minute)
    let sequence = try Self.sequence("FREQ=MINUTELY;BYSECOND=30")
    let start = Self.yearOne.localSeconds
    let now = Int64(Self.now.timeIntervalSince1970)
    let minutes = (now - start - 30 + 59) / 60
    // When asked for the first at or after now
    let first = sequence.first(atOrAfter: Self.now, from: 0)
    // Then it is the next :30, numbered by the minutes since the start
    #expect(first?.date == Date(timeIntervalSince1970: TimeInterval(start + minutes * 60 + 30)))
    #expect(first?.index == Int(minutes))
    #expect(sequence.steps <= Self.stepLimit)
  }

  @Test("FREQ=MINUTELY;BYHOUR=9;BYMINUTE=0,30 from year 1000: counted by the day's cycle of minutes")
  func minutesOfOneHourFromYear1000() throws {
    // Given 09:00 and 09:30 every day from 1000-01-01T00:00 (UTC wall-clock times)
    let sequence = try Self.sequence("FREQ=MINUTELY;BYHOUR=9;BYMINUTE=0,30")
    let startDay = Self.yearOne.localSeconds / 86_400
    let tomorrow = Int64(Self.now.timeIntervalSince1970) / 86_400 + 1
    // When asked for the first at or after now (10:15, so tomorrow's 09:00)
    let first = sequence.first(atOrAfter: Self.now, from: 0)
    // Then it is numbered two a day from the start
    #expect(first?.date == Date(timeIntervalSince1970: TimeInterval(tomorrow * 86_400 + 9 * 3600)))
    #expect(first?.index == Int(2 * (tomorrow - startDay)))
    #expect(sequence.steps <= Self.stepLimit)
  }

  @Test("a COUNT rule from year 1000 that ended long ago: its last occurrence, and none after")
  func countEndedLongAgo() throws {
    // Given 500 million minutes from year 1000 (they end in 1950)
    let sequence = try Self.sequence("FREQ=MINUTELY;COUNT=500000000")
    let last = Self.yearOne.localSeconds + 499_999_999 * 60
    // When asked around now
    let first = sequence.first(atOrAfter: Self.now, from: 0)
    let latest = sequence.latest(atOrBefore: Self.now, from: 0)
    // Then nothing is left, and the latest is occurrence 499,999,999 (0-based)
    #expect(first == nil)
    #expect(latest?.index == 499_999_999)
    #expect(latest?.date == Date(timeIntervalSince1970: TimeInterval(last)))
    #expect(sequence.steps <= Self.stepLimit)
  }

  @Test("an hourly rule from 2010 in Berlin: a DST gap's moved times merge, and the numbers still agree")
  func hourlyInBerlinAcrossGaps() throws {
    // Given FREQ=HOURLY;BYMINUTE=0,30 from 2010-01-01 in Berlin (each spring gap moves 02:00
    // and 02:30 onto 03:00 and 03:30), walked in full (a cursor never jumps)
    let rule = "FREQ=HOURLY;BYMINUTE=0,30"
    let start = WallClock(year: 2010, month: 1, day: 1)
    let berlin = zone("Europe/Berlin")
    var walk = RuleCursor(
      context: RuleContext(rule: try RecurrenceRule(parsing: rule), start: start, zone: berlin))
    var expected: (index: Int, date: Date)?
    while expected == nil, let (index, item) = walk.next() {
      if item.instant >= Int64(Self.now.timeIntervalSince1970) {
        expected = (index, Date(timeIntervalSince1970: TimeInterval(item.instant)))
      }
    }
    // When a fresh sequence is asked the same
    let jumped = try Self.sequence(rule, start: start, zone: berlin)
    let found = jumped.first(atOrAfter: Self.now, from: 0)
    // Then it agrees, in a few steps
    #expect(expected != nil)
    #expect(found?.index == expected?.index)
    #expect(found?.date == expected?.date)
    #expect(jumped.steps <= Self.stepLimit)
  }

  @Test(
    "rules whose times per period vary, from year 1000: counted by 400-year cycles, as a full walk numbers them",
    arguments: [
      "FREQ=MONTHLY;BYDAY=MO", "FREQ=MONTHLY;BYDAY=-1FR;BYHOUR=9,17", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29",
      "FREQ=WEEKLY;INTERVAL=3;BYMONTH=1,7;BYDAY=TU,SA", "FREQ=MONTHLY;BYMONTHDAY=31;COUNT=9000",
      "FREQ=YEARLY;BYDAY=20MO;BYSETPOS=1",
    ])
  func variableRulesFromYear1000(rule: String) throws {
    // Given the rule from 1000-01-01 in New York, walked in full (a cursor never jumps)
    let newYork = zone("America/New_York")
    var walk = RuleCursor(
      context: RuleContext(rule: try RecurrenceRule(parsing: rule), start: Self.yearOne, zone: newYork))
    var expected: (index: Int, date: Date)?
    var latest: (index: Int, date: Date)?
    while expected == nil, let (index, item) = walk.next() {
      let date = Date(timeIntervalSince1970: TimeInterval(item.instant))
      if date >= Self.now { expected = (index, date) } else { latest = (index, date) }
    }
    // When a fresh sequence is asked the same
    let jumped = try Self.sequence(rule, zone: newYork)
    let found = jumped.first(atOrAfter: Self.now, from: 0)
    let before = jumped.latest(atOrBefore: Self.now, from: 0)
    // Then it agrees, in a few steps
    #expect(found?.index == expected?.index)
    #expect(found?.date == expected?.date)
    #expect(before?.index == latest?.index)
    #expect(before?.date == latest?.date)
    #expect(jumped.steps <= Self.stepLimit)
  }
}

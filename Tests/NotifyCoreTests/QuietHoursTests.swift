import Foundation
import Testing

@testable import NotifyCore

/// A schedule from `HH:MM` texts, built without the parser under test.
func quietSchedule(
  _ from: String, _ to: String, days: Set<QuietSchedule.Weekday> = Set(QuietSchedule.Weekday.allCases)
) -> QuietSchedule {
  func time(_ text: String) -> QuietSchedule.TimeOfDay {
    let parts = text.split(separator: ":").map { Int($0)! }
    return QuietSchedule.TimeOfDay(hour: parts[0], minute: parts[1])
  }
  return QuietSchedule(from: time(from), to: time(to), days: days)
}

let weekdaysOnly: Set<QuietSchedule.Weekday> = [.monday, .tuesday, .wednesday, .thursday, .friday]

@Suite("QuietHours: when notifications are held")
struct QuietHoursTests {
  static let lordHowe = zone("Australia/Lord_Howe")
  static let havana = zone("America/Havana")

  /// One instant and what the rules say there. Instants carry their offset, so each reads
  /// as the local time it stands for (June 2026 in Berlin is UTC+2; 2026-06-05 is a Friday).
  struct Moment: CustomTestStringConvertible, Sendable {
    let name: String
    var quiet: QuietHours
    var zone: Zone = berlin
    let now: String
    let isQuiet: Bool
    var periodEnd: String? = nil
    var nextChange: String? = nil
    var testDescription: String { name }
  }

  static let nightly = QuietHours(schedule: quietSchedule("22:00", "07:00"))
  static let weeknights = QuietHours(schedule: quietSchedule("22:00", "07:00", days: weekdaysOnly))

  static let schedules: [Moment] = [
    // Across midnight
    Moment(
      name: "nightly: a second before 22:00 is not quiet", quiet: nightly, now: "2026-06-05T21:59:59+02:00",
      isQuiet: false, nextChange: "2026-06-05T22:00:00+02:00"),
    Moment(
      name: "nightly: 22:00 sharp is quiet", quiet: nightly, now: "2026-06-05T22:00:00+02:00", isQuiet: true,
      periodEnd: "2026-06-06T07:00:00+02:00", nextChange: "2026-06-06T07:00:00+02:00"),
    Moment(
      name: "nightly: midnight is quiet", quiet: nightly, now: "2026-06-06T00:00:00+02:00", isQuiet: true,
      periodEnd: "2026-06-06T07:00:00+02:00", nextChange: "2026-06-06T07:00:00+02:00"),
    Moment(
      name: "nightly: 06:59:59 is quiet", quiet: nightly, now: "2026-06-06T06:59:59+02:00", isQuiet: true,
      periodEnd: "2026-06-06T07:00:00+02:00", nextChange: "2026-06-06T07:00:00+02:00"),
    Moment(
      name: "nightly: 07:00 sharp is not quiet", quiet: nightly, now: "2026-06-06T07:00:00+02:00",
      isQuiet: false, nextChange: "2026-06-06T22:00:00+02:00"),
    // Within a day, and a whole day
    Moment(
      name: "09:00–17:00: 16:59 is quiet", quiet: QuietHours(schedule: quietSchedule("09:00", "17:00")),
      now: "2026-06-05T16:59:00+02:00", isQuiet: true, periodEnd: "2026-06-05T17:00:00+02:00",
      nextChange: "2026-06-05T17:00:00+02:00"),
    Moment(
      name: "09:00–17:00: 23:00 waits for tomorrow's start",
      quiet: QuietHours(schedule: quietSchedule("09:00", "17:00")), now: "2026-06-05T23:00:00+02:00",
      isQuiet: false, nextChange: "2026-06-06T09:00:00+02:00"),
    Moment(
      name: "equal from and to is a whole day: Saturday 00:00–00:00 at Saturday 23:59",
      quiet: QuietHours(schedule: quietSchedule("00:00", "00:00", days: [.saturday])),
      now: "2026-06-06T23:59:00+02:00", isQuiet: true, periodEnd: "2026-06-07T00:00:00+02:00",
      nextChange: "2026-06-07T00:00:00+02:00"),
    Moment(
      name: "every day 00:00–00:00 never ends",
      quiet: QuietHours(schedule: quietSchedule("00:00", "00:00")), now: "2026-06-06T12:00:00+02:00",
      isQuiet: true),
    // Weekdays: --days names the days a period starts on
    Moment(
      name: "weeknights: Friday 23:00 is quiet until Saturday 07:00, though Saturday is not a day",
      quiet: weeknights, now: "2026-06-05T23:00:00+02:00", isQuiet: true,
      periodEnd: "2026-06-06T07:00:00+02:00", nextChange: "2026-06-06T07:00:00+02:00"),
    Moment(
      name: "weeknights: Saturday 23:00 is not quiet; Monday 22:00 is next", quiet: weeknights,
      now: "2026-06-06T23:00:00+02:00", isQuiet: false, nextChange: "2026-06-08T22:00:00+02:00"),
    Moment(
      name: "weeknights: Monday 06:00 is not quiet, its night started on a Sunday", quiet: weeknights,
      now: "2026-06-08T06:00:00+02:00", isQuiet: false, nextChange: "2026-06-08T22:00:00+02:00"),
    Moment(
      name: "no schedule and no manual quiet: never quiet", quiet: QuietHours(),
      now: "2026-06-05T23:00:00+02:00", isQuiet: false),
  ]

  @Test("a weekly schedule, across midnight and on chosen days", arguments: schedules)
  func schedule(_ moment: Moment) {
    check(moment)
  }

  static let inOneHour = utc("2026-06-05T22:00:00Z")
  static let manualMoments: [Moment] = [
    Moment(
      name: "on until turned off: quiet, with no end", quiet: QuietHours(manual: .untilTurnedOff),
      now: "2026-06-05T21:00:00Z", isQuiet: true),
    Moment(
      name: "on until turned off: quiet a year later", quiet: QuietHours(manual: .untilTurnedOff),
      now: "2027-06-05T21:00:00Z", isQuiet: true),
    Moment(
      name: "on for an hour: quiet, ending then", quiet: QuietHours(manual: .until(inOneHour)),
      now: "2026-06-05T21:00:00Z", isQuiet: true, periodEnd: "2026-06-05T22:00:00Z",
      nextChange: "2026-06-05T22:00:00Z"),
    Moment(
      name: "on for an hour: over when the hour is up", quiet: QuietHours(manual: .until(inOneHour)),
      now: "2026-06-05T22:00:00Z", isQuiet: false),
    Moment(
      name: "on until 23:00 inside a 22:00–07:00 night: the quiet lasts until 07:00",
      quiet: QuietHours(
        manual: .until(utc("2026-06-05T23:00:00+02:00")), schedule: quietSchedule("22:00", "07:00")),
      now: "2026-06-05T21:00:00+02:00", isQuiet: true, periodEnd: "2026-06-06T07:00:00+02:00",
      nextChange: "2026-06-06T07:00:00+02:00"),
    Moment(
      name: "on until 08:00 from within the night: the manual end is later",
      quiet: QuietHours(
        manual: .until(utc("2026-06-06T08:00:00+02:00")), schedule: quietSchedule("22:00", "07:00")),
      now: "2026-06-06T06:00:00+02:00", isQuiet: true, periodEnd: "2026-06-06T08:00:00+02:00",
      nextChange: "2026-06-06T08:00:00+02:00"),
    Moment(
      name: "on until turned off during the night: no end even past 07:00",
      quiet: QuietHours(manual: .untilTurnedOff, schedule: quietSchedule("22:00", "07:00")),
      now: "2026-06-06T06:00:00+02:00", isQuiet: true),
    Moment(
      name: "the night skipped: not quiet, the next night starts quiet again",
      quiet: QuietHours(
        scheduleSkippedUntil: utc("2026-06-06T07:00:00+02:00"), schedule: quietSchedule("22:00", "07:00")),
      now: "2026-06-05T23:30:00+02:00", isQuiet: false, nextChange: "2026-06-06T22:00:00+02:00"),
    Moment(
      name: "a whole day skipped before a back-to-back one: quiet again when the next starts",
      quiet: QuietHours(
        scheduleSkippedUntil: utc("2026-06-06T00:00:00+02:00"),
        schedule: quietSchedule("00:00", "00:00", days: [.friday, .saturday])),
      now: "2026-06-05T12:00:00+02:00", isQuiet: false, nextChange: "2026-06-06T00:00:00+02:00"),
  ]

  @Test("manual quiet, alone and with the schedule", arguments: manualMoments)
  func manual(_ moment: Moment) {
    check(moment)
  }

  // Berlin: 2026-03-29 02:00 CET → 03:00 CEST, 2026-10-25 03:00 CEST → 02:00 CET.
  // New York: 2026-03-08 02:00 EST → 03:00 EDT, 2026-11-01 02:00 EDT → 01:00 EST.
  // Lord Howe: 2026-10-04 02:00 +10:30 → 02:30 +11, 2026-04-05 02:00 +11 → 01:30 +10:30.
  // Havana: 2026-03-08 00:00 CST → 01:00 CDT (midnight does not exist).
  static let dstMoments: [Moment] = [
    Moment(
      name: "Berlin gap: an end at 02:30 moves forward to 03:30 CEST",
      quiet: QuietHours(schedule: quietSchedule("22:00", "02:30", days: [.saturday])),
      now: "2026-03-28T23:00:00+01:00", isQuiet: true, periodEnd: "2026-03-29T03:30:00+02:00",
      nextChange: "2026-03-29T03:30:00+02:00"),
    Moment(
      name: "Berlin gap: a start at 02:30 moves forward to 03:30 CEST",
      quiet: QuietHours(schedule: quietSchedule("02:30", "06:00", days: [.sunday])),
      now: "2026-03-29T03:00:00+02:00", isQuiet: false, nextChange: "2026-03-29T03:30:00+02:00"),
    Moment(
      name: "Berlin gap: 02:30–03:10 has crossed ends that day and is empty",
      quiet: QuietHours(schedule: quietSchedule("02:30", "03:10", days: [.sunday])),
      now: "2026-03-29T03:05:00+02:00", isQuiet: false, nextChange: "2026-04-05T02:30:00+02:00"),
    Moment(
      name: "Berlin repeated hour: an end at 02:30 is its first instance (CEST)",
      quiet: QuietHours(schedule: quietSchedule("22:00", "02:30", days: [.saturday])),
      now: "2026-10-24T23:00:00+02:00", isQuiet: true, periodEnd: "2026-10-25T02:30:00+02:00",
      nextChange: "2026-10-25T02:30:00+02:00"),
    Moment(
      name: "Berlin repeated hour: the second 02:15 (CET) is past that end",
      quiet: QuietHours(schedule: quietSchedule("22:00", "02:30", days: [.saturday])),
      now: "2026-10-25T02:15:00+01:00", isQuiet: false, nextChange: "2026-10-31T22:00:00+01:00"),
    Moment(
      name: "Berlin repeated hour: a start at 02:30 is its first instance, the second one is inside",
      quiet: QuietHours(schedule: quietSchedule("02:30", "05:00", days: [.sunday])),
      now: "2026-10-25T02:45:00+01:00", isQuiet: true, periodEnd: "2026-10-25T05:00:00+01:00",
      nextChange: "2026-10-25T05:00:00+01:00"),
    Moment(
      name: "Berlin repeated hour: the night of the change lasts an hour longer",
      quiet: QuietHours(schedule: quietSchedule("22:00", "07:00")),
      now: "2026-10-24T22:00:00+02:00", isQuiet: true, periodEnd: "2026-10-25T07:00:00+01:00",
      nextChange: "2026-10-25T07:00:00+01:00"),
    Moment(
      name: "New York gap: an end at 02:30 moves forward to 03:30 EDT",
      quiet: QuietHours(schedule: quietSchedule("23:00", "02:30", days: [.saturday])),
      zone: newYork, now: "2026-03-07T23:30:00-05:00", isQuiet: true,
      periodEnd: "2026-03-08T03:30:00-04:00", nextChange: "2026-03-08T03:30:00-04:00"),
    Moment(
      name: "New York repeated hour: an end at 01:30 is its first instance (EDT)",
      quiet: QuietHours(schedule: quietSchedule("22:00", "01:30", days: [.saturday])),
      zone: newYork, now: "2026-10-31T23:00:00-04:00", isQuiet: true,
      periodEnd: "2026-11-01T01:30:00-04:00", nextChange: "2026-11-01T01:30:00-04:00"),
    Moment(
      name: "New York repeated hour: 01:30–01:45 happens once, the second 01:35 (EST) is not quiet",
      quiet: QuietHours(schedule: quietSchedule("01:30", "01:45")),
      zone: newYork, now: "2026-11-01T01:35:00-05:00", isQuiet: false,
      nextChange: "2026-11-02T01:30:00-05:00"),
    Moment(
      name: "Lord Howe half-hour gap: an end at 02:15 moves forward to 02:45 (+11)",
      quiet: QuietHours(schedule: quietSchedule("22:00", "02:15", days: [.saturday])),
      zone: lordHowe, now: "2026-10-03T23:00:00+10:30", isQuiet: true,
      periodEnd: "2026-10-04T02:45:00+11:00", nextChange: "2026-10-04T02:45:00+11:00"),
    Moment(
      name: "Lord Howe half-hour repeat: a start at 01:45 is its first instance (+11)",
      quiet: QuietHours(schedule: quietSchedule("01:45", "07:00", days: [.sunday])),
      zone: lordHowe, now: "2026-04-05T01:44:59+11:00", isQuiet: false,
      nextChange: "2026-04-05T01:45:00+11:00"),
    Moment(
      name: "Lord Howe half-hour repeat: the second 01:50 (+10:30) is inside",
      quiet: QuietHours(schedule: quietSchedule("01:45", "07:00", days: [.sunday])),
      zone: lordHowe, now: "2026-04-05T01:50:00+10:30", isQuiet: true,
      periodEnd: "2026-04-05T07:00:00+10:30", nextChange: "2026-04-05T07:00:00+10:30"),
    Moment(
      name: "Havana: a start at a midnight that does not exist moves to 01:00 CDT",
      quiet: QuietHours(schedule: quietSchedule("00:00", "06:00", days: [.sunday])),
      zone: havana, now: "2026-03-07T23:59:00-05:00", isQuiet: false,
      nextChange: "2026-03-08T01:00:00-04:00"),
  ]

  @Test("DST gaps and repeated hours follow SPEC.md §2", arguments: dstMoments)
  func daylightSaving(_ moment: Moment) {
    check(moment)
  }

  /// Given the moment's quiet hours and instant; when asked; then the answers are the expected ones.
  private func check(_ moment: Moment) {
    let now = utc(moment.now)
    #expect(moment.quiet.isQuiet(at: now, in: moment.zone) == moment.isQuiet)
    #expect(moment.quiet.currentPeriodEnd(after: now, in: moment.zone) == moment.periodEnd.map(utc))
    #expect(moment.quiet.nextChange(after: now, in: moment.zone) == moment.nextChange.map(utc))
  }
}

@Suite("QuietHours: turning quiet on and off")
struct QuietHoursOperationTests {
  let friday23 = utc("2026-06-05T23:00:00+02:00")
  let saturday07 = utc("2026-06-06T07:00:00+02:00")

  @Test("on until turned off, then off outside the schedule: nothing is left")
  func onThenOff() {
    // Given quiet hours with no schedule
    let quiet = QuietHours()
    // When turned on for good, then off
    let on = quiet.turnedOn(until: nil, at: friday23)
    let off = on.turnedOff(at: friday23 + 3600, in: berlin)
    // Then it is quiet between, and nothing remains after
    #expect(on.manual == .untilTurnedOff)
    #expect(on.isQuiet(at: friday23 + 86_400 * 365, in: berlin))
    #expect(off == QuietHours())
  }

  @Test("on with an end at or before now turns nothing on")
  func onInThePast() {
    // Given quiet hours; when turned on until an instant already past
    let quiet = QuietHours().turnedOn(until: friday23 - 1, at: friday23)
    // Then there is no manual quiet
    #expect(quiet.manual == nil)
    #expect(!quiet.isQuiet(at: friday23, in: berlin))
  }

  @Test("off during a scheduled night skips the rest of it; the next night is quiet again")
  func offDuringTheNight() {
    // Given a 22:00–07:00 schedule, at Friday 23:00
    let quiet = QuietHours(schedule: quietSchedule("22:00", "07:00"))
    #expect(quiet.isQuiet(at: friday23, in: berlin))
    // When the user turns quiet off
    let off = quiet.turnedOff(at: friday23, in: berlin)
    // Then the night is skipped until 07:00, and Saturday 22:00 is quiet again
    #expect(off.scheduleSkippedUntil == saturday07)
    #expect(!off.isQuiet(at: friday23, in: berlin))
    #expect(!off.isQuiet(at: saturday07 - 1, in: berlin))
    #expect(off.nextChange(after: friday23, in: berlin) == utc("2026-06-06T22:00:00+02:00"))
    #expect(off.isQuiet(at: utc("2026-06-06T22:00:00+02:00"), in: berlin))
  }

  @Test("off while manually quiet inside a scheduled night ends both")
  func offWhileManualInsideTheNight() {
    // Given manual quiet and a scheduled night, at Friday 23:00
    let quiet = QuietHours(manual: .untilTurnedOff, schedule: quietSchedule("22:00", "07:00"))
    // When turned off
    let off = quiet.turnedOff(at: friday23, in: berlin)
    // Then neither holds notifications until the next night
    #expect(off.manual == nil && off.scheduleSkippedUntil == saturday07)
    #expect(!off.isQuiet(at: friday23, in: berlin))
  }

  @Test("on for ten minutes in a skipped night is quiet for ten minutes, not until the morning")
  func shortQuietInASkippedNight() {
    // Given a night the user turned off at 23:00
    let off = QuietHours(schedule: quietSchedule("22:00", "07:00")).turnedOff(at: friday23, in: berlin)
    // When they turn quiet on for ten minutes at 23:30
    let start = friday23 + 1800
    let on = off.turnedOn(until: start + 600, at: start)
    // Then it is quiet for those ten minutes, and the night stays skipped after them
    #expect(on.isQuiet(at: start + 599, in: berlin))
    #expect(on.currentPeriodEnd(after: start, in: berlin) == start + 600)
    #expect(!on.isQuiet(at: start + 600, in: berlin))
    #expect(on.nextChange(after: start + 600, in: berlin) == utc("2026-06-06T22:00:00+02:00"))
  }

  @Test("off before a back-to-back day skips only the day in force")
  func offBeforeABackToBackDay() {
    // Given whole quiet days on Friday and Saturday, at Friday noon
    let quiet = QuietHours(schedule: quietSchedule("00:00", "00:00", days: [.friday, .saturday]))
    let fridayNoon = utc("2026-06-05T12:00:00+02:00")
    #expect(quiet.currentPeriodEnd(after: fridayNoon, in: berlin) == utc("2026-06-07T00:00:00+02:00"))
    // When turned off
    let off = quiet.turnedOff(at: fridayNoon, in: berlin)
    // Then Saturday is quiet from its start
    #expect(!off.isQuiet(at: fridayNoon, in: berlin))
    #expect(off.nextChange(after: fridayNoon, in: berlin) == utc("2026-06-06T00:00:00+02:00"))
    #expect(off.isQuiet(at: utc("2026-06-06T00:00:00+02:00"), in: berlin))
  }

  @Test("off when every day is quiet skips until the next midnight")
  func offWhenAlwaysQuiet() {
    // Given a schedule quiet all week, which never ends
    let quiet = QuietHours(schedule: quietSchedule("00:00", "00:00"))
    #expect(quiet.currentPeriodEnd(after: friday23, in: berlin) == nil)
    // When turned off at Friday 23:00
    let off = quiet.turnedOff(at: friday23, in: berlin)
    // Then quiet is back at midnight
    #expect(off.nextChange(after: friday23, in: berlin) == utc("2026-06-06T00:00:00+02:00"))
  }

  @Test("settled drops what is over and keeps what is quiet from then on")
  func settled() {
    // Given manual quiet and a skip that both ended at 07:00
    let quiet = QuietHours(
      manual: .until(saturday07), scheduleSkippedUntil: saturday07, schedule: quietSchedule("22:00", "07:00"))
    // When settled at 07:00 and a minute before
    let after = quiet.settled(at: saturday07)
    let before = quiet.settled(at: saturday07 - 60)
    // Then only the later one drops them, and the answers from then on do not change
    #expect(after == QuietHours(schedule: quietSchedule("22:00", "07:00")))
    #expect(before == quiet)
    for minutes in 0..<(48 * 60) {
      let instant = saturday07 + TimeInterval(minutes * 60)
      #expect(after.isQuiet(at: instant, in: berlin) == quiet.isQuiet(at: instant, in: berlin))
    }
  }

  @Test(
    "weekday of a day number",
    arguments: [
      ("1970-01-01", QuietSchedule.Weekday.thursday), ("1969-12-29", .monday), ("2026-06-07", .sunday),
      ("2000-02-29", .tuesday), ("1600-03-01", .wednesday),
    ])
  func weekday(date: String, expected: QuietSchedule.Weekday) {
    // Given a date; when its weekday is computed; then it is the calendar's
    let parts = date.split(separator: "-").map { Int($0)! }
    let day = CivilCalendar.dayNumber(year: parts[0], month: parts[1], day: parts[2])
    #expect(QuietSchedule.Weekday(dayNumber: day) == expected)
  }
}

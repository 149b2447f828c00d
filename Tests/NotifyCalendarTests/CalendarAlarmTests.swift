import Foundation
import NotifyCalendar
import NotifyCore
import NotifyTestSupport
import Testing

/// An iCalendar text from lines (CRLF, inside a VCALENDAR).
func calendarText(_ lines: [String]) -> [UInt8] {
  Array(
    (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notify tests//EN"] + lines + ["END:VCALENDAR", ""]).joined(
      separator: "\r\n"
    ).utf8)
}

/// RFC 3339 UTC text to a date.
func utc(_ text: String) -> Date {
  let parts = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
  let wall = WallClock(
    year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4], second: parts[5])
  return Date(timeIntervalSince1970: TimeInterval(wall.localSeconds))
}

func alarms(
  _ lines: [String], zone: String = "Europe/Berlin", from: String = "2026-01-01T00:00:00Z",
  to: String = "2028-01-01T00:00:00Z"
) -> AlarmExpansion.Result {
  AlarmExpansion.instants(
    in: CalendarDocument(bytes: calendarText(lines)), zones: testZones(testZone(zone)), from: utc(from),
    to: utc(to))
}

@Suite("Calendar alarms: triggers, zones, acknowledgements")
struct CalendarAlarmTests {
  @Test("an all-day event's alarm 15 minutes before is 23:45 the day before, in the system zone")
  func allDay() {
    // Given an all-day event on 2026-12-10 read in Tokyo
    let result = alarms(
      [
        "BEGIN:VEVENT", "UID:a", "DTSTART;VALUE=DATE:20261210", "SUMMARY:Birthday", "BEGIN:VALARM",
        "ACTION:DISPLAY",
        "TRIGGER:-PT15M", "END:VALARM", "END:VEVENT",
      ], zone: "Asia/Tokyo")
    // Then it goes off at 23:45 JST on the 9th (14:45 UTC), not on a date
    #expect(result.instants.map(\.fireDate) == [utc("2026-12-09T14:45:00Z")])
    #expect(result.instants.first?.isAllDay == true)
  }

  @Test("hours are exact across a DST change, days are nominal (RFC 5545 3.3.6)")
  func durationsAcrossAChange() {
    // Given events just after Berlin's spring change (02:00 -> 03:00 on 2026-03-29)
    let result = alarms([
      "BEGIN:VEVENT", "UID:hours", "DTSTART;TZID=Europe/Berlin:20260329T033000", "SUMMARY:h",
      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT2H", "END:VALARM", "END:VEVENT",
      "BEGIN:VEVENT", "UID:day", "DTSTART;TZID=Europe/Berlin:20260329T090000", "SUMMARY:d",
      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-P1D", "END:VALARM", "END:VEVENT",
    ])
    let byUID = Dictionary(uniqueKeysWithValues: result.instants.map { ($0.uid, $0.fireDate) })
    // Then two hours before 03:30 CEST (01:30 UTC) is 23:30 UTC, an exact two hours
    #expect(byUID["hours"] == utc("2026-03-28T23:30:00Z"))
    // And a day before 09:00 CEST is 09:00 CET the day before: 23 hours
    #expect(byUID["day"] == utc("2026-03-28T08:00:00Z"))
  }

  @Test(
    "a to-do's alarm relative to its end goes off from DUE; one relative to a start it lacks is skipped, said so"
  )
  func todoEnd() {
    let result = alarms([
      "BEGIN:VTODO", "UID:t", "DUE:20261210T170000Z", "SUMMARY:File taxes",
      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:-PT1H", "END:VALARM", "END:VTODO",
      "BEGIN:VTODO", "UID:none", "SUMMARY:Someday",
      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT1H", "END:VALARM", "END:VTODO",
    ])
    #expect(result.instants.map(\.fireDate) == [utc("2026-12-10T16:00:00Z")])
    #expect(result.warnings.contains { $0.property == "TRIGGER" && $0.line == 16 })
  }

  @Test("REPEAT and DURATION list each repetition; EMAIL alarms are skipped with a warning naming the line")
  func repeatsAndEmail() {
    let result = alarms([
      "BEGIN:VEVENT", "UID:r", "DTSTART:20261210T090000Z", "SUMMARY:r",
      "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER:-PT10M", "REPEAT:2", "DURATION:PT5M",
      "ATTACH:file:///s/bell.wav",
      "END:VALARM",
      "BEGIN:VALARM", "ACTION:EMAIL", "TRIGGER:-PT10M", "END:VALARM", "END:VEVENT",
    ])
    #expect(
      result.instants.map(\.fireDate) == [
        utc("2026-12-10T08:50:00Z"), utc("2026-12-10T08:55:00Z"), utc("2026-12-10T09:00:00Z"),
      ])
    #expect(result.instants.map(\.repetition) == [0, 1, 2])
    #expect(result.instants.first?.sound == "file:///s/bell.wav")
    let warning = result.warnings.first { $0.property == "VALARM" }
    #expect(warning?.line == 15)
    #expect(warning?.problem.contains("EMAIL") == true)
  }

  @Test(
    "acknowledged alarms are not shown again: ACKNOWLEDGED, X-MOZ-LASTACK; X-MOZ-SNOOZE-TIME brings one back")
  func acknowledgements() {
    let result = alarms([
      "BEGIN:VEVENT", "UID:daily", "DTSTART:20261210T090000Z", "RRULE:FREQ=DAILY;COUNT=4", "SUMMARY:d",
      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT10M", "ACKNOWLEDGED:20261211T090000Z", "END:VALARM",
      "END:VEVENT",
      "BEGIN:VEVENT", "UID:tb", "DTSTART:20261220T090000Z", "SUMMARY:t", "X-MOZ-LASTACK:20261220T085000Z",
      "X-MOZ-SNOOZE-TIME:20261220T091500Z",
      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT10M", "END:VALARM", "END:VEVENT",
    ])
    // Then the daily one's first two are acknowledged, the last two go off
    #expect(
      result.instants.filter { $0.uid == "daily" }.map(\.fireDate) == [
        utc("2026-12-12T08:50:00Z"), utc("2026-12-13T08:50:00Z"),
      ])
    // And Thunderbird's dismissed one comes back only at its snooze time
    #expect(result.instants.filter { $0.uid == "tb" }.map(\.fireDate) == [utc("2026-12-20T09:15:00Z")])
  }

  @Test("cancelled items and occurrences go off no more; an override replaces its occurrence")
  func cancelledAndOverrides() {
    let result = alarms([
      "BEGIN:VEVENT", "UID:w", "DTSTART;TZID=Europe/Berlin:20261207T100000", "RRULE:FREQ=WEEKLY;COUNT=3",
      "SUMMARY:Weekly", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:PT0S", "END:VALARM", "END:VEVENT",
      "BEGIN:VEVENT", "UID:w", "RECURRENCE-ID;TZID=Europe/Berlin:20261214T100000",
      "DTSTART;TZID=Europe/Berlin:20261214T150000",
      "SUMMARY:Moved", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:PT0S", "END:VALARM", "END:VEVENT",
      "BEGIN:VEVENT", "UID:w", "RECURRENCE-ID;TZID=Europe/Berlin:20261221T100000",
      "DTSTART;TZID=Europe/Berlin:20261221T100000",
      "STATUS:CANCELLED", "SUMMARY:Off", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:PT0S", "END:VALARM",
      "END:VEVENT",
      "BEGIN:VEVENT", "UID:gone", "DTSTART:20261210T090000Z", "STATUS:CANCELLED", "SUMMARY:g",
      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:PT0S", "END:VALARM", "END:VEVENT",
    ])
    #expect(result.instants.map(\.summary) == ["Weekly", "Moved"])
    #expect(result.instants.map(\.fireDate) == [utc("2026-12-07T09:00:00Z"), utc("2026-12-14T14:00:00Z")])
    #expect(result.instants.map(\.recurrenceID) == ["2026-12-07T09:00:00Z", "2026-12-14T09:00:00Z"])
  }

  @Test(
    "a TZID the tz database lacks is read from the file's VTIMEZONE; a database name ignores the file's copy")
  func ownZones() {
    let result = alarms([
      "BEGIN:VTIMEZONE", "TZID:W. Europe Standard Time", "BEGIN:STANDARD", "DTSTART:16010101T030000",
      "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "END:STANDARD",
      "BEGIN:DAYLIGHT", "DTSTART:16010101T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
      "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "END:DAYLIGHT", "END:VTIMEZONE",
      "BEGIN:VTIMEZONE", "TZID:America/New_York", "BEGIN:STANDARD", "DTSTART:19700101T000000",
      "TZOFFSETFROM:+0900", "TZOFFSETTO:+0900", "END:STANDARD", "END:VTIMEZONE",
      "BEGIN:VEVENT", "UID:outlook", "DTSTART;TZID=W. Europe Standard Time:20260701T090000", "SUMMARY:o",
      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:PT0S", "END:VALARM", "END:VEVENT",
      "BEGIN:VEVENT", "UID:ny", "DTSTART;TZID=America/New_York:20260701T090000", "SUMMARY:n",
      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:PT0S", "END:VALARM", "END:VEVENT",
    ])
    let byUID = Dictionary(uniqueKeysWithValues: result.instants.map { ($0.uid, $0.fireDate) })
    #expect(byUID["outlook"] == utc("2026-07-01T07:00:00Z"))
    #expect(byUID["ny"] == utc("2026-07-01T13:00:00Z"))
  }

  @Test(
    "the same alarm has the same id on every read; other occurrences, alarms and calendars have other ids")
  func stableIDs() {
    let lines = [
      "BEGIN:VEVENT", "UID:x", "DTSTART:20261210T090000Z", "RRULE:FREQ=DAILY;COUNT=2", "SUMMARY:x",
      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT10M", "END:VALARM",
      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT1H", "END:VALARM", "END:VEVENT",
    ]
    let first = alarms(lines).instants.map { AlarmIdentity.id(calendar: "work", instant: $0) }
    let again = alarms(lines).instants.map { AlarmIdentity.id(calendar: "work", instant: $0) }
    #expect(first == again)
    #expect(Set(first).count == 4)
    #expect(first.allSatisfy { $0.hasPrefix("cal-") && $0.count == 36 })
    let other = alarms(lines).instants.map { AlarmIdentity.id(calendar: "home", instant: $0) }
    #expect(Set(other).isDisjoint(with: first))
  }
}

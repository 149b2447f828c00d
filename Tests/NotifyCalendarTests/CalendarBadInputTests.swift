import Foundation
import NotifyCalendar
import NotifyCore
import NotifyTestSupport
import Testing

@Suite("Calendar files that are malformed, huge or hostile")
struct CalendarBadInputTests {
  @Test(
    "a malformed property, rule or item is skipped with a warning naming its line; the rest still schedules")
  func malformed() {
    // Given a file with a bad DTSTART, a bad RRULE, a line that is no content line, and a good event
    let result = alarms([
      "BEGIN:VEVENT", "UID:bad-start", "DTSTART:2026-12-10 09:00", "SUMMARY:b",
      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT10M", "END:VALARM", "END:VEVENT",
      "BEGIN:VEVENT", "UID:bad-rule", "DTSTART:20261210T090000Z", "RRULE:FREQ=FORTNIGHTLY", "SUMMARY:r",
      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT10M", "END:VALARM", "END:VEVENT",
      "this is not a content line",
      "BEGIN:VEVENT", "UID:good", "DTSTART:20261211T090000Z", "SUMMARY:g",
      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:NOT-A-DURATION", "END:VALARM",
      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT5M", "END:VALARM", "END:VEVENT",
    ])
    // Then the good alarms go off: the event with a bad rule once (its DTSTART), the good one
    #expect(result.instants.map(\.uid) == ["bad-rule", "good"])
    // And each problem is named by line and property
    let named = Set(result.warnings.map { "\($0.line) \($0.property)" })
    #expect(named.contains("6 DTSTART"))
    #expect(named.contains("4 VEVENT"))
    #expect(named.contains("16 RRULE"))
    #expect(named.contains("23 THIS"))
    #expect(named.contains("30 TRIGGER"))
    #expect(
      result.warnings.first { $0.property == "RRULE" }.map { "\($0.inFile("work/x.ics"))" }?.hasPrefix(
        "work/x.ics:16: RRULE: skipped") == true)
  }

  @Test("a 50 MB line is skipped without being built; components past the bound end the read, said so")
  func huge() {
    // Given a file whose second event has a 50 MB DESCRIPTION
    var bytes = calendarText([
      "BEGIN:VEVENT", "UID:a", "DTSTART:20261210T090000Z", "SUMMARY:a",
      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:PT0S", "END:VALARM", "END:VEVENT",
    ])
    let tail = Array(bytes.suffix(15))  // END:VCALENDAR\r\n
    bytes.removeLast(15)
    bytes += Array("BEGIN:VEVENT\r\nUID:b\r\nDTSTART:20261211T090000Z\r\nDESCRIPTION:".utf8)
    bytes += [UInt8](repeating: 0x61, count: 50 << 20)
    bytes +=
      Array("\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:PT0S\r\nEND:VALARM\r\nEND:VEVENT\r\n".utf8) + tail
    let result = AlarmExpansion.instants(
      in: CalendarDocument(bytes: bytes), zones: testZones(.utc), from: utc("2026-01-01T00:00:00Z"),
      to: utc("2027-01-01T00:00:00Z"))
    // Then both events' alarms go off, the long line skipped with a warning naming it
    #expect(result.instants.map(\.uid) == ["a", "b"])
    #expect(result.warnings.contains { $0.line == 16 && $0.problem.contains("longer than") })
  }

  @Test("more components than the bound: the rest of the file is skipped with a warning")
  func tooManyComponents() {
    let lines = [String](repeating: "BEGIN:X\r\nEND:X", count: ComponentParser.maxComponents + 10)
    let (_, warnings) = ComponentParser.parse(calendarText(lines))
    #expect(
      warnings.contains { $0.problem.contains("more than \(ComponentParser.maxComponents) components") })
  }

  @Test(
    "an unbounded rule is cut where the span asked about needs it, said so; the rolling window asks for the soonest only"
  )
  func unboundedRule() {
    let lines = [
      "BEGIN:VEVENT", "UID:m", "DTSTART:20260101T000000Z", "RRULE:FREQ=MINUTELY", "SUMMARY:m",
      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:PT0S", "END:VALARM", "END:VEVENT",
    ]
    // Given a rule every minute without end, asked about a month
    let year = alarms(lines, zone: "UTC", from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z")
    // Then it stops at the bound, with a warning
    #expect(year.warnings.contains { $0.property == "RRULE" && $0.problem.contains("more than") })
    // And asked for the soonest 64 over two centuries, it gives 64 (the rule is walked that far only)
    let window = AlarmExpansion.instants(
      in: CalendarDocument(bytes: calendarText(lines)), zones: testZones(.utc),
      from: utc("2026-06-01T00:00:00Z"),
      to: utc("2226-01-01T00:00:00Z"), limit: 64, soonestOnly: true)
    #expect(window.instants.count == 64)
    #expect(window.instants.first?.fireDate == utc("2026-06-01T00:00:00Z"))
  }

  @Test("a hostile VTIMEZONE (a rule every minute, thousands of parts) is bounded and still gives a zone")
  func hostileZone() {
    var lines = ["BEGIN:VTIMEZONE", "TZID:Evil"]
    for n in 0..<2000 {
      lines += [
        "BEGIN:STANDARD", "DTSTART:19700101T0\(n % 10)0000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
        "RRULE:FREQ=MINUTELY", "END:STANDARD",
      ]
    }
    lines += [
      "END:VTIMEZONE",
      "BEGIN:VEVENT", "UID:e", "DTSTART;TZID=Evil:20261210T090000", "SUMMARY:e",
      "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:PT0S", "END:VALARM", "END:VEVENT",
    ]
    let result = alarms(lines, zone: "UTC")
    // Then the event still has its alarm, in the zone's last offset (+02:00)
    #expect(result.instants.map(\.fireDate) == [utc("2026-12-10T07:00:00Z")])
  }

  @Test("not an iCalendar file: a warning, no alarms")
  func notCalendar() {
    let document = CalendarDocument(bytes: Array("hello\n".utf8))
    #expect(document.items.isEmpty)
    #expect(!document.warnings.isEmpty)
  }
}

import Foundation
import NotifyCalendar
import NotifyCore
import NotifyTestSupport
import Testing

/// An alarm goes through the request codec like a request through any door: what the
/// rules refuse is a warning at its VALARM naming its item, in the words `notify schedule`
/// gives for the same bound; the calendar's own texts are fitted to the bounds first.
@Suite("Calendar alarms: checked by the request rules")
struct AlarmRefusalTests {
  static let now = Date(timeIntervalSince1970: 1_795_000_000)

  /// The one alarm instant of an event whose SUMMARY is `summary`.
  static func instant(summary: String) throws -> AlarmInstant {
    let text = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notify tests//EN", "BEGIN:VEVENT", "UID:talk@test",
      "DTSTART:20261210T090000Z", "SUMMARY:\(summary)", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M",
      "END:VALARM", "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")
    let result = AlarmExpansion.instants(
      in: CalendarDocument(bytes: Array(text.utf8)), zones: testZones(.utc), from: now,
      to: now + 86_400 * 365,
      limit: 10, soonestOnly: true)
    return try #require(result.instants.first)
  }

  @Test("a SUMMARY over the title's bound is cut to fit, and the alarm passes the rules")
  func longTextsAreFitted() throws {
    let instant = try Self.instant(summary: String(repeating: "s", count: 300))
    let checked = try AlarmNotification.make(
      instant, calendar: "work", app: "calendar.work", createdAt: Self.now, zone: .utc)
    #expect(checked.notification.title == String(repeating: "s", count: Validator.maxTitle - 1) + "…")
  }

  @Test("what the rules refuse is a warning at the VALARM naming the event, in the command's words")
  func aRefusalIsAWarningInTheCommandsWords() throws {
    // Given an alarm's request that breaks the title's bound (as no calendar text can once
    // fitted: the draft is changed by hand)
    let instant = try Self.instant(summary: "Talk")
    var draft = AlarmNotification.draft(instant, calendar: "work", app: "calendar.work", zone: .utc)
    draft.title = String(repeating: "t", count: 201)
    // When the codec reads it
    let error = try #require(throws: NotifyError.self) { try RequestCodec.notification(draft, now: Self.now) }
    // Then the calendar's warning names the file, the VALARM's line and the event
    let warning = AlarmNotification.refused(instant, file: "work/talk.ics", error: error)
    #expect(
      warning.description
        == "work/talk.ics:8: VALARM: skipped: the alarm of event 'talk@test': title is 201 characters long: shorten it to at most 200"
    )
    // And the words are those notify schedule gives for the same title
    let folder = TemporaryFolder(prefix: "notify-alarm-refusal")
    let command = try CommandRunner(environment: ["NOTIFY_DB": folder.file("notify.db")]).run([
      "schedule", "--in", "1h", "--title", String(repeating: "t", count: 201), "body",
    ])
    #expect(command.status == 65)
    #expect(command.stderr == "notify: error: \(error.description)\n")
  }
}

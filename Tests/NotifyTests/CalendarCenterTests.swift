import Foundation
import Notify
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// The library's calendar calls on a real SQLite file and real `.ics` files, with a manual
/// clock: what `notify calendar add/list/remove/preview` and `notify import` do, for the
/// center's app.
@Suite
struct CalendarCenterTests {
  let folder = TemporaryFolder(prefix: "notify-calendar-center")
  /// 2026-11-18, before every event below.
  let clock = ManualClock(now: Date(timeIntervalSince1970: 1_795_000_000))

  func makeCenter(app: String = "org.example.Planner") throws -> LocalNotificationCenter {
    try LocalNotificationCenter(
      app: app, store: try SQLiteStore(path: folder.file("notify.db")), sink: RecordingSink(), clock: clock)
  }

  /// A daily event at 09:00 UTC from 2026-12-10, `count` times, with a DISPLAY alarm 15
  /// minutes before.
  static func daily(uid: String, count: Int) -> String {
    """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//notify tests//EN\r
    BEGIN:VEVENT\r
    UID:\(uid)\r
    DTSTART:20261210T090000Z\r
    RRULE:FREQ=DAILY;COUNT=\(count)\r
    SUMMARY:Standup\r
    BEGIN:VALARM\r
    ACTION:DISPLAY\r
    TRIGGER:-PT15M\r
    END:VALARM\r
    END:VEVENT\r
    END:VCALENDAR\r

    """
  }

  /// An event whose only alarm is an e-mail (skipped, with a warning).
  static let emailOnly = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//notify tests//EN\r
    BEGIN:VEVENT\r
    UID:mail@test\r
    DTSTART:20261211T120000Z\r
    SUMMARY:Lunch\r
    BEGIN:VALARM\r
    ACTION:EMAIL\r
    TRIGGER:-PT1H\r
    SUMMARY:Lunch\r
    DESCRIPTION:Lunch\r
    ATTENDEE:mailto:ada@example.org\r
    END:VALARM\r
    END:VEVENT\r
    END:VCALENDAR\r

    """

  /// A vdir folder `name` with the standup (3 days) and the e-mail-only event.
  func vdir(_ name: String = "work") throws -> String {
    let path = folder.file(name)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    try Self.daily(uid: "standup@test", count: 3).write(
      toFile: path + "/standup.ics", atomically: true, encoding: .utf8)
    try Self.emailOnly.write(toFile: path + "/lunch.ics", atomically: true, encoding: .utf8)
    return path
  }

  static func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

  @Test func addListAndRemoveACalendarOfTheApp() async throws {
    let center = try makeCenter()
    let path = try vdir()
    // When the app adds the folder as a calendar
    let added = try await center.addCalendar(atPath: path)
    // Then its alarms are the app's pending notifications at once, named and counted
    #expect(added.calendar.name == "work")
    #expect(added.calendar.app == "org.example.Planner")
    #expect(added.calendar.path == path)
    #expect(added.calendar.fileCount == 2)
    #expect(added.calendar.pendingAlarmCount == 3)
    #expect(added.calendar.nextAlarmDate == Self.utc("2026-12-10T08:45:00Z"))
    #expect(added.calendar.addedAt == clock.now())
    #expect(added.warnings.contains { $0.contains("lunch.ics") && $0.contains("ACTION:EMAIL") })
    let pending = try await center.pendingNotificationSchedules()
    #expect(
      pending.map(\.nextFireDate) == [
        Self.utc("2026-12-10T08:45:00Z"), Self.utc("2026-12-11T08:45:00Z"), Self.utc("2026-12-12T08:45:00Z"),
      ])
    #expect(pending.allSatisfy { $0.notification.content.title == "Standup" })
    // And the ids are those the preview (and notify calendar preview) gives for that name
    let preview = try await center.previewCalendar(
      paths: [path], from: clock.now(), to: Self.utc("2027-01-01T00:00:00Z"))
    #expect(pending.map(\.notification.id) == preview.alarms.map(\.notificationID))
    // And the store the notify command reads has it, for the app
    let store = try SQLiteStore(path: folder.file("notify.db"))
    #expect(try store.calendars().map(\.app) == ["org.example.Planner"])
    // And it is listed as it was added
    #expect(try await center.calendars() == [added.calendar])

    // When it is removed
    let cancelled = try await center.removeCalendar(named: "work")
    // Then its alarms are cancelled and it is gone; the files stay
    #expect(cancelled == 3)
    #expect(try await center.calendars().isEmpty)
    #expect(try await center.pendingNotificationRequests().isEmpty)
    #expect(FileManager.default.fileExists(atPath: path + "/standup.ics"))
  }

  @Test func eachAppSeesAndRemovesItsOwnCalendarsOnly() async throws {
    let planner = try makeCenter()
    let other = try makeCenter(app: "org.example.Other")
    // Given a calendar of another app in the same store
    _ = try await other.addCalendar(atPath: try vdir("theirs"))
    // Then the planner neither lists it nor can remove it
    #expect(try await planner.calendars().isEmpty)
    await #expect {
      try await planner.removeCalendar(named: "theirs")
    } throws: { error in
      guard case .notFound(let ids, let context) = error as? NotificationError else { return false }
      return ids == ["theirs"] && context.problem.contains("theirs")
    }
    // And it stays, with its alarms
    #expect(try await other.calendars().map(\.pendingAlarmCount) == [3])
  }

  @Test func badPathsAndNamesAreCasesAndLeaveTheStoreAlone() async throws {
    let center = try makeCenter()
    let path = try vdir()
    func invalid(_ error: any Error, saying words: String) -> Bool {
      guard case .invalidContent(_, _, let context) = error as? NotificationError else { return false }
      return context.description.contains(words)
    }
    // A path that does not exist
    await #expect {
      try await center.addCalendar(atPath: folder.file("missing"))
    } throws: { invalid($0, saying: "no such file or folder") }
    // A name that is not one
    await #expect {
      try await center.addCalendar(atPath: path, name: "my work")
    } throws: { invalid($0, saying: "is not a calendar name") }
    #expect(try await center.calendars().isEmpty)
    #expect(try await center.pendingNotificationRequests().isEmpty)
    // A name already watched: the first calendar stays as it was
    _ = try await center.addCalendar(atPath: path)
    await #expect {
      try await center.addCalendar(atPath: path)
    } throws: { invalid($0, saying: "already watched") }
    #expect(try await center.calendars().map(\.name) == ["work"])
    #expect(try await center.pendingNotificationRequests().count == 3)
    // A name nothing has
    await #expect {
      try await center.removeCalendar(named: "nothing")
    } throws: { error in
      guard case .notFound = error as? NotificationError else { return false }
      return true
    }
  }

  @Test func previewListsTheWindowSoonestFirstAndSchedulesNothing() async throws {
    let center = try makeCenter()
    let path = try vdir()
    // When the window ends at the second day's alarm
    let preview = try await center.previewCalendar(
      paths: [path], from: Self.utc("2026-12-10T00:00:00Z"), to: Self.utc("2026-12-11T08:45:00Z"),
      name: "mine")
    // Then only the first is listed (the window's end is excluded), with its fields
    #expect(preview.alarms.map(\.fireDate) == [Self.utc("2026-12-10T08:45:00Z")])
    let alarm = try #require(preview.alarms.first)
    #expect(alarm.uid == "standup@test")
    #expect(alarm.recurrenceID == "2026-12-10T09:00:00Z")
    #expect(alarm.action == .display)
    #expect(alarm.kind == .event)
    #expect(alarm.summary == "Standup")
    #expect(alarm.start == Self.utc("2026-12-10T09:00:00Z"))
    #expect(alarm.file == path + "/standup.ics")
    #expect(alarm.line == 9)
    #expect(alarm.notificationID.hasPrefix("cal-"))
    // And the e-mail alarm is a warning naming its file
    #expect(preview.warnings.contains { $0.contains("lunch.ics") && $0.contains("ACTION:EMAIL") })
    // And nothing was stored
    #expect(try await center.pendingNotificationRequests().isEmpty)
    #expect(try await center.calendars().isEmpty)
    // A window that ends before it starts, and a missing path, are invalid
    await #expect {
      try await center.previewCalendar(paths: [path], from: clock.now(), to: clock.now())
    } throws: { error in
      guard case .invalidContent = error as? NotificationError else { return false }
      return true
    }
    await #expect {
      try await center.previewCalendar(
        paths: [folder.file("missing")], from: clock.now(), to: clock.now() + 60)
    } throws: { error in
      guard case .invalidContent(_, _, let context) = error as? NotificationError else { return false }
      return context.description.contains("missing")
    }
  }

  @Test func importSchedulesTheSoonestOnceAndAgainReplaces() async throws {
    let center = try makeCenter()
    let file = folder.file("trip.ics")
    try Self.daily(uid: "trip@test", count: 3).write(toFile: file, atomically: true, encoding: .utf8)
    // When the file is imported
    let imported = try await center.importCalendar(file: file)
    // Then its three alarms are one-shots of the app, and nothing was left out
    #expect(imported.importedIDs.count == 3)
    #expect(imported.leftOutAfter == nil)
    #expect(imported.discardedIDs.isEmpty)
    #expect(try await center.pendingNotificationRequests().map(\.identifier) == imported.importedIDs)
    // And importing it again replaces them rather than doubling
    let again = try await center.importCalendar(file: file)
    #expect(again.importedIDs == imported.importedIDs)
    #expect(try await center.pendingNotificationRequests().count == 3)
    // And no calendar is watched
    #expect(try await center.calendars().isEmpty)
  }

  @Test func importLeavesRoomAndSaysWhatItLeftOut() async throws {
    let center = try makeCenter()
    let file = folder.file("year.ics")
    try Self.daily(uid: "year@test", count: 100).write(toFile: file, atomically: true, encoding: .utf8)
    // When a file with 100 alarms is imported into an empty app
    let imported = try await center.importCalendar(file: file)
    // Then 56 are (8 of the 64 left free), and it says after when the rest were left out
    #expect(imported.importedIDs.count == 56)
    #expect(imported.leftOutAfter == Self.utc("2026-12-10T08:45:00Z") + 55 * 86_400)
    #expect(try await center.pendingNotificationRequests().count == 56)
    // And a file without alarms from now on schedules nothing; a missing one is invalid
    let past = folder.file("past.ics")
    try Self.daily(uid: "past@test", count: 1).replacingOccurrences(of: "20261210", with: "20201210")
      .write(toFile: past, atomically: true, encoding: .utf8)
    #expect(try await center.importCalendar(file: past).importedIDs.isEmpty)
    #expect(try await center.pendingNotificationRequests().count == 56)
    await #expect {
      try await center.importCalendar(file: folder.file("missing.ics"))
    } throws: { error in
      guard case .invalidContent(_, _, let context) = error as? NotificationError else { return false }
      return context.description.contains("no such file")
    }
  }
}

import Foundation
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// `notify calendar add/list/remove` and `notify import` run as the built binary: their
/// output, exit codes and the store they leave, which the library's calls share.
@Suite("notify calendar add, list, remove and import, end to end")
struct CalendarCommandTests {
  let folder = TemporaryFolder(prefix: "notify-calendar-command")
  var db: String { folder.file("notify.db") }

  func notify(_ arguments: [String], db: String? = nil) throws -> CommandRunner.Result {
    try NotifyTestSupport.notify(arguments, environment: ["NOTIFY_DB": db ?? self.db, "TZ": "UTC"])
  }

  /// A daily event at 09:00 UTC from 2030-01-10, `count` times, a DISPLAY alarm 15 min before.
  static func daily(uid: String, count: Int) -> String {
    [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notify tests//EN", "BEGIN:VEVENT", "UID:\(uid)",
      "DTSTART:20300110T090000Z", "RRULE:FREQ=DAILY;COUNT=\(count)", "SUMMARY:Standup", "BEGIN:VALARM",
      "ACTION:DISPLAY", "TRIGGER:-PT15M", "END:VALARM", "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")
  }

  static let emailOnly = [
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notify tests//EN", "BEGIN:VEVENT", "UID:mail@test",
    "DTSTART:20300111T120000Z", "SUMMARY:Lunch", "BEGIN:VALARM", "ACTION:EMAIL", "TRIGGER:-PT1H",
    "SUMMARY:Lunch", "DESCRIPTION:Lunch", "ATTENDEE:mailto:ada@example.org", "END:VALARM", "END:VEVENT",
    "END:VCALENDAR", "",
  ].joined(separator: "\r\n")

  func vdir() throws -> String {
    let path = folder.file("work")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    try Data(Self.daily(uid: "standup@test", count: 3).utf8).write(
      to: URL(fileURLWithPath: path + "/standup.ics"))
    try Data(Self.emailOnly.utf8).write(to: URL(fileURLWithPath: path + "/lunch.ics"))
    return path
  }

  @Test("add schedules and says so; list shows it; remove cancels; each refusal has its exit code")
  func addListRemove() throws {
    let path = try vdir()
    // When the folder is added
    let added = try notify(["calendar", "add", path, "--name", "w"])
    // Then it says what it scheduled, and warns of the e-mail alarm by file and property
    #expect(added.status == 0)
    #expect(
      added.stdout
        == "calendar 'w' (app calendar.w): 2 files, 3 alarms pending, next at 2030-01-10 08:45:00 UTC\n")
    #expect(added.stderr.contains("lunch.ics") && added.stderr.contains("ACTION:EMAIL"))
    // And the name is taken now: exit 1, the calendar unchanged
    let again = try notify(["calendar", "add", path, "--name", "w"])
    #expect(again.status == 1)
    #expect(again.stderr.contains("a calendar named 'w' is already watched: pick another --name"))
    // And list shows it
    let list = try notify(["calendar", "list", "--json"])
    #expect(list.status == 0)
    let calendars = try #require(
      try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
    #expect(calendars.count == 1)
    #expect(calendars.first?["name"] as? String == "w")
    #expect(calendars.first?["app"] as? String == "calendar.w")
    #expect(calendars.first?["path"] as? String == path)
    #expect(calendars.first?["files"] as? Int == 2)
    #expect(calendars.first?["pending"] as? Int == 3)
    #expect(calendars.first?["next"] as? String == "2030-01-10T08:45:00Z")
    // When it is removed, Then its alarms are cancelled; a second remove finds nothing
    let removed = try notify(["calendar", "remove", "w"])
    #expect(removed.status == 0)
    #expect(removed.stdout == "removed calendar 'w': 3 pending alarms cancelled\n")
    #expect(try SQLiteStore(path: db).pending(app: "calendar.w").isEmpty)
    let unknown = try notify(["calendar", "remove", "w"])
    #expect(unknown.status == 1)
    #expect(unknown.stderr.contains("no calendar is named 'w'"))
  }

  @Test("bad input: a missing path is 66 and a bad name 65, before any store exists")
  func badInputLeavesNoStore() throws {
    let path = try vdir()
    let fresh = folder.file("fresh.db")
    let missing = try notify(["calendar", "add", folder.file("nothing")], db: fresh)
    #expect(missing.status == 66)
    #expect(missing.stderr.contains("no such file or folder"))
    let badName = try notify(["calendar", "add", path, "--name", "my work"], db: fresh)
    #expect(badName.status == 65)
    #expect(badName.stderr.contains("'my work' is not a calendar name"))
    let noFile = try notify(["import", folder.file("nothing.ics")], db: fresh)
    #expect(noFile.status == 66)
    #expect(noFile.stderr.contains("no such file:"))
    #expect(!FileManager.default.fileExists(atPath: fresh))
  }

  @Test("import schedules a file's alarms once into an app, again replaces, and says what it left out")
  func importOnce() throws {
    let file = folder.file("trip.ics")
    try Data(Self.daily(uid: "trip@test", count: 3).utf8).write(to: URL(fileURLWithPath: file))
    // When a file is imported twice
    let first = try notify(["import", file, "--app", "travel"])
    let second = try notify(["import", file, "--app", "travel"])
    // Then its three alarms are pending once
    #expect(first.status == 0)
    #expect(first.stdout == "imported 3 alarms of \(file) into app travel\n")
    #expect(second.status == 0)
    #expect(try SQLiteStore(path: db).pending(app: "travel").count == 3)
    // And a file with more than the app can keep imports 56, and warns after when
    let year = folder.file("year.ics")
    try Data(Self.daily(uid: "year@test", count: 100).utf8).write(to: URL(fileURLWithPath: year))
    let many = try notify(["import", year, "--app", "year"])
    #expect(many.status == 0)
    #expect(many.stdout == "imported 56 alarms of \(year) into app year\n")
    #expect(many.stderr.contains("later alarms (after 2030-03-06 08:45:00 UTC) were not imported"))
    // And a file with no alarm from now on is exit 1
    let past = folder.file("past.ics")
    try Data(Self.daily(uid: "past@test", count: 1).replacingOccurrences(of: "2030", with: "2020").utf8)
      .write(
        to: URL(fileURLWithPath: past))
    let none = try notify(["import", past, "--app", "travel"])
    #expect(none.status == 1)
    #expect(none.stderr.contains("has no alarm from now on"))
  }
}

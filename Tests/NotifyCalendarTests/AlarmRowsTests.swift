import Foundation
import GRDB
import NotifyCalendarSync
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// The rows a calendar's alarms become, column for column, against the rows recorded in
/// `Golden/alarm-rows.txt`: whatever way the notifications are built (they go through the
/// request codec like every other door), the store holds the same bytes for the same files.
@Suite("Calendar alarms: the rows they become")
struct AlarmRowsTests {
  let folder = TemporaryFolder(prefix: "notify-alarm-rows")
  /// 2026-11-18, before every item below.
  let clock = ManualClock(
    now: Date(timeIntervalSince1970: 1_795_000_000), localZone: testZone("Europe/Berlin"),
    database: testZoneDatabase)

  static func calendar(_ items: [String]) -> String {
    (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notify tests//EN"] + items + ["END:VCALENDAR", ""])
      .joined(separator: "\r\n")
  }

  static func event(_ uid: String, start: String, _ lines: [String], alarm: [String]) -> String {
    (["BEGIN:VEVENT", "UID:\(uid)", "DTSTART\(start)"] + lines + ["BEGIN:VALARM"] + alarm + [
      "END:VALARM", "END:VEVENT",
    ]).joined(separator: "\r\n")
  }

  /// Items that exercise each part of an alarm's notification: plain text, text cut to the
  /// title's and the body's limits, control characters, a line break in a summary, sounds,
  /// re-alerts, an all-day item, a zoned one, a to-do, a UID too long for `userInfo`.
  static let files: [(String, String)] = [
    (
      "plain.ics",
      calendar([
        event(
          "plain@test", start: ":20261210T090000Z", ["SUMMARY:Standup", "DESCRIPTION:Room 4B\\nBring notes"],
          alarm: ["ACTION:DISPLAY", "TRIGGER:-PT15M"])
      ])
    ),
    (
      "long.ics",
      calendar([
        event(
          "long@test", start: ":20261211T090000Z",
          [
            "SUMMARY:" + String(repeating: "s", count: 300),
            "DESCRIPTION:" + String(repeating: "b", count: 4100),
          ],
          alarm: ["ACTION:DISPLAY", "TRIGGER:-PT5M"])
      ])
    ),
    (
      "control.ics",
      calendar([
        event(
          "control@test", start: ":20261212T090000Z",
          ["SUMMARY:Bell\u{7}ring\\nnext line", "DESCRIPTION:\u{1B}[31mred"],
          alarm: ["ACTION:DISPLAY", "TRIGGER:-PT1H"])
      ])
    ),
    (
      "sound.ics",
      calendar([
        event(
          "audio@test", start: ":20261213T090000Z", ["SUMMARY:Train"],
          alarm: ["ACTION:AUDIO", "TRIGGER:-PT10M", "ATTACH:file:///usr/share/sounds/bell%20two.wav"]),
        event(
          "beep@test", start: ":20261213T100000Z", ["SUMMARY:Bus"],
          alarm: ["ACTION:AUDIO", "TRIGGER:-PT10M"]),
      ])
    ),
    (
      "repeat.ics",
      calendar([
        event(
          "repeat@test", start: ";TZID=Europe/Berlin:20261214T090000", ["SUMMARY:Dentist"],
          alarm: ["ACTION:DISPLAY", "TRIGGER:-PT30M", "REPEAT:20", "DURATION:PT10S"])
      ])
    ),
    (
      "allday.ics",
      calendar([
        event(
          "allday@test", start: ";VALUE=DATE:20261215", ["SUMMARY:Birthday"],
          alarm: ["ACTION:DISPLAY", "TRIGGER:-PT12H"]),
        event(
          String(repeating: "u", count: 600) + String(repeating: "\u{1F600}", count: 400),
          start: ":20261216T090000Z",
          [], alarm: ["ACTION:DISPLAY", "TRIGGER:-PT1M", "DESCRIPTION:Alarm text"]),
      ])
    ),
    (
      "todo.ics",
      calendar([
        [
          "BEGIN:VTODO", "UID:todo@test", "DUE:20261217T170000Z", "SUMMARY:File taxes", "BEGIN:VALARM",
          "ACTION:DISPLAY", "TRIGGER;RELATED=END:-PT2H", "END:VALARM", "END:VTODO",
        ].joined(separator: "\r\n")
      ])
    ),
  ]

  func vdir() throws -> String {
    let path = folder.file("work")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    for (name, text) in Self.files {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name))
    }
    return path
  }

  /// Every column of every notification row but the row id, one line each, by id.
  func rows(_ db: String) throws -> [String] {
    let queue = try DatabaseQueue(path: db)
    return try queue.read { db in
      try Row.fetchAll(db, sql: "SELECT * FROM notification ORDER BY id").map { row in
        row.columnNames.filter { $0 != "rowid" && $0 != "row_id" }.map { name in
          let value = row[name] as DatabaseValue
          return "\(name)=\(value.description)"
        }.joined(separator: " | ")
      }
    }
  }

  static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden/alarm-rows.txt")

  @Test("calendar add and import store the recorded rows for the same files")
  func sameRows() throws {
    let path = try vdir()
    // When the folder is added as a calendar, and each file is imported into another store
    let added = folder.file("added.db")
    _ = try CalendarCatalog(store: try SQLiteStore(path: added), clock: clock, logger: .init(label: "test"))
      .add(path: path, name: "work", app: "calendar.work", writeBack: false)
    let imported = folder.file("imported.db")
    let importStore = try SQLiteStore(path: imported)
    for (name, _) in Self.files {
      _ = try CalendarImport.importFile(path + "/" + name, app: "importer", store: importStore, clock: clock)
    }
    // Then the rows are those recorded, column for column
    let text =
      (["# calendar add"] + (try rows(added)) + ["# notify import"] + (try rows(imported)))
      .joined(separator: "\n") + "\n"
    if ProcessInfo.processInfo.environment["NOTIFY_RECORD_GOLDEN"] == "1" {
      try Data(text.utf8).write(to: Self.golden)
    }
    let recorded = try String(contentsOf: Self.golden, encoding: .utf8)
    let (now, then) = (text.split(separator: "\n"), recorded.split(separator: "\n"))
    #expect(now.count == then.count)
    for (line, (a, b)) in zip(now, then).enumerated() {
      #expect(a == b, "line \(line + 1)")
    }
  }
}

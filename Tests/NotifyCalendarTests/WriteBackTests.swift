import Foundation
import NotifyCalendar
import NotifyCore
import NotifyTestSupport
import Testing

@testable import NotifyCalendarSync

@Suite("Acknowledgements written back into the item")
struct WriteBackTests {
  static let original = [
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN",
    "BEGIN:VEVENT", "UID:w1", "DTSTART:20261210T090000Z", "SUMMARY:Team ;meeting\\, long line folded ",
    " here", "X-UNKNOWN;PARAM=\"a:b\":kept as it is",
    "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "DESCRIPTION:Reminder", "END:VALARM",
    "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT5M", "ACKNOWLEDGED:20261201T000000Z", "END:VALARM",
    "END:VEVENT", "END:VCALENDAR", "",
  ].joined(separator: "\r\n")

  @Test("ACKNOWLEDGED goes into the alarm that went off; every other byte stays")
  func inserts() throws {
    let bytes = Array(Self.original.utf8)
    let at = utc("2026-12-10T08:46:30Z")
    let edited = try AcknowledgementEdit.acknowledge(
      bytes, uid: "w1", recurrenceID: nil, alarmKey: "DISPLAY/start-PT15M/0/", at: at, zones: .utc
    ).get()
    let text = String(decoding: edited, as: UTF8.self)
    #expect(
      text
        == Self.original.replacingOccurrences(
          of: "DESCRIPTION:Reminder\r\nEND:VALARM",
          with: "DESCRIPTION:Reminder\r\nACKNOWLEDGED:20261210T084630Z\r\nEND:VALARM"))
    // And read again, that alarm is acknowledged
    let again = CalendarDocument(bytes: edited)
    #expect(again.items[0].alarms[0].acknowledged == at)
  }

  @Test("an ACKNOWLEDGED already there is replaced in place; an older time is not written")
  func replaces() throws {
    let bytes = Array(Self.original.utf8)
    let edited = try AcknowledgementEdit.acknowledge(
      bytes, uid: "w1", recurrenceID: nil, alarmKey: "DISPLAY/start-PT5M/0/", at: utc("2026-12-10T08:56:00Z"),
      zones: .utc
    ).get()
    #expect(
      String(decoding: edited, as: UTF8.self)
        == Self.original.replacingOccurrences(
          of: "ACKNOWLEDGED:20261201T000000Z", with: "ACKNOWLEDGED:20261210T085600Z"))
    let older = AcknowledgementEdit.acknowledge(
      bytes, uid: "w1", recurrenceID: nil, alarmKey: "DISPLAY/start-PT5M/0/", at: utc("2026-11-01T00:00:00Z"),
      zones: .utc)
    #expect(older == .failure(.alreadyAcknowledged))
    let gone = AcknowledgementEdit.acknowledge(
      bytes, uid: "other", recurrenceID: nil, alarmKey: "DISPLAY/start-PT5M/0/",
      at: utc("2026-12-10T08:56:00Z"), zones: .utc)
    #expect(gone == .failure(.alarmNotFound))
  }

  @Test("the file is replaced by a rename with its mode kept, and never when it changed since it was read")
  func atomic() throws {
    let folder = TemporaryFolder(prefix: "notify-write-back")
    let path = folder.file("w1.ics")
    try Data(Self.original.utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o640)
    let stamp = try #require(CalendarWriteBack.stamp(path))
    let inode = stamp[1]
    try CalendarWriteBack.replace(path, with: Array("new".utf8), ifStill: stamp)
    #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self) == "new")
    #expect(fileMode(path) == 0o640)
    #expect(CalendarWriteBack.stamp(path)?[1] != inode)
    // Given the file changed after it was read
    let read = try #require(CalendarWriteBack.stamp(path))
    try Data("a sync wrote this".utf8).write(to: URL(fileURLWithPath: path))
    // Then the replacement is refused and the file kept as the sync wrote it, no temporary file left
    #expect(throws: (any Error).self) {
      try CalendarWriteBack.replace(path, with: Array("mine".utf8), ifStill: read)
    }
    #expect(
      String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self) == "a sync wrote this"
    )
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["w1.ics"])
  }
}

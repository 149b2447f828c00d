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

  @Test(
    "a snooze acknowledges the alarm, gives it a UID, and adds an RFC 9074 snooze alarm beside it; a second snooze replaces the first"
  )
  func snoozes() throws {
    let bytes = Array(Self.original.utf8)
    var uids = ["A-1", "S-1", "S-2"].makeIterator()
    // When the first alarm (no UID) is snoozed at 08:46:30 until 08:51:30
    let first = try AcknowledgementEdit.snooze(
      bytes, uid: "w1", recurrenceID: nil, alarmKey: "DISPLAY/start-PT15M/0/",
      at: utc("2026-12-10T08:46:30Z"),
      until: utc("2026-12-10T08:51:30Z"), zones: .utc, newUID: { uids.next()! }
    ).get()
    // Then it is acknowledged with a UID, and the snooze alarm follows it; nothing else changed
    let snoozeAlarm = [
      "BEGIN:VALARM", "UID:S-1", "ACTION:DISPLAY", "DESCRIPTION:Reminder",
      "TRIGGER;VALUE=DATE-TIME:20261210T085130Z", "RELATED-TO;RELTYPE=SNOOZE:A-1", "END:VALARM",
    ].joined(separator: "\r\n")
    #expect(
      String(decoding: first.bytes, as: UTF8.self)
        == Self.original.replacingOccurrences(
          of: "DESCRIPTION:Reminder\r\nEND:VALARM\r\n",
          with: "DESCRIPTION:Reminder\r\nUID:A-1\r\nACKNOWLEDGED:20261210T084630Z\r\nEND:VALARM\r\n"
            + snoozeAlarm + "\r\n"))
    #expect(first.alarmUID == "A-1" && first.added && first.snoozeUID == "S-1" && first.recurrenceID == nil)
    // And notify reads the snooze alarm as an alarm at its trigger, the original no more
    let read = AlarmExpansion.instants(
      in: CalendarDocument(bytes: first.bytes), zones: .utc, from: utc("2026-12-10T08:46:31Z"),
      to: utc("2026-12-11T00:00:00Z"))
    #expect(read.instants.map(\.fireDate) == [utc("2026-12-10T08:51:30Z"), utc("2026-12-10T08:55:00Z")])
    #expect(read.instants.first?.alarmKey == "uid:S-1")
    // When the snooze alarm goes off and is snoozed again (the alarm is found by its UID now)
    let second = try AcknowledgementEdit.snooze(
      first.bytes, uid: "w1", recurrenceID: nil, alarmKey: "uid:A-1", at: utc("2026-12-10T08:51:40Z"),
      until: utc("2026-12-10T08:56:40Z"), zones: .utc, newUID: { uids.next()! }
    ).get()
    // Then the first snooze alarm is gone, the alarm's ACKNOWLEDGED moved on, and one new snooze alarm follows
    let text = String(decoding: second.bytes, as: UTF8.self)
    #expect(!second.added && second.snoozeUID == "S-2")
    #expect(!text.contains("UID:S-1") && text.contains("UID:S-2"))
    #expect(text.contains("ACKNOWLEDGED:20261210T085140Z") && !text.contains("ACKNOWLEDGED:20261210T084630Z"))
    #expect(text.components(separatedBy: "RELATED-TO;RELTYPE=SNOOZE:A-1").count == 2)
    // When it is dismissed after the second snooze alarm went off
    let dismissed = try AcknowledgementEdit.acknowledge(
      second.bytes, uid: "w1", recurrenceID: nil, alarmKey: "uid:A-1", at: utc("2026-12-10T08:57:00Z"),
      zones: .utc
    ).get()
    // Then the alarm and its snooze alarm are acknowledged: only the item's other alarm is left
    #expect(
      String(decoding: dismissed, as: UTF8.self).components(separatedBy: "ACKNOWLEDGED:20261210T085700Z")
        .count
        == 3)
    let after = AlarmExpansion.instants(
      in: CalendarDocument(bytes: dismissed), zones: .utc, from: utc("2026-12-10T08:00:00Z"),
      to: utc("2026-12-11T00:00:00Z"))
    #expect(after.instants.map(\.fireDate) == [utc("2026-12-10T08:55:00Z")])
  }
}

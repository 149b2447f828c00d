import Foundation
import NotifyCalendar
import NotifyCalendarSync
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// An event file with one alarm at `fire` (UTC), titled `summary`.
func eventFile(uid: String, fire: Date, summary: String) -> String {
  let start = CalendarDateTime(
    wall: WallClock(localSeconds: Int64(fire.timeIntervalSince1970) + 600), reference: .utc
  ).text
  return [
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notify tests//EN", "BEGIN:VEVENT", "UID:\(uid)",
    "DTSTART:\(start)", "SUMMARY:\(summary)", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT10M",
    "END:VALARM",
    "END:VEVENT", "END:VCALENDAR", "",
  ].joined(separator: "\r\n")
}

@Suite("Calendars in the store: the window, rescans, removal", .ownThreads)
struct CalendarSyncTests {
  let folder = TemporaryFolder(prefix: "notify-calendar-sync")
  let now = Date(timeIntervalSince1970: TimeInterval(Int(Date().timeIntervalSince1970)))

  func write(_ name: String, _ text: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: folder.file("vdir/" + name)))
  }

  func setUp(events: Int) throws -> (SQLiteStore, CalendarSync) {
    try FileManager.default.createDirectory(atPath: folder.file("vdir"), withIntermediateDirectories: true)
    for n in 0..<events {
      try write(
        "e\(n).ics", eventFile(uid: "e\(n)", fire: now + TimeInterval(3600 * (n + 1)), summary: "Event \(n)"))
    }
    let store = try SQLiteStore(path: folder.file("notify.db"))
    try store.addCalendar(
      CalendarRecord(
        name: "work", path: folder.file("vdir"), app: "calendar.work", writeBack: false, addedAt: now,
        watermark: now))
    let sync = CalendarSync(
      store: store, clock: ManualClock(now: now, localZone: .utc, database: testZoneDatabase))
    return (store, sync)
  }

  @Test("a calendar of 100 events: the soonest 56 are pending, under the ids preview gives")
  func window() throws {
    // Given a vdir of 100 events an hour apart
    let (store, sync) = try setUp(events: 100)
    // When it is synced
    let report = try sync.sync(force: true)
    // Then the soonest 56 are pending, soonest first, and the 64 limit discarded nothing
    let pending = try store.pending(app: "calendar.work")
    #expect(report.scheduled == 56)
    #expect(report.discarded.isEmpty)
    #expect(pending.map(\.notification.title) == (0..<56).map { "Event \($0)" })
    let document = CalendarDocument(
      bytes: Array(eventFile(uid: "e0", fire: now + 3600, summary: "Event 0").utf8))
    let instant = AlarmExpansion.instants(in: document, zones: .utc, from: now, to: now + 7200).instants[0]
    #expect(pending.first?.notification.id == AlarmIdentity.id(calendar: "work", instant: instant))
    // And the notification has the calendar's buttons
    #expect(pending.first?.notification.actions.map(\.key) == ["notify.snooze.300", "dismiss"])
  }

  @Test("an alarm that left the store is not brought back; the next one comes in")
  func refill() throws {
    let (store, sync) = try setUp(events: 60)
    try sync.sync(force: true)
    let first = try store.pending(app: "calendar.work")[0].notification.id
    // Given the first alarm is cancelled by hand (as a delivery would take it)
    _ = try store.cancel(app: "calendar.work", ids: [first], at: now)
    // When the calendar is synced again, with nothing changed on disk
    let report = try sync.sync()
    // Then the 57th alarm came in and the first did not come back
    let pending = try store.pending(app: "calendar.work")
    #expect(report.consumed == 1)
    #expect(pending.count == 56)
    #expect(!pending.contains { $0.notification.id == first })
    #expect(pending.last?.notification.title == "Event 56")
  }

  @Test(
    "an edited file replaces its alarm, a deleted one cancels it (history says calendar), an untouched calendar reads no file"
  )
  func rescans() throws {
    let (store, sync) = try setUp(events: 3)
    try sync.sync(force: true)
    // Given one file edited and one deleted
    try write("e0.ics", eventFile(uid: "e0", fire: now + 3600, summary: "Event 0, moved room"))
    try FileManager.default.removeItem(atPath: folder.file("vdir/e1.ics"))
    // When synced
    let report = try sync.sync()
    // Then
    let titles = try store.pending(app: "calendar.work").map(\.notification.title)
    #expect(titles == ["Event 0, moved room", "Event 2"])
    #expect(report.filesRead == 1)
    let cancelled = try store.history(app: "calendar.work", limit: 10).filter { $0.kind == .cancelled }
    #expect(cancelled.map(\.reason) == ["calendar"])
    // And a sync with nothing changed reads no file and changes nothing
    let quiet = try sync.sync()
    #expect(quiet.filesRead == 0 && quiet.scheduled == 0 && quiet.cancelled == 0)
  }

  @Test("removing a calendar cancels its pending alarms and forgets it")
  func remove() throws {
    let (store, sync) = try setUp(events: 3)
    try sync.sync(force: true)
    #expect(try store.removeCalendar(named: "work", at: now) == 3)
    #expect(try store.pending(app: "calendar.work").isEmpty)
    #expect(try store.calendars().isEmpty)
    #expect(try store.removeCalendar(named: "work", at: now) == nil)
  }
}

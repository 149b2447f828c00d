import Foundation
import NotifyCalendar
import NotifyCalendarSync
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// `20261210T081500Z`.
func utcStamp(_ date: Date) -> String {
  CalendarDateTime(wall: WallClock(localSeconds: Int64(date.timeIntervalSince1970)), reference: .utc).text
}

/// With `--write-back`, a snooze is written as RFC 9074 says, and notify, reading the file
/// again, does not schedule the snooze alarm on top of its own snoozed copy.
@Suite("Snoozes written back into the item", .ownThreads)
struct SnoozeWriteBackTests {
  let folder = TemporaryFolder(prefix: "notify-calendar-snooze")

  @Test(
    "a snooze writes ACKNOWLEDGED and a snooze alarm; a rescan schedules nothing; the dismissal acknowledges both"
  )
  func snoozeThenDismiss() throws {
    // Given a calendar with write-back and one alarm, pending
    let now = Date(timeIntervalSince1970: TimeInterval(Int(Date().timeIntervalSince1970)))
    let vdir = folder.file("vdir")
    try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
    let path = vdir + "/s.ics"
    let fire = now + 3600
    try Data(eventFile(uid: "s1", fire: fire, summary: "Snooze me").utf8).write(
      to: URL(fileURLWithPath: path))
    let store = try SQLiteStore(path: folder.file("notify.db"))
    try store.addCalendar(
      CalendarRecord(
        name: "s", path: vdir, app: "calendar.s", writeBack: true, addedAt: now, watermark: now))
    let clock = ManualClock(now: now, localZone: .utc, database: testZoneDatabase)
    try CalendarSync(store: store, clock: clock).sync(force: true)
    let id = try #require(store.pending(app: "calendar.s").first?.notification.id)
    // When it went off and the user snoozed it for 5 minutes (notify's snoozed copy holds it
    // until then; the original left the window)
    clock.set(fire + 10)
    _ = try store.cancel(app: "calendar.s", ids: [id], at: fire)
    try store.record(
      HistoryEvent(
        at: fire + 10, app: "calendar.s", notificationID: id, kind: .snoozed, reason: "notify.snooze.300",
        fireDate: fire + 310))
    #expect(try CalendarWriteBack(store: store, clock: clock).run() == 1)
    // Then the file holds the alarm acknowledged (with a UID) and a snooze alarm at the snooze's end
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let trigger = utcStamp(fire + 310)
    #expect(text.contains("ACKNOWLEDGED:\(utcStamp(fire + 10))"), "\(text)")
    #expect(text.contains("TRIGGER;VALUE=DATE-TIME:\(trigger)"), "\(text)")
    #expect(text.contains("RELATED-TO;RELTYPE=SNOOZE:"), "\(text)")
    let document = CalendarDocument(bytes: Array(text.utf8))
    let alarms = try #require(document.items.first?.alarms)
    #expect(alarms.count == 2 && alarms[1].snoozes == alarms[0].uid && alarms[0].uid != nil)
    // And a rescan does not schedule the snooze alarm (notify's own copy goes off then)
    let report = try CalendarSync(store: store, clock: clock).sync()
    #expect(report.scheduled == 0)
    #expect(try store.pending(app: "calendar.s").isEmpty)
    // When the snoozed copy went off and the user dismissed it
    clock.set(fire + 320)
    try store.record(
      HistoryEvent(
        at: fire + 320, app: "calendar.s", notificationID: id, kind: .dismissed, reason: "dismissed-by-user"))
    #expect(try CalendarWriteBack(store: store, clock: clock).run() == 1)
    // Then both the alarm and its snooze alarm are acknowledged
    let dismissed = CalendarDocument(bytes: Array(try String(contentsOfFile: path, encoding: .utf8).utf8))
    let acknowledged = dismissed.items.first?.alarms.map(\.acknowledged)
    #expect(acknowledged == [fire + 320, fire + 320])
  }
}

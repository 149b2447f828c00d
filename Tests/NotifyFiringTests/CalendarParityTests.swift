import Foundation
import Glibc
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// Who fires a calendar's alarms: the daemon, `fire-due` runs (the timer's way), or an app
/// firing its own notifications in process.
enum CalendarDriver: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case daemon
  case fireDue
  case app

  var testDescription: String { rawValue }
}

/// A calendar's rolling window is refilled whoever fires it: the same calendar, with room
/// for one alarm at a time in its app's window, delivers every alarm through each driver.
@Suite("calendar alarms through every driver", .serialized, .ownThreads)
struct CalendarParityTests {
  /// An event whose alarm goes off at `fire` (10 minutes before it starts).
  static func event(_ n: Int, fire: Date) -> String {
    var seconds = time_t(fire.timeIntervalSince1970.rounded(.up) + 600)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    let start = String(
      format: "%04d%02d%02dT%02d%02d%02dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
      parts.tm_hour, parts.tm_min, parts.tm_sec)
    return [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notify tests//EN", "BEGIN:VEVENT", "UID:parity-\(n)",
      "DTSTART:\(start)", "SUMMARY:Alarm \(n)", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT10M",
      "END:VALARM", "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")
  }

  @Test(
    "every alarm of a calendar whose window holds one at a time is delivered, once",
    arguments: CalendarDriver.allCases)
  func refills(driver: CalendarDriver) throws {
    // Given the app `test` with 55 notifications of its own pending (far ahead), so its
    // window has room for one calendar alarm (64 - 8 - 55)
    let f = try FiringFixture()
    for n in 0..<55 { try f.schedule("own-\(n)", at: Date() + 86_400) }
    // And a calendar of that app with three alarms a second and a half apart
    let vdir = f.folder.file("vdir")
    try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
    let first = Date() + 8
    for n in 0..<3 {
      try Data(Self.event(n, fire: first + Double(n) * 1.5).utf8).write(
        to: URL(fileURLWithPath: vdir + "/e\(n).ics"))
    }
    let runner = CommandRunner(environment: ["NOTIFY_DB": f.path, "TZ": "UTC"])
    let added = try runner.run(["calendar", "add", vdir, "--name", "parity", "--app", "test"])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(try f.store.pending(app: "test").filter { $0.notification.id.hasPrefix("cal-") }.count == 1)
    // When `driver` fires the app's notifications
    func calendarDeliveries() -> [String] {
      ((try? f.events(.delivered)) ?? []).map(\.notificationID).filter { $0.hasPrefix("cal-") }
    }
    var firer: ChildProcess?
    var fireDueErrors = ""
    switch driver {
    case .daemon:
      firer = try ChildProcess.firer(.daemon, db: f.path, folder: f.folder, name: "d")
    case .app:
      firer = try ChildProcess.firer(.app, db: f.path, folder: f.folder, name: "a")
    case .fireDue:
      break
    }
    if let firer { #expect(firer.waitReady(), "\(firer.stderr)") }
    // Then all three alarms are delivered (the window refilled after each)
    let delivered = waitUntil(timeout: 40, interval: 0.3) {
      if driver == .fireDue, let run = try? runner.run(["fire-due", "--sink", "stdout"]), run.status != 0 {
        fireDueErrors += run.stderr
      }
      return calendarDeliveries().count >= 3
    }
    #expect(delivered, "\(firer?.stderr ?? fireDueErrors)")
    #expect(f.waitSettled(), "\(firer?.stderr ?? fireDueErrors)")
    firer?.send(SIGTERM)
    if let firer { #expect(firer.waitExit() == 0) }
    // And each once, and the app's own notifications are still pending
    let ids = calendarDeliveries()
    #expect(ids.count == 3 && Set(ids).count == 3, "\(ids)")
    #expect(try f.store.pending(app: "test").filter { $0.notification.id.hasPrefix("own-") }.count == 55)
    let calendar = try #require(try f.store.calendars().first)
    let alarms = try f.store.calendarAlarms(calendar: calendar.name)
    #expect(alarms.filter { $0.state == "pending" }.isEmpty, "\(alarms)")
  }
}

import Foundation
import Glibc
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

extension ChildProcess {
  /// `notify daemon` on `db` in UTC, its output in `folder/daemon.out` and `.err`.
  static func calendarDaemon(
    db: String, folder: TemporaryFolder, arguments: [String] = ["daemon", "--sink", "stdout"]
  ) throws -> ChildProcess {
    try ChildProcess(
      CommandRunner.product("notify"), arguments, environment: ["NOTIFY_DB": db, "TZ": "UTC"],
      stdout: .file(folder.file("daemon.out")), stderr: .file(folder.file("daemon.err")),
      notifySocket: folder.file("daemon.sock"))
  }
}

@Suite("The daemon follows calendars on disk", .ownThreads)
struct CalendarDaemonTests {
  let folder = TemporaryFolder(prefix: "notify-calendar-daemon")
  var db: String { folder.file("notify.db") }
  var vdir: String { folder.file("vdir") }

  func notify(_ arguments: [String]) throws -> CommandRunner.Result {
    try NotifyTestSupport.notify(arguments, environment: ["NOTIFY_DB": db, "TZ": "UTC"])
  }

  func pendingTitles(_ store: SQLiteStore, app: String = "calendar.t") -> [String] {
    ((try? store.pending(app: app)) ?? []).compactMap(\.notification.title)
  }

  func write(_ name: String, _ text: String, viaRename: Bool = false) throws {
    if viaRename {
      let temporary = vdir + "/.\(name).tmp"
      try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
      rename(temporary, vdir + "/" + name)
    } else {
      try Data(text.utf8).write(to: URL(fileURLWithPath: vdir + "/" + name))
    }
  }

  @Test("an added, edited (in place and by rename) and deleted file is scheduled, rescheduled and cancelled")
  func followsChanges() throws {
    // Given a watched, empty vdir and a running daemon
    try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
    #expect(try notify(["calendar", "add", vdir, "--name", "t"]).status == 0)
    let daemon = try ChildProcess.calendarDaemon(db: db, folder: folder)
    defer { daemon.terminate() }
    #expect(daemon.waitReady())
    let store = try SQLiteStore(path: db)
    let soon = Date() + 3600
    // When a file is added
    try write("a.ics", eventFile(uid: "a", fire: soon, summary: "Added"))
    // Then its alarm is pending
    #expect(waitUntil(timeout: 15) { pendingTitles(store) == ["Added"] }, "\(daemon.stderr)")
    // When it is edited in place, then replaced by a rename (as vdirsyncer writes)
    try write("a.ics", eventFile(uid: "a", fire: soon, summary: "Edited"))
    #expect(waitUntil(timeout: 15) { pendingTitles(store) == ["Edited"] }, "\(daemon.stderr)")
    try write("a.ics", eventFile(uid: "a", fire: soon, summary: "Renamed"), viaRename: true)
    #expect(waitUntil(timeout: 15) { pendingTitles(store) == ["Renamed"] }, "\(daemon.stderr)")
    // When it is deleted, its alarm is cancelled
    unlink(vdir + "/a.ics")
    #expect(waitUntil(timeout: 15) { pendingTitles(store).isEmpty }, "\(daemon.stderr)")
    // And a calendar one level down counts too, moved in whole, and then followed
    try FileManager.default.createDirectory(atPath: folder.file("nested"), withIntermediateDirectories: true)
    try Data(eventFile(uid: "n", fire: soon, summary: "Nested").utf8).write(
      to: URL(fileURLWithPath: folder.file("nested/n.ics")))
    rename(folder.file("nested"), vdir + "/nested")
    #expect(waitUntil(timeout: 15) { pendingTitles(store) == ["Nested"] }, "\(daemon.stderr)")
    try Data(eventFile(uid: "n", fire: soon, summary: "Nested, edited").utf8).write(
      to: URL(fileURLWithPath: vdir + "/nested/n.ics"))
    #expect(waitUntil(timeout: 15) { pendingTitles(store) == ["Nested, edited"] }, "\(daemon.stderr)")
  }

  @Test("a calendar added while the daemon runs is watched from then on")
  func addedWhileRunning() throws {
    try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
    let daemon = try ChildProcess.calendarDaemon(db: db, folder: folder)
    defer { daemon.terminate() }
    #expect(daemon.waitReady())
    // Given a calendar added by another process after the daemon started
    #expect(try notify(["calendar", "add", vdir, "--name", "t"]).status == 0)
    #expect(
      waitUntil(timeout: 15) {
        daemon.stderr.contains("calendars rescanned") || daemon.stderr.contains("ready")
      })
    let store = try SQLiteStore(path: db)
    // When a file appears in it, then it is scheduled (the daemon watches the new folder)
    _ = waitUntil(timeout: 15) { daemon.stderr.contains("calendars rescanned in") }
    try write("late.ics", eventFile(uid: "late", fire: Date() + 3600, summary: "Late"))
    #expect(waitUntil(timeout: 15) { pendingTitles(store) == ["Late"] }, "\(daemon.stderr)")
  }

  @Test("a sync that writes 500 files at once is one rescan")
  func burst() throws {
    try FileManager.default.createDirectory(atPath: vdir + "/.staging", withIntermediateDirectories: true)
    #expect(try notify(["calendar", "add", vdir, "--name", "t"]).status == 0)
    let daemon = try ChildProcess.calendarDaemon(db: db, folder: folder)
    defer { daemon.terminate() }
    #expect(daemon.waitReady())
    let store = try SQLiteStore(path: db)
    // Given 500 event files written aside, when they are renamed into the vdir at once
    for n in 0..<500 {
      try Data(eventFile(uid: "b\(n)", fire: Date() + TimeInterval(3600 + n * 60), summary: "B\(n)").utf8)
        .write(to: URL(fileURLWithPath: vdir + "/.staging/b\(n).ics"))
    }
    for n in 0..<500 { rename(vdir + "/.staging/b\(n).ics", vdir + "/b\(n).ics") }
    // Then the window fills (56 of them) ...
    #expect(waitUntil(timeout: 30) { pendingTitles(store).count == 56 }, "\(daemon.stderr)")
    // ... in one rescan: the watch rescans at most `CalendarWatch.longest` (0.7 s) after a
    // burst's first event, so two seconds on, a second rescan would have been logged
    _ = waitUntil(timeout: 2) { false }
    let rescans = daemon.stderr.components(separatedBy: "calendar alarms of app calendar.t:").count - 1
    #expect(rescans == 1, "\(daemon.stderr)")
  }

  @Test(
    "with --write-back, a dismissal by the user becomes ACKNOWLEDGED in the file, which schedules nothing again"
  )
  func writeBack() throws {
    try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
    #expect(try notify(["calendar", "add", vdir, "--name", "t", "--write-back"]).status == 0)
    let daemon = try ChildProcess.calendarDaemon(db: db, folder: folder)
    defer { daemon.terminate() }
    #expect(daemon.waitReady())
    // (the event is written once the calendar is watched: an alarm already past when a
    // calendar is added is never shown, however slow the machine)
    let start = Date() + 3
    try write("w.ics", eventFile(uid: "w", fire: start, summary: "Write me back"))
    // Given the alarm was delivered
    #expect(waitUntil(timeout: 20) { daemon.stdout.contains("Write me back") }, "\(daemon.stderr)")
    let store = try SQLiteStore(path: db)
    let id = try #require(store.calendarAlarms(calendar: "t").first?.id)
    // When the user dismisses it (as the notification server reports it)
    try store.record(
      HistoryEvent(
        at: Date(), app: "calendar.t", notificationID: id, kind: .dismissed, reason: "dismissed-by-user"))
    // Then the file carries ACKNOWLEDGED in its alarm, the rest as it was
    #expect(
      waitUntil(timeout: 15) {
        ((try? String(contentsOfFile: vdir + "/w.ics", encoding: .utf8)) ?? "").contains("ACKNOWLEDGED:")
      }, "\(daemon.stderr)")
    let text = try String(contentsOfFile: vdir + "/w.ics", encoding: .utf8)
    let without = text.split(separator: "\r\n", omittingEmptySubsequences: false).filter {
      !$0.hasPrefix("ACKNOWLEDGED:")
    }
    .joined(separator: "\r\n")
    #expect(without == eventFile(uid: "w", fire: start, summary: "Write me back"))
    // And the rescan it causes (within `CalendarWatch.longest`) schedules nothing again
    _ = waitUntil(timeout: 2) { false }
    #expect(pendingTitles(store).isEmpty)
    #expect(daemon.stdout.components(separatedBy: "Write me back").count - 1 == 1)
  }

  @Test("fire-due schedules and delivers a calendar's alarms as the daemon does: the same notifications")
  func fireDueLikeTheDaemon() throws {
    // Given one calendar, watched in two stores: one with a daemon, one with fire-due runs
    try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
    let other = folder.file("other.db")
    #expect(try notify(["calendar", "add", vdir, "--name", "t"]).status == 0)
    #expect(
      try CommandRunner(environment: ["NOTIFY_DB": other, "TZ": "UTC"]).run([
        "calendar", "add", vdir, "--name", "t",
      ]).status == 0)
    let daemon = try ChildProcess.calendarDaemon(db: db, folder: folder)
    defer { daemon.terminate() }
    #expect(daemon.waitReady())
    // (the events are written once the calendars are added: see writeBack)
    let first = Date() + 3
    try write("a.ics", eventFile(uid: "a", fire: first, summary: "First"))
    try write("b.ics", eventFile(uid: "b", fire: first + 1, summary: "Second"))
    #expect(waitUntil(timeout: 20) { daemon.stdout.contains("Second") }, "\(daemon.stderr)")
    // When fire-due runs once both are due
    _ = waitUntil(timeout: 10) { Date() > first + 1.5 }
    let run = try CommandRunner(environment: ["NOTIFY_DB": other, "TZ": "UTC"]).run([
      "fire-due", "--sink", "stdout",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    // Then both delivered the same notifications (ids, titles, subtitles, buttons, userInfo)
    func shown(_ lines: String) throws -> [JSONValue] {
      try lines.split(separator: "\n").map { line in
        guard case .object(var members) = try JSONValue.parse(String(line)) else { return .null }
        for key in ["deliveredAt", "createdAt", "late"] { members[key] = nil }
        return .object(members)
      }
    }
    let byDaemon = try shown(daemon.stdout)
    let byFireDue = try shown(run.stdout)
    #expect(byDaemon.count == 2)
    #expect(byDaemon == byFireDue)
  }
}

import Foundation
import Glibc
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// The tools real calendars reach a Linux desktop through.
enum CalendarTools {
  static let radicale = CommandRunner.isRegularExecutable("/usr/bin/radicale")
  static let vdirsyncer = CommandRunner.isRegularExecutable("/usr/bin/vdirsyncer")
  static let khal = CommandRunner.isRegularExecutable("/usr/bin/khal")
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("Fixtures").path

  /// A free TCP port on the loopback interface.
  static func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}

/// Radicale on a free port of its own, in its own folder, stopped with the test.
final class RadicaleServer: @unchecked Sendable {
  let port: Int
  let log: String
  private let process: ChildProcess

  init(folder: TemporaryFolder) throws {
    port = CalendarTools.freePort()
    log = folder.file("radicale.log")
    process = try ChildProcess(
      "/usr/bin/python3",
      [
        "-m", "radicale", "--storage-filesystem-folder=\(folder.file("collections"))",
        "--server-hosts=127.0.0.1:\(port)", "--auth-type=none", "--rights-type=owner_only",
      ], stdout: .file(log), stderr: .file(log))
  }

  var url: String { "http://127.0.0.1:\(port)/user/cal/" }

  func caldav(_ arguments: [String]) throws -> CommandRunner.Result {
    try CommandRunner(executable: "/usr/bin/python3").run(
      [CalendarTools.fixtures + "/caldav.py"] + arguments, timeout: 30)
  }

  func waitReady() -> Bool {
    waitUntil(timeout: 30, interval: 0.1) { (try? caldav(["ping", url]).status) == 0 }
  }

  deinit { process.terminate() }
}

@Suite("Calendars from real tools: Radicale over CalDAV, vdirsyncer, khal", .ownThreads)
struct CalendarChainTests {
  /// The files a real tool wrote, read by notify's preview and by the oracle alike (when
  /// the oracle's venv is there): the same alarm instants.
  func compareWithOracle(_ files: [String], zone: String) throws {
    guard ICalOracle.isUsable else { return }
    let from = "2026-01-01T00:00:00Z"
    let to = "2031-01-01T00:00:00Z"
    let ours = try ICalOracle.preview(paths: files, from: from, to: to, zone: zone)
    for file in files {
      let text = try String(contentsOfFile: file, encoding: .utf8)
      let answer = try ICalOracle.ask(
        [CalendarCase.given(text: text, from: from, to: to, zone: zone)], zone: zone)
      let oracle = try answer[0].get().map(\.key).sorted()
      let mine = ours.filter { $0.file == file }.map(\.key).sorted()
      #expect(!mine.isEmpty)
      #expect(mine == oracle, "\(file)")
    }
  }

  let folder = TemporaryFolder(prefix: "notify-calendar-chain")
  var db: String { folder.file("notify.db") }
  var vdir: String { folder.file("vdir") }

  func notify(_ arguments: [String]) throws -> CommandRunner.Result {
    try NotifyTestSupport.notify(arguments, environment: ["NOTIFY_DB": db, "TZ": "Europe/Berlin"])
  }

  @Test(
    "an event with an alarm put into Radicale over CalDAV, synced by vdirsyncer into a watched folder, is delivered by the daemon, and its dismissal synced back",
    .enabled(
      if: CalendarTools.radicale && CalendarTools.vdirsyncer,
      "needs radicale and vdirsyncer (bash .ci/install-packages)"))
  func radicaleChain() throws {
    // Given Radicale with a calendar holding an event whose alarm goes off in a few seconds
    let server = try RadicaleServer(folder: folder)
    #expect(server.waitReady(), "\((try? String(contentsOfFile: server.log, encoding: .utf8)) ?? "")")
    #expect(try server.caldav(["mkcalendar", server.url]).status == 0)
    // And notify watching a folder with write-back, its daemon running (added before the
    // event exists: an alarm already past when a calendar is added is never shown)
    try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
    #expect(try notify(["calendar", "add", vdir, "--name", "radicale", "--write-back"]).status == 0)
    let daemon = try ChildProcess.calendarDaemon(db: db, folder: folder)
    defer { daemon.terminate() }
    #expect(daemon.waitReady())
    // (30 s ahead: the sync, a Python process or two, comes first even on a loaded machine)
    let start = Date() + 90
    let event = folder.file("event.ics")
    try Data(eventFile(uid: "radicale-1", fire: start - 60, summary: "From Radicale").utf8)
      .write(to: URL(fileURLWithPath: event))
    #expect(try server.caldav(["put", server.url + "radicale-1.ics", event]).status == 0)
    // When vdirsyncer syncs it into the watched folder
    let config = folder.file("vdirsyncer.conf")
    try Data(
      """
      [general]
      status_path = "\(folder.file("status"))/"
      [pair cal]
      a = "local"
      b = "remote"
      collections = null
      [storage local]
      type = "filesystem"
      path = "\(vdir)/"
      fileext = ".ics"
      [storage remote]
      type = "caldav"
      url = "\(server.url)"
      username = "user"
      password = "x"

      """.utf8
    ).write(to: URL(fileURLWithPath: config))
    let vdirsyncer = CommandRunner(executable: "/usr/bin/vdirsyncer", environment: ["HOME": folder.path])
    let discovered = try vdirsyncer.run(["-c", config, "discover", "cal"], timeout: 60)
    #expect(discovered.status == 0, "\(discovered.stderr)")
    let synced = try vdirsyncer.run(["-c", config, "sync"], timeout: 60)
    #expect(synced.status == 0, "\(synced.stderr)")
    // And the file vdirsyncer wrote reads the same to notify and to the oracle
    try compareWithOracle([vdir + "/radicale-1.ics"], zone: "Europe/Berlin")
    // Then the alarm is delivered
    #expect(waitUntil(timeout: 90) { daemon.stdout.contains("From Radicale") }, "\(daemon.stderr)")
    // When the user dismisses it
    let store = try SQLiteStore(path: db)
    let id = try #require(store.calendarAlarms(calendar: "radicale").first?.id)
    try store.record(
      HistoryEvent(
        at: Date(), app: "calendar.radicale", notificationID: id, kind: .dismissed,
        reason: "dismissed-by-user"))
    // Then the item in the folder is acknowledged, and the next sync carries it to Radicale
    let file = vdir + "/radicale-1.ics"
    #expect(
      waitUntil(timeout: 15) {
        ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").contains("ACKNOWLEDGED:")
      },
      "\(daemon.stderr)")
    let back = try vdirsyncer.run(["-c", config, "sync"], timeout: 60)
    #expect(back.status == 0, "\(back.stderr)")
    let onServer = try server.caldav(["get", server.url + "radicale-1.ics"])
    #expect(onServer.stdout.contains("ACKNOWLEDGED:"), "\(onServer.stdout)")
    #expect(onServer.stdout.contains("SUMMARY:From Radicale"))
  }

  @Test(
    "an event khal writes with an alarm into a watched folder is scheduled by the daemon, at its alarm",
    .enabled(if: CalendarTools.khal, "needs khal (bash .ci/install-packages)"))
  func khalWrites() throws {
    try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
    let config = folder.file("khal.conf")
    try Data(
      """
      [calendars]
      [[work]]
      path = \(vdir)
      type = calendar
      [locale]
      timeformat = %H:%M
      dateformat = %Y-%m-%d
      longdateformat = %Y-%m-%d
      datetimeformat = %Y-%m-%d %H:%M
      longdatetimeformat = %Y-%m-%d %H:%M
      local_timezone = Europe/Berlin
      default_timezone = Europe/Berlin
      [default]
      default_calendar = work

      """.utf8
    ).write(to: URL(fileURLWithPath: config))
    #expect(try notify(["calendar", "add", vdir, "--name", "khal"]).status == 0)
    let daemon = try ChildProcess.calendarDaemon(db: db, folder: folder)
    defer { daemon.terminate() }
    #expect(daemon.waitReady())
    // When khal makes a weekly event next year with an alarm 15 minutes before
    let khal = CommandRunner(
      executable: "/usr/bin/khal",
      environment: ["HOME": folder.path, "XDG_DATA_HOME": folder.file("data"), "TZ": "Europe/Berlin"])
    let year = Calendar(identifier: .gregorian).component(.year, from: Date()) + 1
    let made = try khal.run(
      [
        "-c", config, "new", "-a", "work", "-m", "15m", "-r", "weekly", "\(year)-01-04", "09:00", "10:00",
        "Dentist",
      ],
      timeout: 60)
    #expect(made.status == 0, "\(made.stderr)")
    // Then the daemon schedules its alarms: 08:45 Berlin time, weekly
    let store = try SQLiteStore(path: db)
    #expect(
      waitUntil(timeout: 15) { ((try? store.pending(app: "calendar.khal")) ?? []).count > 3 },
      "\(daemon.stderr)"
    )
    let pending = try store.pending(app: "calendar.khal")
    #expect(pending.allSatisfy { $0.notification.title == "Dentist" })
    let berlin = testZone("Europe/Berlin")
    let first = try #require(pending.first?.nextFireDate)
    #expect(
      ZoneResolver.wallClock(for: first, in: berlin)
        == WallClock(year: year, month: 1, day: 4, hour: 8, minute: 45))
    #expect(pending[1].nextFireDate == first + 7 * 86_400)
    // And the file khal wrote reads the same to notify and to the oracle
    let files = try FileManager.default.contentsOfDirectory(atPath: vdir).filter { $0.hasSuffix(".ics") }
    try compareWithOracle(files.map { vdir + "/" + $0 }, zone: "Europe/Berlin")
  }
}

import Foundation
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// Who fires the alarm: the daemon, an app firing in process, or `fire-due` runs.
enum AlarmFirer: String, CaseIterable, CustomTestStringConvertible {
  case daemon, app
  case fireDue = "fire-due"
  var testDescription: String { rawValue }
}

/// Alarms end to end: a notification that re-alerts until acknowledged, shown on
/// a scripted notification server on a private bus, with a `kill -9` of the firer between
/// two re-alerts, acknowledged on its third re-alert, then settled with nothing pending.
///
/// Re-alerts are at least a minute apart; instead of waiting, the test moves the pending
/// re-alert's fire date to now in the store file (`sqlite3`), after checking it was stored
/// for the delivery's instant plus the interval. Everything else is the real firers' work.
@Suite(
  .serialized,
  .enabled(if: ActivationTools.missing == nil, "needs dbus, gdbus and python3-gi"),
  .enabled(
    if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "needs sqlite3 to move time"),
  .ownThreads)
struct AlarmDesktopTests {
  @Test(
    "an alarm acknowledged on the third re-alert stops, with a kill -9 between two re-alerts",
    arguments: AlarmFirer.allCases)
  func acknowledgedOnThird(firer: AlarmFirer) throws {
    // Given a private bus with a notification server, and a firer on it
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(in: f.folder, services: f.folder.file("services"))
    var resident: ChildProcess?
    var starts = 0
    func start() throws {
      guard firer != .fireDue else { return }
      starts += 1
      let process = try ChildProcess.firer(
        firer == .daemon ? .daemon : .app, db: f.path, folder: f.folder, name: "d\(starts)", sink: "desktop",
        environment: desktop.bus)
      #expect(process.waitReady(), "\(process.stderr)")
      resident = process
    }
    func act() throws {
      guard firer == .fireDue else { return }
      let run = try notify(["fire-due", "--sink", "desktop"], db: f.path, environment: desktop.bus)
      #expect(run.status == 0, "\(run.stderr)")
    }
    func delivered() -> [HistoryEvent] { (try? f.events(.delivered)) ?? [] }
    func waitDelivered(_ count: Int) {
      #expect(
        waitUntil(timeout: 20) { delivered().count >= count },
        "expected \(count) deliveries, got \(delivered().count): \(resident?.stderr ?? "")")
    }
    /// The pending re-alert: checked due `every` after the last delivery, then made due now.
    func bringForward(number: Int) throws {
      let pending = try f.store.pending(app: "test")
      #expect(pending.map(\.realertNumber) == [number], "\(pending)")
      let last = try #require(delivered().last)
      #expect(pending.first?.nextFireDate.map { ($0.timeIntervalSince(last.at) * 1000).rounded() } == 60_000)
      let moved = try CommandRunner(executable: "/usr/bin/sqlite3").run([
        "-cmd", ".timeout 20000", f.path,
        """
        UPDATE notification SET next_fire_at = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER),
          fire_instant = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
          WHERE next_fire_at IS NOT NULL AND json_extract(realert, '$.number') IS NOT NULL;
        """,
      ])
      #expect(moved.status == 0, "\(moved.stderr)")
    }
    try start()
    // When an alarm (every minute, at most 5 times) falls due
    try f.store.schedule(
      LocalNotification(
        id: "wake", app: "test",
        schedule: Schedule(fireDate: .instant(Date() + (firer == .fireDue ? 0 : 0.3))),
        title: "title wake",
        body: "get up", realert: Realert(every: 60, times: 5), createdAt: Date()),
      zones: testZones(f.utc))
    try act()
    // Then it is shown and recorded, and re-alert 1 waits a minute later
    waitDelivered(1)
    try bringForward(number: 1)
    try act()
    waitDelivered(2)
    // When the firer is killed (-9) between re-alerts 1 and 2, and started again
    if let process = resident {
      process.send(SIGKILL)
      #expect(process.waitExit() == 128 + SIGKILL)
    }
    try start()
    // Then re-alert 2 is still pending (stored with re-alert 1's delivery) and comes
    try bringForward(number: 2)
    try act()
    waitDelivered(3)
    try bringForward(number: 3)
    try act()
    waitDelivered(4)
    // And each re-alert replaced the one bubble and is a numbered delivered entry
    #expect(delivered().map { $0.detail["realert"] } == [nil, .int(1), .int(2), .int(3)])
    let shown = desktop.calls.filter { $0["call"] as? String == "Notify" }
    #expect(shown.count == 4)
    #expect(Set(shown.compactMap { $0["id"] as? Int }).count == 1, "\(shown)")
    // When the user clicks the third re-alert's bubble
    let bubble = try #require(shown.last?["id"] as? Int)
    if firer == .fireDue {
      // No fire-due run listens after it ends: the app heard the click (its own center
      // records it with this call, `InteractionRecorder`).
      try f.store.record(
        .interaction(
          .activated, reason: "default", app: "test", id: "wake", occurrence: 1, userInfo: [:], at: Date()))
    } else {
      try desktop.drive("Click", "\(bubble)", "default", "")
    }
    // Then the click is recorded and re-alert 4 is gone with it
    #expect(
      waitUntil(timeout: 20) { ((try? f.events(.activated)) ?? []).count == 1 },
      "\(resident?.stderr ?? "")")
    #expect(try f.store.pending(app: "test").isEmpty)
    // And once settled and stopped, nothing more was delivered
    try act()
    #expect(f.waitSettled(), "\(resident?.stderr ?? "")")
    if let process = resident {
      process.send(SIGTERM)
      #expect(process.waitExit() == 0, "\(process.stderr)")
    }
    #expect(delivered().count == 4)
    #expect(desktop.calls.filter { $0["call"] as? String == "Notify" }.count == 4)
  }
}

import Foundation
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// What quiet hours held comes out threaded: each held notification of a thread
/// goes into its thread's bubble like any delivery of the thread (`replaces_id`, a count
/// line), the app's summary counts only the rest. For the daemon, an app firing in process
/// and `fire-due`, on the scripted server, which records every `Notify`.
@Suite(
  .serialized,
  .enabled(if: ActivationTools.missing == nil, "needs dbus, gdbus and python3-gi"),
  .ownThreads)
struct QuietThreadReleaseTests {
  @Test(
    "held ones of a thread join its bubble when quiet ends; the summary counts the others",
    arguments: AlarmFirer.allCases)
  func threadedRelease(firer: AlarmFirer) throws {
    // Given a private bus with the scripted server, and a firer on it
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(in: f.folder, services: f.folder.file("none"))
    var resident: ChildProcess?
    if firer != .fireDue {
      let process = try ChildProcess.firer(
        firer == .daemon ? .daemon : .app, db: f.path, folder: f.folder, name: "r", sink: "desktop",
        environment: desktop.bus)
      #expect(process.waitReady(), "\(process.stderr)")
      resident = process
    }
    defer {
      resident?.send(SIGTERM)
      _ = resident?.waitExit()
    }
    func act() throws {
      guard firer == .fireDue else { return }
      let run = try notify(["fire-due", "--sink", "desktop"], db: f.path, environment: desktop.bus)
      #expect(run.status == 0, "\(run.stderr)")
    }
    func schedule(_ id: String, thread: String?) throws {
      try f.store.schedule(
        LocalNotification(
          id: id, app: "test", schedule: Schedule(fireDate: .instant(Date() + (firer == .fireDue ? 0 : 0.2))),
          title: "title \(id)", body: "text \(id)", threadIdentifier: thread, createdAt: Date()),
        zones: testZones(f.utc))
    }
    // A resident firer shows a0 of thread alice first: the bubble it hears, still up. (A
    // fire-due run's bubble is most likely closed 10 s later, which a loaded machine may
    // reach: `ThreadClosedUnheardTests` has that case.)
    let resident0 = firer != .fireDue
    if resident0 {
      try schedule("a0", thread: "alice")
      #expect(waitUntil(timeout: 20) { f.ids(.delivered) == ["a0"] }, "\(resident?.stderr ?? "")")
    }
    // When quiet hours are on, and three of alice and four without a thread fall due
    let on = try notify(["quiet", "on"], db: f.path)
    #expect(on.status == 0, "\(on.stderr)")
    for index in 1...3 { try schedule("a\(index)", thread: "alice") }
    for index in 1...4 { try schedule("u\(index)", thread: nil) }
    try act()
    // Then all seven are held, nothing more shown
    #expect(
      waitUntil(timeout: 20) { f.ids(.held).count == 7 }, "\(f.ids(.held)) \(resident?.stderr ?? "")")
    let shownBefore = desktop.calls.filter { $0["call"] as? String == "Notify" }.count
    #expect(shownBefore == (resident0 ? 1 : 0))
    // When quiet hours end
    let off = try notify(["quiet", "off"], db: f.path)
    #expect(off.status == 0, "\(off.stderr)")
    try act()
    // Then alice's three went into alice's one bubble, in order, counting on
    #expect(
      waitUntil(timeout: 20) {
        QuietState.of(f)?.held == 0 && f.ids(.delivered).count == (resident0 ? 8 : 7)
      },
      "\(f.ids(.delivered)) \(resident?.stderr ?? "")")
    let alice = ThreadBubbleTests.calls(desktop, thread: "alice")
    let ids = (resident0 ? ["a0"] : []) + ["a1", "a2", "a3"]
    try #require(alice.count == ids.count, "\(desktop.calls)")
    let first = try #require(alice[0]["id"] as? Int)
    #expect(alice.map { $0["replaces_id"] as? Int } == [0] + Array(repeating: first, count: ids.count - 1))
    #expect(
      alice.map { $0["body"] as? String }
        == ids.enumerated().map { index, id in "text \(id)" + (index == 0 ? "" : "\n\(index + 1) new") },
      "\(alice)")
    // And the four without a thread came out as one summary of four, naming none of alice's
    let summaries = desktop.calls.filter {
      $0["call"] as? String == "Notify" && ($0["summary"] as? String)?.contains("during quiet hours") == true
    }
    #expect(summaries.map { $0["summary"] as? String } == ["4 notifications during quiet hours"])
    #expect(summaries.first.map { !"\($0["body"] ?? "")".contains("title a") } == true, "\(summaries)")
    // And history and the store agree: alice's latest shows her bubble, standing for all
    let summarized = try f.events(.delivered).filter { $0.reason == QuietRelease.summarizedReason }
    #expect(Set(summarized.map(\.notificationID)) == ["u1", "u2", "u3", "u4"])
    let bubble = try #require(try f.store.threadBubble(app: "test", thread: "alice", now: Date()))
    #expect(bubble.latestID == "a3" && bubble.count == ids.count, "\(bubble)")
    #expect(try f.store.onScreen(app: "test").map(\.notificationID).contains("a3"))
    #expect(try !f.store.onScreen(app: "test").map(\.notificationID).contains("a2"))
  }
}

/// A thread's bubble shown by a process that did not stay to hear its close (`fire-due`):
/// the next run within seconds counts on; once the bubble is most likely closed (the user
/// closed it, or it expired, 10 s and more ago) the next delivery still replaces its id but
/// counts from 1, not "6 new" for a thread the user closed at 5.
@Suite(
  .serialized,
  .enabled(if: ActivationTools.missing == nil, "needs dbus, gdbus and python3-gi"),
  .enabled(
    if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "needs sqlite3 to move time"),
  .ownThreads)
struct ThreadClosedUnheardTests {
  @Test("fire-due twice for one thread, the bubble closed in between with nobody listening")
  func closedBetweenRuns() throws {
    // Given the scripted server, and no daemon
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(in: f.folder, services: f.folder.file("none"))
    func fire(_ id: String) throws {
      try f.store.schedule(
        LocalNotification(
          id: id, app: "test", schedule: Schedule(fireDate: .instant(Date())), title: "title \(id)",
          body: "text \(id)", threadIdentifier: "alice", createdAt: Date()),
        zones: testZones(f.utc))
      let run = try notify(["fire-due", "--sink", "desktop"], db: f.path, environment: desktop.bus)
      #expect(run.status == 0, "\(run.stderr)")
    }
    /// Moves the bubble's "shown at" in the store file by `seconds` (now when nil).
    func shownAt(_ seconds: Int?) throws {
      let now = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
      let value = seconds.map { "shown_at - \($0 * 1000)" } ?? now
      let moved = try CommandRunner(executable: "/usr/bin/sqlite3").run([
        "-cmd", ".timeout 20000", f.path, "UPDATE thread_bubble SET shown_at = \(value);",
      ])
      #expect(moved.status == 0, "\(moved.stderr)")
    }
    // When two fire-due runs show a1 and a2 of thread alice within seconds
    try fire("a1")
    try shownAt(nil)
    try fire("a2")
    // Then the second replaced the first's bubble and counts 2
    var alice = ThreadBubbleTests.calls(desktop, thread: "alice")
    try #require(alice.count == 2, "\(desktop.calls)")
    let bubble = try #require(alice[0]["id"] as? Int)
    #expect(alice.map { $0["replaces_id"] as? Int } == [0, bubble])
    #expect(alice.map { $0["body"] as? String } == ["text a1", "text a2\n2 new"])
    // When the user closes the bubble (the server says so to nobody: no process listens),
    // and the next run comes after the take-over window
    try desktop.drive("Close", String(bubble), "2")
    #expect(
      waitUntil(timeout: 10) { desktop.calls.contains { $0["signal"] as? String == "NotificationClosed" } })
    try shownAt(11)
    try fire("a3")
    // Then a3 replaces the id (harmless where the bubble is gone) but counts from 1
    alice = ThreadBubbleTests.calls(desktop, thread: "alice")
    try #require(alice.count == 3, "\(desktop.calls)")
    #expect(alice[2]["replaces_id"] as? Int == bubble)
    #expect(alice[2]["body"] as? String == "text a3", "\(alice[2])")
    // And the run after it, within seconds, counts on from there
    try shownAt(nil)
    try fire("a4")
    alice = ThreadBubbleTests.calls(desktop, thread: "alice")
    try #require(alice.count == 4, "\(desktop.calls)")
    #expect(alice[3]["body"] as? String == "text a4\n2 new", "\(alice[3])")
    #expect(try f.store.threadBubble(app: "test", thread: "alice", now: Date())?.count == 2)
  }
}

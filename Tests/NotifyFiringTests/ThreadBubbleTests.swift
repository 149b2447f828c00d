import Foundation
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// A thread shows as one bubble, for every firer: each delivery of a thread
/// replaces the bubble its previous one got (`replaces_id`) while it is on screen, with a
/// count line in its body; another thread has its own bubble; once the bubble is clicked
/// (and so closed) the next delivery is a new bubble, and the click names the latest. On the
/// scripted server, which records every `Notify`.
@Suite(.serialized, .ownThreads)
struct ThreadBubbleTests {
  enum Driver: String, CaseIterable, CustomTestStringConvertible {
    case daemon = "notify daemon"
    case fireDue = "notify fire-due"
    case now = "notify now"
    var testDescription: String { rawValue }
  }

  @Test("a thread of five is one bubble replaced in place, counting", arguments: Driver.allCases)
  func oneBubblePerThread(driver: Driver) throws {
    // Given the scripted server, and the daemon when it is the firer
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(in: f.folder, services: f.folder.file("none"))
    var daemon: ChildProcess?
    if driver == .daemon {
      daemon = try ChildProcess.notify(
        ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d", environment: desktop.bus)
      #expect(daemon?.waitReady() == true, "\(daemon?.stderr ?? "")")
    }
    defer {
      daemon?.send(SIGTERM)
      _ = daemon?.waitExit()
    }
    // When five notifications of thread alice are shown one after another, then two of bob
    for index in 1...5 { try show("a\(index)", thread: "alice", by: driver, f: f, desktop: desktop) }
    for index in 1...2 {
      try show("b\(index)", thread: "bob", summary: "%u from bob", by: driver, f: f, desktop: desktop)
    }
    // Then alice's bubble was new once and then replaced four times, its body counting
    let alice = Self.calls(desktop, thread: "alice")
    try #require(alice.count == 5, "\(desktop.calls)")
    let first = try #require(alice[0]["id"] as? Int)
    #expect(alice.map { $0["replaces_id"] as? Int } == [0, first, first, first, first], "\(alice)")
    #expect(
      alice.map { $0["body"] as? String } == [
        "text a1", "text a2\n2 new", "text a3\n3 new", "text a4\n4 new", "text a5\n5 new",
      ])
    #expect(alice.allSatisfy { ($0["hints"] as? [String: Any])?["desktop-entry"] as? String == "test" })
    // And bob's thread has a bubble of its own, counting in the app's words
    let bob = Self.calls(desktop, thread: "bob")
    try #require(bob.count == 2, "\(desktop.calls)")
    let bobs = try #require(bob[0]["id"] as? Int)
    #expect(bobs != first)
    #expect(bob.map { $0["replaces_id"] as? Int } == [0, bobs])
    #expect(bob.map { $0["body"] as? String } == ["text b1", "text b2\n2 from bob"])
    // And the store keeps one bubble per thread: the latest's
    let onScreen = try f.store.onScreen(app: "test").map(\.notificationID)
    #expect(Set(onScreen) == ["a5", "b2"], "\(onScreen)")
    guard driver == .daemon else { return }
    // When the user clicks alice's bubble (the server closes it on click)
    try desktop.drive("Click", String(first), "default", "")
    // Then the click names the thread's latest notification, with its thread
    #expect(
      waitUntil(timeout: 10) { ((try? f.events(.activated)) ?? []).contains { $0.notificationID == "a5" } },
      "\(desktop.calls)")
    let history = try CommandRunner().run([
      "history", "--app", "test", "--thread", "alice", "--json", "--db", f.path,
    ])
    #expect(history.status == 0, "\(history.stderr)")
    let activated = history.stdout.split(separator: "\n").filter { $0.contains("\"event\":\"activated\"") }
    #expect(activated.count == 1, "\(history.stdout)")
    #expect(
      activated.allSatisfy { $0.contains("\"id\":\"a5\"") && $0.contains("\"threadIdentifier\":\"alice\"") },
      "\(activated)")
    #expect(!history.stdout.contains("\"b1\""), "\(history.stdout)")
    // And once the store forgot the closed bubble, the next delivery of alice is a new one
    #expect(
      waitUntil(timeout: 10) { (try? f.store.threadBubble(app: "test", thread: "alice", now: Date())) == nil }
    )
    try show("a6", thread: "alice", by: driver, f: f, desktop: desktop)
    let sixth = try #require(Self.calls(desktop, thread: "alice").last)
    #expect(sixth["replaces_id"] as? Int == 0, "\(sixth)")
    #expect(sixth["body"] as? String == "text a6")
  }

  @Test("list, history and dismiss by thread")
  func byThread() throws {
    // Given a bubble of thread alice on screen, one of bob, and a pending one of alice
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(in: f.folder, services: f.folder.file("none"))
    try show("a1", thread: "alice", by: .now, f: f, desktop: desktop)
    try show("b1", thread: "bob", by: .now, f: f, desktop: desktop)
    try f.store.schedule(
      LocalNotification(
        id: "later", app: "test", schedule: Schedule(fireDate: .instant(Date() + 3600)), title: "later",
        threadIdentifier: "alice", createdAt: Date()),
      zones: testZones(f.utc))
    let run = CommandRunner(environment: desktop.bus)
    // When the app lists and dismisses by thread
    let listed = try run.run(["list", "--app", "test", "--thread", "alice", "--json", "--db", f.path])
    let none = try run.run(["list", "--app", "test", "--thread", "bob", "--json", "--db", f.path])
    let dismissed = try run.run(["dismiss", "--app", "test", "--thread", "alice", "--db", f.path])
    // Then the list has alice's pending one only, and alice's bubble is closed, bob's not
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(listed.stdout.contains("\"later\"") && listed.stdout.contains("\"threadIdentifier\":\"alice\""))
    #expect(none.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(none.stdout)")
    #expect(dismissed.status == 0, "\(dismissed.stderr)")
    #expect(dismissed.stderr.contains("dismissed 1 notification of thread 'alice'"), "\(dismissed.stderr)")
    let aliceID = try #require(Self.calls(desktop, thread: "alice").first?["id"] as? Int)
    #expect(
      desktop.calls.contains { $0["call"] as? String == "CloseNotification" && $0["id"] as? Int == aliceID })
    #expect(try f.store.onScreen(app: "test").map(\.notificationID) == ["b1"])
    // And a bad thread is refused with 65
    let bad = try run.run(["list", "--app", "test", "--thread", "a b", "--db", f.path])
    #expect(bad.status == 65, "\(bad.stderr)")
  }

  /// Shows notification `id` of app `test` in `thread` by `driver`, and waits for its
  /// `Notify` call and (fire-due, now) its record.
  func show(
    _ id: String, thread: String, summary: String? = nil, by driver: Driver, f: FiringFixture,
    desktop: ScriptedDesktop
  ) throws {
    let before = desktop.calls.count
    switch driver {
    case .daemon, .fireDue:
      try f.store.schedule(
        LocalNotification(
          id: id, app: "test", schedule: Schedule(fireDate: .instant(Date() + (driver == .daemon ? 0.2 : 0))),
          title: "title \(id)", body: "text \(id)", threadIdentifier: thread, threadSummary: summary,
          createdAt: Date()),
        zones: testZones(f.utc))
      if driver == .fireDue {
        let fired = try CommandRunner(environment: desktop.bus).run([
          "fire-due", "--sink", "desktop", "--db", f.path,
        ])
        #expect(fired.status == 0, "\(fired.stderr)")
      }
    case .now:
      let shown = try CommandRunner(environment: desktop.bus).run(
        [
          "now", "--app", "test", "--id", id, "--title", "title \(id)", "--thread", thread, "--sink",
          "desktop",
          "--db", f.path, "text \(id)",
        ] + (summary.map { ["--thread-summary", $0] } ?? []))
      #expect(shown.status == 0, "\(shown.stderr)")
    }
    try #require(
      waitUntil(timeout: 10) {
        desktop.calls.dropFirst(before).contains {
          $0["call"] as? String == "Notify" && $0["summary"] as? String == "title \(id)"
        }
          && ((try? f.store.onScreen(app: "test")) ?? []).contains { $0.notificationID == id }
      }, "\(desktop.calls)")
  }

  /// The `Notify` calls of `thread`, in order (its `x-kde-origin-name` hint names it).
  static func calls(_ desktop: ScriptedDesktop, thread: String) -> [[String: Any]] {
    desktop.calls.filter {
      $0["call"] as? String == "Notify"
        && ($0["hints"] as? [String: Any])?["x-kde-origin-name"] as? String == thread
    }
  }
}

import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// The notification server, second round: ids belong to the server instance
/// that gave them; a `Notify` that timed out is not sent again; a badge is published once.
@Suite(
  .serialized, .needsHeadlessDesktop, .ownThreads)
struct ServerInstanceTests {
  /// The summaries dunst shows now.
  func displayed(_ desktop: HeadlessDesktop) throws -> Int {
    Int(try desktop.dunstctl("count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
  }

  @Test("an id from a server that was restarted never replaces another program's bubble on the new one")
  func idsDoNotOutliveTheServer() throws {
    // Given notification A shown by `notify now` (dunst gives it id 1)
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let runner = CommandRunner(environment: desktop.environment)
    let first = try runner.run([
      "now", "--app", "a", "--id", "A", "--title", "first", "--sink", "desktop", "--db", f.path,
    ])
    #expect(first.status == 0, "\(first.stderr)")
    let before = try #require(try f.store.desktopServerID(app: "a", id: "A"))
    // When dunst is restarted (a new login, a crash) and another program's bubble gets the
    // id A had (the new server numbers from the start again)
    try desktop.restartDunst()
    var otherID = 0
    for n in 1...8 where otherID < Int(before.id) {
      let other = try CommandRunner(executable: "/usr/bin/notify-send", environment: desktop.environment).run(
        [
          "--print-id", "someone else \(n)", "not notify's",
        ])
      #expect(other.status == 0, "\(other.stderr)")
      otherID = Int(other.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
    #expect(otherID == Int(before.id))
    let others = try displayed(desktop)
    // And A is shown again
    let second = try runner.run([
      "now", "--app", "a", "--id", "A", "--title", "second", "--sink", "desktop", "--db", f.path,
    ])
    #expect(second.status == 0, "\(second.stderr)")
    // Then the other program's bubbles are all still there, beside a new one for A
    #expect(
      waitUntil(timeout: 10) { (try? displayed(desktop)) == others + 1 }, "\((try? displayed(desktop)) ?? -1)"
    )
    let history = try desktop.dunstctl("history")
    #expect(!history.contains("someone else"), "closed: \(history)")
    // And the store remembers A's id together with the server that gave it
    let stored = try #require(try f.store.desktopServerID(app: "a", id: "A"))
    #expect(stored.server?.contains("/:") == true, "\(stored)")
  }

  @Test("the daemon replaces a bubble another process showed for the same id")
  func daemonReplacesAnotherProcessesBubble() throws {
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d",
      environment: desktop.environment)
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    // Given the daemon running, and notification A shown by `notify now`
    let shown = try CommandRunner(environment: desktop.environment).run([
      "now", "--app", "test", "--id", "A", "--title", "from now", "--sink", "desktop", "--db", f.path,
    ])
    #expect(shown.status == 0, "\(shown.stderr)")
    #expect(waitUntil(timeout: 10) { (try? displayed(desktop)) == 1 })
    // When the daemon fires a notification with the same id
    try f.schedule("A", at: Date() + 0.3)
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 2 }, "\(daemon.stderr)")
    // Then it replaced the bubble: still one on screen, showing the daemon's
    #expect(try displayed(desktop) == 1)
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }

  @Test(
    "a server slower than the call timeout: the timed-out Notify is not sent again, and the record says so")
  func timedOutNotifyIsNotRepeated() throws {
    // Given a server that answers Notify after 6 s (the daemon waits 5 s)
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(in: f.folder, services: f.folder.file("none"), notifyDelay: 6)
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d", environment: desktop.bus)
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    // When a notification is due
    try f.schedule("slow", at: Date() + 0.3)
    // Then after the timeout it is recorded delivered, with a note, not failed
    #expect(waitUntil(timeout: 15) { (try? f.events(.delivered).count) == 1 }, "\(daemon.stderr)")
    let delivered = try #require(try f.events(.delivered).first)
    guard case .string(let note)? = delivered.detail["note"] else {
      Issue.record("no note: \(delivered.detail)")
      return
    }
    #expect(note.contains("did not answer Notify within") && note.contains("may still show it"), "\(note)")
    // And the server got exactly one Notify: no retry follows (counted once nothing is due
    // or claimed, the daemon has stopped, and the server has answered a call made after
    // that: it records each call as it arrives, in order)
    #expect(f.waitSettled(), "\(daemon.stderr)")
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() != nil)
    try desktop.drive("Shown")
    #expect(desktop.calls.filter { $0["call"] as? String == "Notify" }.count == 1, "\(desktop.calls)")
    #expect(try f.events(.failed).isEmpty)
  }

  @Test("a badge change is published once, not again by the daemon's badge sync")
  func badgePublishedOnce() throws {
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let monitor = try BusMonitor(environment: desktop.environment, folder: f.folder)
    func seen() -> String { monitor.seen }
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d",
      environment: desktop.environment)
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    // When the daemon delivers a notification with badge 7, then wakes again for another
    try f.schedule("b", at: Date() + 0.3, badge: 7)
    try f.schedule("c", at: Date() + 0.8)
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 2 }, "\(daemon.stderr)")
    #expect(waitUntil(timeout: 10) { seen().contains("int64 7") })
    // Then 7 was broadcast once (counted once nothing is due or claimed, the daemon has
    // stopped, and the monitor has printed a signal sent after that)
    #expect(f.waitSettled(), "\(daemon.stderr)")
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
    try monitor.catchUp(environment: desktop.environment)
    #expect(seen().components(separatedBy: "int64 7").count == 2, "\(seen())")
  }
}

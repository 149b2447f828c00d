import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// A snooze clicked on a bubble whose notification was replaced since is refused, and
/// history says so on the click, on the scripted notification server.
@Suite(.serialized, .ownThreads)
struct SnoozeRefusalDesktopTests {
  @Test(
    "the old bubble's snooze after a new schedule of its id is recorded as refused, and nothing is stored")
  func replacedBubbleSnooze() throws {
    // Given a daemon on a server with actions, and a one-shot with a snooze, shown
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(in: f.folder, services: f.folder.file("none"))
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d", environment: desktop.bus)
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    let first = Date()
    try f.schedule("n", at: first + 0.3, app: "a", actions: [.snooze(seconds: 60)], createdAt: first)
    try #require(
      waitUntil(timeout: 10) { desktop.calls.contains { $0["call"] as? String == "Notify" } },
      "\(desktop.calls)")
    let call = try #require(desktop.calls.first { $0["call"] as? String == "Notify" })
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 1 }, "\(daemon.stderr)")
    // And then the id scheduled anew for tomorrow
    try f.schedule("n", at: first + 86_400, app: "a", createdAt: first + 1)
    // When the old bubble's snooze is clicked
    try desktop.drive("Click", "\(try #require(call["id"] as? Int))", "notify.snooze.60", "")
    // Then history records the click with why it was not snoozed
    #expect(waitUntil(timeout: 10) { (try? f.events(.activated).count) == 1 }, "\(daemon.stderr)")
    let activated = try #require(try f.events(.activated).first)
    #expect(activated.reason == "notify.snooze.60")
    guard case .string(let why)? = activated.detail["notSnoozed"] else {
      Issue.record("no notSnoozed in \(activated.detail)")
      return
    }
    #expect(why.contains("replaced"), "\(why)")
    // And only the new schedule is pending; nothing was snoozed
    #expect(try f.events(.snoozed).isEmpty)
    let pending = try f.store.pending(app: "a")
    #expect(pending.count == 1 && (pending.first?.nextFireDate ?? first) > first + 3600, "\(pending)")
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }
}

import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// `notify daemon --sink desktop` against a real dunst under Xvfb on a private session bus
/// (`.ci/desktop-session.sh`): delivery to the server, and the server's closing reported
/// back into history while the daemon sleeps.
@Suite(
  .serialized, .needsHeadlessDesktop, .ownThreads)
struct DesktopDaemonTests {
  @Test(
    "a due notification shows in dunst; a click and a close are recorded the same way whoever fired it",
    arguments: FiringDriver.allCases)
  func deliversAndRecordsAnswers(driver: FiringDriver) throws {
    // Given a headless desktop and a firer delivering to it
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let firer = try ChildProcess.firer(
      driver, db: f.path, folder: f.folder, name: "d", sink: "desktop", environment: desktop.environment)
    #expect(firer.waitReady(), "\(firer.stderr)")
    // When a notification comes due (with an action text of its own: app "test" has no
    // desktop entry, so only a response to wait for makes its default action reach it
    // when the daemon shows it)
    try f.schedule("hello", at: Date() + 1, action: "Open")
    // Then dunst shows it and it is recorded delivered
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 1 }, "\(firer.stderr)")
    #expect(try desktop.dunstctl("count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    // When the user clicks it (its default action, as dunst's click does)
    try desktop.dunstctl("action", "0")
    // Then the sleeping firer records the activation, with the action key and userInfo
    #expect(waitUntil(timeout: 10) { (try? f.events(.activated).map(\.notificationID)) == ["hello"] })
    let activated = try #require(try f.events(.activated).first)
    #expect(activated.reason == "default")
    #expect(activated.detail["userInfo"] == .object(["k": .string("v")]))
    #expect(activated.occurrence == 1)
    // When the next one is closed by the user
    try f.schedule("bye", at: Date() + 0.5)
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 2 }, "\(firer.stderr)")
    try desktop.dunstctl("close-all")
    // Then the dismissal is recorded with the reason docs/command.md documents, whoever fired it
    #expect(
      waitUntil(timeout: 10) { (try? f.events(.dismissed).map(\.notificationID))?.contains("bye") == true })
    let dismissed = try #require(try f.events(.dismissed).first { $0.notificationID == "bye" })
    #expect(dismissed.reason == "dismissed-by-user")
    #expect(dismissed.detail["userInfo"] == .object(["k": .string("v")]))
    // And an app hears of its own answers on its event stream
    if driver == .app {
      #expect(waitUntil(timeout: 10) { firer.stderr.contains("event: activated hello default") })
      #expect(waitUntil(timeout: 10) { firer.stderr.contains("event: dismissed bye dismissed-by-user") })
    }
    firer.send(SIGTERM)
    #expect(firer.waitExit() == 0)
  }
}

extension DesktopDaemonTests {
  @Test("the daemon publishes badges at start and when `notify badge N` changes one")
  func publishesBadges() throws {
    // Given a store where app "chat" already has badge 2, and a bus monitor
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    try f.store.setBadge(app: "chat", count: 2, at: Date())
    let monitor = try BusMonitor(environment: desktop.environment, folder: f.folder)
    func seen() -> String { monitor.seen }
    // When the daemon starts on the bus
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d",
      environment: desktop.environment)
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    // Then it re-emits the stored badge
    #expect(
      waitUntil(timeout: 10) { seen().contains("application://chat.desktop") && seen().contains("int64 2") })
    // When another process sets the badge
    let set = try CommandRunner(environment: ["NOTIFY_APP": "chat"]).run(["badge", "5", "--db", f.path])
    #expect(set.status == 0)
    // Then the daemon publishes the new count
    #expect(waitUntil(timeout: 10) { seen().contains("int64 5") }, "\(seen())")
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }
}

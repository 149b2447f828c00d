import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// `notify status` as a user runs it when a notification did not appear.
@Suite(
  .serialized, .enabled(if: HeadlessDesktop.toolsMissing == nil, "needs Xvfb, dbus and dunst"), .ownThreads)
struct StatusCommandTests {
  @Test(
    "status says whether a daemon runs, who the notification server is, the app's settings and what is next")
  func saysWhatIsGoingOn() throws {
    // Given a desktop with dunst, a store with one pending notification and sounds off for "test"
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    try f.schedule("later", at: Date() + 3600)
    try f.store.change(SettingsChange(sounds: false), app: "test")
    let runner = CommandRunner(environment: desktop.environment.merging(["NOTIFY_APP": "test"]) { $1 })
    // When no daemon runs
    let alone = try runner.run(["status", "--db", f.path])
    // Then status says so, names dunst and its capabilities, the settings and the next one
    #expect(alone.status == 0, "\(alone.stderr)")
    #expect(alone.stdout.contains("daemon: not running"), "\(alone.stdout)")
    #expect(alone.stdout.contains("notification server: dunst") && alone.stdout.contains("actions"))
    #expect(alone.stdout.contains("app test: alerts on, sounds off (set), badges on"))
    #expect(alone.stdout.contains("pending: 1; next: later at "))
    // When a daemon runs
    let daemon = try NotifyProcess(
      ["daemon", "--sink", "stdout"], db: f.path, folder: f.folder, name: "d",
      environment: desktop.environment)
    #expect(daemon.waitReady(), "\(daemon.errorText)")
    let running = try runner.run(["status", "--db", f.path, "--json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(running.stdout.utf8)) as? [String: Any])
    let seen = try #require(object["daemon"] as? [String: Any])
    #expect(seen["running"] as? Bool == true && seen["pid"] as? Int == Int(daemon.pid), "\(running.stdout)")
    #expect((object["server"] as? [String: Any])?["name"] as? String == "dunst")
    #expect((object["next"] as? [String: Any])?["id"] as? String == "later")
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
    // And with no notification server on the bus, status says that too
    let noServer = try CommandRunner(environment: [
      "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(f.folder.file("none"))"
    ])
    .run(["status", "--db", f.path])
    #expect(noServer.stdout.contains("notification server: none answers"), "\(noServer.stdout)")
    #expect(noServer.stdout.contains("daemon: not running"))
  }
}

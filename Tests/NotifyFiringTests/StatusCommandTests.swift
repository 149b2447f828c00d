import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// `notify status` as a user runs it when a notification did not appear: on a healthy
/// setup it says so (exit 0), and each broken part it claims to detect is reported with
/// its fix (exit 1).
@Suite(
  .serialized, .needsHeadlessDesktop, .ownThreads)
struct StatusCommandTests {
  /// A store made by notify itself (a 0700 folder, a 0600 file) with one pending notification.
  func store(_ folder: TemporaryFolder, environment: [String: String]) throws -> String {
    let path = folder.file("state/notify.db")
    let scheduled = try CommandRunner(environment: environment).run(
      ["schedule", "--in", "1h", "--id", "later", "--app", "test", "Later", "--db", path])
    try #require(scheduled.status == 0, "\(scheduled.stderr)")
    return path
  }

  @Test("a healthy setup (dunst, a daemon): everything listed, all is well, exit 0; the JSON says the same")
  func healthy() throws {
    // Given a desktop with dunst, a store with one pending notification, sounds off for "test"
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let runner = CommandRunner(environment: desktop.environment.merging(["NOTIFY_APP": "test"]) { $1 })
    let path = try store(f.folder, environment: desktop.environment)
    #expect(try runner.run(["settings", "--sounds", "off", "--db", path]).status == 0)
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: path, folder: f.folder, name: "d", environment: desktop.environment
    )
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    // When status runs
    let status = try runner.run(["status", "--db", path])
    // Then it lists the store, the daemon, dunst and its capabilities, the settings and what
    // is next, and finds nothing wrong
    #expect(status.status == 0, "\(status.stdout)\(status.stderr)")
    let text = status.stdout
    #expect(text.contains("store: \(path) (0600, ") && text.contains("integrity ok"), "\(text)")
    #expect(text.contains("daemon: running (pid \(daemon.pid))"))
    #expect(text.contains("notification server: dunst") && text.contains("actions"))
    #expect(text.contains("server features: clicks open apps: yes; sounds: played by notify"))
    #expect(text.contains("zone: "))
    #expect(text.contains("app test: alerts on, sounds off (set), badges on"))
    #expect(text.contains("pending: 1; next: later at "))
    #expect(text.hasSuffix("all is well\n"))
    let json = try runner.run(["status", "--db", path, "--json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["ok"] as? Bool == true && (object["problems"] as? [Any])?.isEmpty == true)
    #expect((object["daemon"] as? [String: Any])?["pid"] as? Int == Int(daemon.pid))
    #expect((object["server"] as? [String: Any])?["name"] as? String == "dunst")
    #expect((object["store"] as? [String: Any])?["mode"] as? String == "0600")
    #expect((object["next"] as? [String: Any])?["id"] as? String == "later")
    #expect(object["claims"] as? [String: Int] == ["alive": 0, "dead": 0])
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }

  /// Runs status in `environment` on `path`; returns stdout after checking exit 1.
  func problems(_ path: String, _ environment: [String: String]) throws -> String {
    let status = try CommandRunner(environment: environment).run(["status", "--db", path])
    #expect(status.status == 1, "\(status.stdout)\(status.stderr)")
    return status.stdout
  }

  @Test("no firer, a 0644 store, a damaged store, no bus: each reported with its fix, exit 1")
  func brokenHere() throws {
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let path = try store(f.folder, environment: desktop.environment)
    // No daemon runs and no timer is enabled for the pending notification
    let noFirer = try problems(path, desktop.environment)
    #expect(
      noFirer.contains("problem (firer): no notify daemon runs")
        && noFirer.contains("systemctl --user enable --now notify.service"))
    // A store others can read: opening it holds it to 0600, and status says so
    chmod(path, 0o644)
    #expect(
      try problems(path, desktop.environment).contains("store: \(path) (0600 (was 0644, set by notify), "))
    #expect(fileMode(path) == 0o600)
    // A file that is not a store
    let damaged = f.folder.file("state/damaged.db")
    try Data("not a database at all, just text that is long enough".utf8).write(
      to: URL(fileURLWithPath: damaged))
    chmod(damaged, 0o600)
    let before = fileBytes(damaged)
    #expect(
      try problems(damaged, desktop.environment).contains("problem (store): the store cannot be opened"))
    #expect(fileBytes(damaged) == before)
    // No session bus at all
    let noBus = try problems(path, ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(f.folder.file("no-bus"))"])
    #expect(noBus.contains("problem (bus): no session bus"), "\(noBus)")
  }

  @Test("a bus with no notification server, and a server without actions: each reported, exit 1")
  func brokenServers() throws {
    let f = try FiringFixture()
    // A private bus with nobody owning org.freedesktop.Notifications
    do {
      let bus = try ScriptedDesktop(in: f.folder, services: f.folder.file("services"), withServer: false)
      let path = try store(f.folder, environment: bus.bus)
      let text = try problems(path, bus.bus)
      #expect(text.contains("problem (server): no notification server answers"), "\(text)")
    }
    // A server that offers no actions
    let other = TemporaryFolder()
    let bus = try ScriptedDesktop(in: other, services: other.file("services"), capabilities: "body")
    let path = try store(other, environment: bus.bus)
    let text = try problems(path, bus.bus)
    #expect(text.contains("problem (server): the notification server does not offer actions"), "\(text)")
  }
}

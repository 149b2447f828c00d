import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

let secondServerProgram = "/usr/lib/notification-daemon/notification-daemon"
let secondServerMissing: String? = {
  guard FileManager.default.isExecutableFile(atPath: secondServerProgram) else {
    print(
      "SecondServerTests: skipping: \(secondServerProgram) is missing (apt-get install notification-daemon)")
    return "notification-daemon is not installed"
  }
  return nil
}()

/// notify against a second real notification server, GNOME's notification-daemon (Debian
/// `notification-daemon`), on a private session bus under Xvfb: it is found and
/// described, bubbles are shown, replaced in place and withdrawn, and its capabilities
/// (it plays sounds itself) are used.
@Suite(
  .serialized, .needsHeadlessDesktop,
  .enabled(if: secondServerMissing == nil, "needs notification-daemon"), .ownThreads)
struct SecondServerTests {
  static let program = secondServerProgram

  /// A private bus with notification-daemon on it, drawing on `display`.
  final class Server {
    private let privateBus: PrivateBus
    let bus: [String: String]
    private let server: ChildProcess
    private let monitor: ChildProcess

    init(folder: TemporaryFolder, display: String) throws {
      privateBus = try PrivateBus(in: folder, name: "bus", services: folder.file("services"))
      bus = privateBus.environment
      monitor = try ChildProcess(
        "dbus-monitor",
        ["type='signal',interface='org.freedesktop.Notifications'", "type='method_call',member='Notify'"],
        environment: bus, stdout: .file(folder.file("monitor.out")), stderr: .file("/dev/null"))
      server = try ChildProcess(
        SecondServerTests.program, environment: bus.merging(["DISPLAY": display]) { $1 },
        stdout: .file("/dev/null"), stderr: .file(folder.file("server.log")))
      let owned = waitUntil(timeout: 15) {
        let call = try? CommandRunner(executable: "/usr/bin/gdbus", environment: self.bus).run([
          "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
          "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.Notifications",
        ])
        return call?.stdout.contains("true") == true
      }
      try #require(owned, "notification-daemon did not take its name")
    }

    // The server and the monitor stop before the bus (a stored property, released after this).
    deinit {
      server.terminate(timeout: 60)
      monitor.stop()
    }

    var seen: String { monitor.stdout }
  }

  @Test("notify status names it; notify now shows, replaces in place and withdraws on it")
  func showReplaceWithdraw() throws {
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let server = try Server(folder: f.folder, display: try #require(desktop.environment["DISPLAY"]))
    let notify = CommandRunner(
      environment: server.bus.merging(["NOTIFY_APP": "second", "NOTIFY_DB": f.path]) { $1 })
    // notify status describes the server and what it can do (asked until it answers: the
    // server owns its name a moment before it answers calls, longer on a loaded machine)
    var status = try notify.run(["status", "--json"])
    _ = waitUntil(timeout: 30, interval: 0.5) {
      status = (try? notify.run(["status", "--json"])) ?? status
      return status.stdout.contains("Notification Daemon")
    }
    #expect(status.stdout.contains("Notification Daemon"), "\(status.stdout)")
    // When a notification with a sound and a button is shown
    let first = try notify.run([
      "now", "--id", "A", "--title", "first", "--sound", "default", "--button", "ok:OK", "--sink", "desktop",
    ])
    #expect(first.status == 0, "\(first.stderr)")
    let shown = try #require(try f.store.desktopServerID(app: "second", id: "A"))
    // Then the server got the sound as a hint (it plays sounds itself) and the button
    #expect(waitUntil(timeout: 10) { server.seen.contains("message-new-instant") }, "\(server.seen)")
    #expect(server.seen.contains("string \"ok\""), "\(server.seen)")
    // When it is shown again with the same id, it replaces the bubble: the same server id
    let second = try notify.run(["now", "--id", "A", "--title", "second", "--sink", "desktop"])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(try f.store.desktopServerID(app: "second", id: "A")?.id == shown.id)
    #expect(server.seen.contains("uint32 \(shown.id)"), "replaces_id was not sent: \(server.seen)")
    // When it is withdrawn, the server closes it (NotificationClosed, reason 3) and history says so
    let dismissed = try notify.run(["dismiss", "A"])
    #expect(dismissed.status == 0, "\(dismissed.stderr)")
    #expect(
      waitUntil(timeout: 10) { server.seen.contains("member=NotificationClosed") }, "\(server.seen)")
    #expect(try f.store.desktopServerID(app: "second", id: "A") == nil)
    #expect(try f.events(.dismissed).first?.reason == "dismissed-by-app")
  }

  @Test("the daemon delivers scheduled notifications to it, with actions, and records them")
  func daemonDelivers() throws {
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let server = try Server(folder: f.folder, display: try #require(desktop.environment["DISPLAY"]))
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d", environment: server.bus)
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    try f.schedule(
      "one", at: Date() + 0.3, actions: [.button(key: "read", title: "Mark read"), .snooze(seconds: 60)])
    try f.schedule("two", at: Date() + 0.6)
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 2 }, "\(daemon.stderr)")
    #expect(server.seen.contains("string \"notify.snooze.60\""), "\(server.seen)")
    // Nothing was dropped: the server has actions
    #expect(try f.events(.delivered).allSatisfy { $0.detail["note"] == nil })
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }
}

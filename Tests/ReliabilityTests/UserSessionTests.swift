import Foundation
import Glibc
import NotifyTestSupport
import Testing

/// What a user meets in a real login session, under a real `systemd --user`
/// (`UserManager`): an app opened by a click runs as the user's apps run, not inside
/// `notify.service`; a notification server that starts after the daemon is used, and
/// status tells where deliveries go.
@Suite("A real session: clicked apps and the server that comes later", .needsUserManager, .ownThreads)
struct UserSessionTests {
  /// Writes `text` into the user's home at `path` (relative to HOME), owned by the user.
  static func write(_ text: String, to path: String, in manager: UserManager, folder: TemporaryFolder) throws
  {
    let source = folder.file("staged-" + (path as NSString).lastPathComponent)
    try text.write(toFile: source, atomically: true, encoding: .utf8)
    chmod(source, 0o755)
    try manager.copyIntoHome(source, to: path)
  }

  /// The text of `path` in the user's home (nil while it is not there).
  static func read(_ path: String, in manager: UserManager) -> String? {
    try? String(contentsOfFile: manager.hostPath(manager.home + "/" + path), encoding: .utf8)
  }

  @Test(
    "a click opens the app as a unit of its own: the session's DISPLAY, no sandbox, TCP works, it survives notify's restart"
  )
  func clickedAppRunsAsTheUsersApp() throws {
    // Given the session's DISPLAY in the manager (as a desktop imports it), the scripted
    // notification server as a user service, and an app "probe" whose desktop entry runs a
    // program that reports what it runs with
    let (manager, folder) = try UserManagerTests.installed()
    #expect(try manager.systemctl("set-environment", "DISPLAY=:77").status == 0)
    let server = try manager.copyIntoHome(
      ScriptedDesktop.fixtures + "/notification-server.py", to: "server.py")
    try manager.startTransientService(
      "scripted-server", command: ["/usr/bin/python3", server, "--record", manager.home + "/server.record"],
      type: "dbus", busName: "org.freedesktop.Notifications")
    let listener = try LoopbackListener()
    try Self.write(
      """
      #!/bin/sh
      out="$HOME/probe.out"
      {
        grep -E '^(NoNewPrivs|Seccomp):' /proc/self/status
        echo "cgroup $(tail -n 1 /proc/self/cgroup)"
        echo "DISPLAY=$DISPLAY"
        echo "umask $(umask)"
        python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 5); print("tcp connected")' \(listener.port) 2>&1 | tail -n 1
        echo "NOTIFY_APP=$NOTIFY_APP"
        echo "pid $$"
      } >"$out.part"
      mv "$out.part" "$out"
      exec sleep 600
      """, to: ".local/bin/probe", in: manager, folder: folder)
    try Self.write(
      "[Desktop Entry]\nType=Application\nName=Probe\nExec=\(manager.home)/.local/bin/probe\n",
      to: ".local/share/applications/probe.desktop", in: manager, folder: folder)
    let started = try manager.systemctl("start", "notify.service")
    try #require(started.status == 0, "\(started.stderr)")
    // When a notification of "probe" is shown and the user clicks it
    let scheduled = try manager.notify(
      "schedule", "--in", "1s", "--id", "hi", "--app", "probe", "--title", "Hi")
    try #require(scheduled.status == 0, "\(scheduled.stderr)")
    try #require(
      waitUntil(timeout: 30, interval: 0.1) {
        Self.read("server.record", in: manager)?.contains("\"summary\": \"Hi\"") == true
      }, "\(Self.read("server.record", in: manager) ?? "no record")")
    let click = try manager.run([
      "gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
      "/org/freedesktop/Notifications", "--method", "org.notify.Test.Click", "1", "default", "token-1",
    ])
    try #require(click.status == 0, "\(click.stderr)")
    // Then the app ran in a unit of its own in app.slice, with none of notify's sandbox,
    // the session's DISPLAY and the manager's umask, and could reach a TCP server
    try #require(waitUntil(timeout: 30, interval: 0.1) { Self.read("probe.out", in: manager) != nil })
    let report = Self.read("probe.out", in: manager) ?? ""
    print("user session: the clicked app reported:\n\(report)")
    let lines = Set(report.split(separator: "\n").map { $0.replacingOccurrences(of: "\t", with: " ") })
    #expect(lines.contains("NoNewPrivs: 0"), "\(report)")
    #expect(lines.contains("Seccomp: 0"), "\(report)")
    #expect(lines.contains("DISPLAY=:77"), "\(report)")
    #expect(lines.contains("umask 0022"), "\(report)")
    #expect(lines.contains("tcp connected"), "\(report)")
    #expect(lines.contains("NOTIFY_APP=probe"), "\(report)")
    let pidLine = try #require(lines.first { $0.hasPrefix("pid ") })
    let pid = try #require(pid_t(pidLine.dropFirst(4)))
    let unit = try #require(manager.unit(ofProcess: pid), "\(manager.cgroup(ofProcess: pid) ?? "gone")")
    #expect(unit.hasPrefix("app-notify-probe-") && unit.hasSuffix(".service"), "\(unit)")
    #expect(manager.cgroup(ofProcess: pid)?.contains("/app.slice/app-notify-probe-") == true)
    let history = try manager.notify("history", "--json", "--app", "probe")
    #expect(history.stdout.contains("\"opened\":\"systemd\""), "\(history.stdout)")
    // When notify is restarted, then stopped
    #expect(try manager.systemctl("restart", "notify.service").status == 0)
    #expect(try manager.systemctl("stop", "notify.service").status == 0)
    // Then the app still runs, in its unit
    #expect(kill(pid, 0) == 0 && manager.unit(ofProcess: pid) == unit)
  }

  @Test("login order: daemon first, activation failing, dunst later: the next notification is on dunst")
  func serverThatComesLater() throws {
    // Given the daemon started at login before any notification server (the activatable one
    // fails at once, as a server without a display does)
    let (manager, folder) = try UserManagerTests.installed()
    _ = folder
    let display = ":\(Int.random(in: 300...899))"
    #expect(try manager.systemctl("set-environment", "DISPLAY=\(display)").status == 0)
    let started = try manager.systemctl("start", "notify.service")
    try #require(started.status == 0, "\(started.stderr)")
    // When a notification comes due: it goes to stdout (the journal, content kept out), and
    // the status line and notify status say so
    try Self.deliver("before", manager)
    let statusBefore = try manager.waitFor("StatusText", of: "notify.service") {
      $0.hasSuffix("delivering to stdout")
    }
    print("user session: before the server, StatusText=\(statusBefore)")
    // (status run from the session's terminal, which has the display)
    let status = [manager.home + "/.local/bin/notify", "status"]
    let before = try manager.run(status, environment: ["DISPLAY": display])
    print("user session: notify status before the server:\n\(before.stdout)")
    #expect(before.status == 1, "\(before.stdout)")
    #expect(before.stdout.contains(", delivering to stdout"), "\(before.stdout)")
    #expect(before.stdout.contains("problem (firer): the daemon (pid"), "\(before.stdout)")
    // When the display and dunst start after the daemon (as the desktop does)
    try manager.startTransientService("xvfb", command: ["Xvfb", display, "-nolisten", "tcp"])
    let x = waitUntil(timeout: 20, interval: 0.1) {
      FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(display.dropFirst())")
    }
    try #require(x, "Xvfb did not start on \(display)")
    try manager.startTransientService(
      "session-dunst", command: ["dunst"], environment: ["DISPLAY": display], type: "dbus",
      busName: "org.freedesktop.Notifications")
    // Then the daemon moves to it: the status line says desktop, the next one is on dunst
    let statusAfter = try manager.waitFor("StatusText", of: "notify.service") {
      $0.hasSuffix("delivering to desktop")
    }
    print("user session: after dunst started, StatusText=\(statusAfter)")
    try Self.deliver("after", manager)
    #expect(
      waitUntil(timeout: 10, interval: 0.1) {
        (try? manager.run(["dunstctl", "count", "displayed"]).stdout.trimmingCharacters(
          in: .whitespacesAndNewlines))
          == "1"
      })
    let after = try manager.run(status, environment: ["DISPLAY": display])
    print("user session: notify status after dunst started:\n\(after.stdout)")
    #expect(after.stdout.contains(", delivering to desktop"), "\(after.stdout)")
    #expect(!after.stdout.contains("problem (firer)"), "\(after.stdout)")
    // And the journal has the log lines, never the content
    let messages = try manager.journalMessages(unit: "notify.service")
    #expect(!messages.contains { $0.contains("private body") }, "\(messages)")
  }

  /// Schedules `id` of app "us" a second ahead and waits until history says delivered.
  static func deliver(_ id: String, _ manager: UserManager) throws {
    let scheduled = try manager.notify(
      "schedule", "--in", "1s", "--id", id, "--app", "us", "--title", "title \(id)", "--body", "private body")
    try #require(scheduled.status == 0, "\(scheduled.stderr)")
    let delivered = waitUntil(timeout: 30, interval: 0.1) {
      (try? manager.notify("history", "--json", "--app", "us"))?.stdout.contains("\"id\":\"\(id)\"") == true
    }
    try #require(delivered, "\(id) was not delivered")
  }
}

/// A TCP listener on 127.0.0.1 that accepts by its backlog: a connect succeeds while it lives.
final class LoopbackListener {
  let fd: Int32
  let port: UInt16

  init() throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(fd >= 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(fd, pointer, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, pointer, &length) == 0
      }
    }
    if !bound { close(fd) }
    try #require(bound, "\(String(cString: strerror(errno)))")
    self.fd = fd
    port = UInt16(bigEndian: address.sin_port)
  }

  deinit { close(fd) }
}

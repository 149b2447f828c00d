import Foundation
import NotifyTestSupport
import Testing

/// A connection's identity belongs to the process that made it, not to whatever holds its
/// pid later: a Flatpak app's process connects, hands the connection to a child and exits,
/// and an unsandboxed process is made to take its pid (`/proc/sys/kernel/ns_last_pid`). The
/// child's calls must not be taken as unsandboxed. A real bus, `notify daemon`, `bwrap`.
@Suite(
  .ownThreads,
  .needsSchedulerBus,
  .enabled(
    if: FlatpakSandbox.usable,
    "needs bwrap (bubblewrap) able to create mount namespaces on this machine"),
  .enabled(
    if: NextPID.canChoose,
    "needs root to choose the next pid (/proc/sys/kernel/ns_last_pid is written to reuse one)")
)
struct PidReuseTests {
  /// Nanoseconds of CLOCK_BOOTTIME (the clock of a process's start time).
  static func bootTime() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_BOOTTIME, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  /// Starts `sleep` until one gets `pid` (the next pid chosen before each try); its
  /// process, or nil when none got it before the deadline.
  static func takePID(_ pid: pid_t) -> pid_t? {
    let deadline = Date() + 60
    while Date() < deadline {
      try? String(pid - 1).write(toFile: NextPID.path, atomically: false, encoding: .utf8)
      guard let started = try? CommandRunner.spawn(["/usr/bin/sleep", "300"], environment: [:]) else {
        return nil
      }
      if started == pid { return started }
      kill(started, SIGKILL)
      CommandRunner.wait(started)
    }
    return nil
  }

  @Test func aReusedPidIsNoIdentity() throws {
    // Given the daemon, and a history, a badge and signals of org.example.B
    let bus = try SchedulerBus()
    try bus.startDaemon()
    #expect(try bus.gdbus("Present", "org.example.B", "{'id': <'b1'>, 'title': <'For B'>}").status == 0)
    // And a process in a Flatpak sandbox of org.example.A (its /.flatpak-info) on the bus,
    // in the host's pid namespace, that connects, hands the connection to a child and exits
    let folder = bus.folder.file("handoff")
    let out = folder + "/out"
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let info = folder + "/flatpak-info"
    try "[Application]\nname=org.example.A\n".write(toFile: info, atomically: true, encoding: .utf8)
    let socket = String(
      try #require(bus.environment["DBUS_SESSION_BUS_ADDRESS"]).dropFirst("unix:path=".count))
    let sandbox =
      FlatpakSandbox.base.filter { $0 != "--unshare-pid" && $0 != "--die-with-parent" } + [
        "--ro-bind", info, "/.flatpak-info", "--ro-bind", SchedulerBus.client, "/app/scheduler-client.py",
        "--bind", out, "/run/out", "--bind", socket, "/run/bus", "--setenv", "DBUS_SESSION_BUS_ADDRESS",
        "unix:path=/run/bus", "--", "/usr/bin/python3", "/app/scheduler-client.py", "handoff",
        "org.example.B",
        "/run/out",
      ]
    let started = try CommandRunner(executable: "/usr/bin/bwrap").run(sandbox, timeout: 60)
    let said = try JSONSerialization.jsonObject(with: Data(started.stdout.utf8)) as? [String: Any]
    let saidPID: Int? = said?["pid"] as? Int
    let pid = pid_t(try #require(saidPID, "\(started.stdout) \(started.stderr)"))
    #expect(waitUntil(timeout: 30) { kill(pid, 0) != 0 }, "the process that connected did not exit")
    // (the daemon has seen the connection appear once it answers a later one; the pid's
    // new process starts past the next tick of the process clock, 10 ms)
    #expect(bus.answers())
    let seen = Self.bootTime()
    _ = waitUntil(timeout: 5, interval: 0.005) { Self.bootTime() > seen + 25_000_000 }
    // When an unsandboxed process takes its pid
    let impostor = try #require(Self.takePID(pid), "no process could be given pid \(pid) within a minute")
    defer {
      kill(impostor, SIGKILL)
      CommandRunner.wait(impostor)
    }
    // And the child calls for org.example.B on the connection
    FileManager.default.createFile(atPath: out + "/go", contents: Data())
    let answersFile = out + "/answers.json"
    let child = (said?["child"] as? Int).map { pid_t($0) } ?? 0
    defer { kill(child, SIGKILL) }
    let answered = waitUntil(timeout: 60) { FileManager.default.fileExists(atPath: answersFile) }
    try #require(
      answered,
      "the child (pid \(child)) did not answer: \(kill(child, 0) == 0 ? "alive, in \(text("/proc/\(child)/wchan")) \(text("/proc/\(child)/stack"))" : "gone"); daemon: \(text(bus.folder.file("daemon.err")))"
    )
    let answers = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: answersFile)))
        as? [String: Any])
    // Then every call is refused, saying why, and B's badge is untouched
    for member in ["ListHistory", "SetBadge", "Subscribe"] {
      let answer = answers[member] as? [String: Any] ?? [:]
      #expect(
        answer["error"] as? String == "io.github.notify.Scheduler1.Error.NotAllowed", "\(member): \(answer)")
      #expect(
        (answer["message"] as? String ?? "").contains("started after the connection was made"), "\(answer)")
    }
    #expect(try bus.notify("badge", "--app", "org.example.B").stdout.contains("42") == false)
  }
}

/// The kernel's last pid of this pid namespace, which root may set: the next process gets
/// the one after it, when it is free.
enum NextPID {
  static let path = "/proc/sys/kernel/ns_last_pid"
  static let canChoose = getuid() == 0 && access(path, W_OK) == 0
}

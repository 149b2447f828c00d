import Foundation
import NotifyTestSupport
import Testing

/// A sandbox as Flatpak makes one, with `bwrap`, beside a `SchedulerBus`: the app's
/// `/.flatpak-info` bound in, and `xdg-dbus-proxy --filter --talk=io.github.notify.Scheduler1`
/// in a sandbox of its own holding the same file (flatpak runs its proxy so: the pid the bus
/// reports for the app's calls is the proxy's, and its `/proc/PID/root` is a sandbox's root
/// with the app's `/.flatpak-info`). The proxy's socket is the app's only way to the bus. The
/// Python client (`scheduler-client.py`) runs inside. Everything it started stops with it.
final class FlatpakSandbox {
  static let tools = ["/usr/bin/bwrap", "/usr/bin/xdg-dbus-proxy"]
  /// True when bwrap and xdg-dbus-proxy are installed and bwrap can make a sandbox here
  /// (mount and pid namespaces; a container may forbid them).
  static let usable: Bool =
    tools.allSatisfy { CommandRunner.isRegularExecutable($0) }
    && (try? CommandRunner(executable: "/usr/bin/bwrap").run(
      base + ["--", "/usr/bin/true"], timeout: 30
    ).status) == 0

  /// What every sandbox here has: the system's /usr and /etc read-only, its own /proc, /dev,
  /// /tmp and pid namespace; it ends with the process that started it.
  static let base = [
    "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
    "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin", "--ro-bind", "/etc", "/etc",
    "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--unshare-pid", "--die-with-parent",
  ]

  let bus: SchedulerBus
  /// The host folder bound at `/run/out` in the app's sandbox (its records).
  let out: String
  /// The app's sandbox, up to the command.
  private let app: [String]
  private var children: [ChildProcess] = []

  /// A Flatpak sandbox of `appID` on `bus`, its proxy running; or, with `appID` nil, a
  /// sandbox of no kind notify knows (no `/.flatpak-info`) that reaches the bus directly.
  init(bus: SchedulerBus, appID: String?) throws {
    self.bus = bus
    let folder = bus.folder.file(appID.map { "sandbox-\($0)" } ?? "sandbox")
    out = folder + "/out"
    let proxy = folder + "/proxy"
    for path in [out, proxy] {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    let address = try #require(bus.environment["DBUS_SESSION_BUS_ADDRESS"])
    let socket = String(address.dropFirst("unix:path=".count))
    let client = ["--ro-bind", SchedulerBus.client, "/app/scheduler-client.py", "--bind", out, "/run/out"]
    guard let appID else {
      app =
        Self.base + client + [
          "--bind", socket, "/run/bus", "--setenv", "DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/bus",
        ]
      return
    }
    let info = folder + "/flatpak-info"
    try "[Application]\nname=\(appID)\n\n[Instance]\ninstance-id=1\n".write(
      toFile: info, atomically: true, encoding: .utf8)
    let flatpakInfo = ["--ro-bind", info, "/.flatpak-info"]
    // The proxy: the real bus in, the filtered socket out.
    let dbusProxy = try ChildProcess(
      "/usr/bin/bwrap",
      Self.base + flatpakInfo + [
        "--bind", socket, "/run/host-bus", "--bind", proxy, "/run/proxy", "--",
        "/usr/bin/xdg-dbus-proxy", "unix:path=/run/host-bus", "/run/proxy/bus", "--filter",
        "--talk=io.github.notify.Scheduler1",
      ], stdout: .file(folder + "/proxy.out"), stderr: .file(folder + "/proxy.err"))
    children.append(dbusProxy)
    let listening = waitUntil(timeout: 30) {
      !dbusProxy.isRunning || FileManager.default.fileExists(atPath: proxy + "/bus")
    }
    try #require(
      listening && FileManager.default.fileExists(atPath: proxy + "/bus"),
      "xdg-dbus-proxy did not start: \(text(folder + "/proxy.err"))")
    app =
      Self.base + flatpakInfo + client + [
        "--ro-bind", proxy, "/run/proxy", "--setenv", "DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/proxy/bus",
      ]
  }

  deinit {
    for child in children.reversed() { child.terminate(timeout: 60) }
  }

  /// Runs the Python client in the app's sandbox with `arguments`; its one JSON answer.
  func python(_ arguments: String...) throws -> [String: Any] {
    let result = try CommandRunner(executable: "/usr/bin/bwrap").run(
      app + ["--", "/usr/bin/python3", "/app/scheduler-client.py"] + arguments, timeout: 120)
    let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    return try #require(object, "the sandboxed client said: \(result.stdout) \(result.stderr)")
  }

  /// Starts the client in the sandbox subscribing to `appID` (its signals appended to the
  /// host file returned); returns once it is subscribed.
  func listen(appID: String) throws -> String {
    let record = out + "/record"
    let log = out + "/listen.out"
    let listener = try ChildProcess(
      "/usr/bin/bwrap",
      app + ["--", "/usr/bin/python3", "/app/scheduler-client.py", "listen", appID, "/run/out/record"],
      stdout: .file(log), stderr: .file(log))
    children.append(listener)
    _ = waitUntil(timeout: 60) { !listener.isRunning || text(log).contains("ready") }
    try #require(text(log).contains("\"ready\""), "the sandboxed listener did not subscribe: \(text(log))")
    return record
  }
}

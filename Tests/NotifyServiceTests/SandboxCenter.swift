import Foundation
import NotifyTestSupport
import Testing

/// The library inside a sandbox as Flatpak makes one (`bwrap`, a `/.flatpak-info` naming
/// `appID`), running `sandbox-center-fixture`: with the bus socket bound in directly
/// (Flatpak's `--socket=session-bus`), or through `xdg-dbus-proxy --filter
/// --talk=io.github.notify.Scheduler1` (its `--talk-name`).
final class SandboxCenter {
  let bus: SchedulerBus
  let folder: String
  private let sandbox: [String]
  private var children: [ChildProcess] = []

  init(bus: SchedulerBus, appID: String, throughProxy: Bool = false) throws {
    self.bus = bus
    folder = bus.folder.file("center-\(appID)\(throughProxy ? "-proxy" : "")")
    let proxy = folder + "/proxy"
    try FileManager.default.createDirectory(atPath: proxy, withIntermediateDirectories: true)
    let info = folder + "/flatpak-info"
    try "[Application]\nname=\(appID)\n\n[Instance]\ninstance-id=1\n".write(
      toFile: info, atomically: true, encoding: .utf8)
    let flatpakInfo = ["--ro-bind", info, "/.flatpak-info"]
    let address = try #require(bus.environment["DBUS_SESSION_BUS_ADDRESS"])
    let socket = String(address.dropFirst("unix:path=".count))
    let products = URL(fileURLWithPath: CommandRunner.product("notify")).deletingLastPathComponent()
      .resolvingSymlinksInPath().path
    var busSocket = socket
    if throughProxy {
      let dbusProxy = try ChildProcess(
        "/usr/bin/bwrap",
        FlatpakSandbox.base + flatpakInfo + [
          "--bind", socket, "/run/host-bus", "--bind", proxy, "/run/proxy", "--",
          "/usr/bin/xdg-dbus-proxy", "unix:path=/run/host-bus", "/run/proxy/bus", "--filter",
          "--talk=io.github.notify.Scheduler1",
        ], stdout: .file(folder + "/proxy.out"), stderr: .file(folder + "/proxy.err"))
      children.append(dbusProxy)
      let listening = waitUntil(timeout: 30) {
        !dbusProxy.isRunning || FileManager.default.fileExists(atPath: proxy + "/bus")
      }
      try #require(listening && dbusProxy.isRunning, "xdg-dbus-proxy did not start")
      busSocket = proxy + "/bus"
    }
    sandbox =
      ["/usr/bin/bwrap"] + FlatpakSandbox.base + flatpakInfo + [
        "--bind", busSocket, "/run/bus", "--setenv", "DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/bus",
        "--ro-bind", "/opt", "/opt", "--ro-bind", products, products, "--",
        products + "/sandbox-center-fixture",
      ]
  }

  deinit {
    for child in children.reversed() { child.terminate(timeout: 60) }
  }

  /// Runs the fixture with `arguments` in the sandbox; its output lines and status.
  func run(_ arguments: String...) throws -> CommandRunner.Result {
    try CommandRunner(executable: sandbox[0]).run(Array(sandbox.dropFirst()) + arguments, timeout: 120)
  }

  /// Starts `listen` in the sandbox; returns the file its lines go to once it printed `ready`.
  func listen() throws -> String {
    let out = folder + "/listen.out"
    let listener = try ChildProcess(
      sandbox[0], Array(sandbox.dropFirst()) + ["listen"], stdout: .file(out),
      stderr: .file(folder + "/listen.err"))
    children.append(listener)
    _ = waitUntil(timeout: 60) { !listener.isRunning || text(out).contains("ready") }
    try #require(
      text(out).contains("ready"), "the listener did not start: \(text(out)) \(text(folder + "/listen.err"))")
    return out
  }
}

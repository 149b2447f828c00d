import Foundation
import NotifyDesktop
import NotifyTestSupport
import Testing

@testable import NotifyService

/// A private session bus with `notify daemon` on it serving the scheduler, and the ways
/// the tests call it: `gdbus`, the Python client (`Tests/Fixtures/scheduler-client.py`)
/// and the `notify` command on the same store. Everything it started stops with it.
final class SchedulerBus {
  static let tools = ["dbus-daemon", "gdbus"]
  /// True when the bus, gdbus and Python with python3-gi are all there.
  static let usable =
    TestEnvironment.missing(tools) == nil
    && (try? CommandRunner(executable: "/usr/bin/python3").run(["-c", "import gi"]).status) == 0
  static let client = ScriptedDesktop.fixtures + "/scheduler-client.py"

  let folder = TemporaryFolder(prefix: "notify-bus")
  let desktop: ScriptedDesktop
  let services: String
  /// The environment of every process on this bus: the bus address and the store.
  let environment: [String: String]
  /// Everything started on the bus, stopped in reverse order with it.
  private var children: [ChildProcess] = []
  /// The daemons `stopDaemon` has not stopped, in the order they started.
  private var daemons: [ChildProcess] = []
  /// The daemon started last, while it runs.
  var daemonPID: pid_t? { daemons.last?.pid }

  /// A bus, with the scripted notification server on it when `withServer`.
  init(withServer: Bool = false) throws {
    services = folder.file("services")
    try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
    desktop = try ScriptedDesktop(in: folder, services: services, withServer: withServer)
    environment = desktop.bus.merging([
      "NOTIFY_DB": folder.file("notify.db"), "NOTIFY_APP": "notify", "NOTIFY_SCHEDULER": "on",
      // (the apps' sound folders and desktop entries of this bus's daemon: never the user's)
      "XDG_DATA_HOME": folder.file("data"),
    ]) { $1 }
  }

  deinit {
    for child in children.reversed() { child.terminate(timeout: 60) }
  }

  /// Starts `notify daemon --sink SINK` and returns once the scheduler answers.
  func startDaemon(sink: String = "stdout") throws {
    let daemon = try ChildProcess(
      CommandRunner.product("notify"), ["daemon", "--sink", sink], environment: environment,
      stdout: .file(folder.file("daemon.out")), stderr: .file(folder.file("daemon.err")))
    children.append(daemon)
    daemons.append(daemon)
    let up = waitUntil(timeout: 60, interval: 0.05) { daemon.isRunning && answers() }
    try #require(up, "the scheduler did not come up: \(text(folder.file("daemon.err")))")
  }

  /// Stops the daemon `startDaemon` started last (SIGTERM) and waits until it exited and
  /// the scheduler's name has no owner.
  func stopDaemon() throws {
    let daemon = try #require(daemons.last, "no daemon was started")
    daemons.removeLast()
    daemon.terminate(timeout: 60)
    children.removeAll { $0 === daemon }
    let gone = waitUntil(timeout: 30) {
      let asked = try? CommandRunner(executable: "/usr/bin/gdbus", environment: environment).run([
        "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
        "--method", "org.freedesktop.DBus.NameHasOwner", "io.github.notify.Scheduler1",
      ])
      return asked?.stdout.contains("false") ?? false
    }
    try #require(gone, "the scheduler's name kept its owner after the daemon exited")
  }

  /// True when the scheduler answers `Properties.Get(Version)` with its version.
  func answers() -> Bool {
    (try? gdbus("org.freedesktop.DBus.Properties.Get", "io.github.notify.Scheduler1", "Version"))?.stdout
      .contains("<uint32 \(SchedulerInterface.version)>") == true
  }

  /// `gdbus call` of a method (`Schedule`, or a full `org.freedesktop...Get`) with GVariant text arguments.
  func gdbus(_ method: String, _ arguments: String...) throws -> CommandRunner.Result {
    let member = method.contains(".") ? method : "io.github.notify.Scheduler1." + method
    return try CommandRunner(executable: "/usr/bin/gdbus", environment: environment).run(
      [
        "call", "--session", "--dest", "io.github.notify.Scheduler1", "--object-path",
        "/io/github/notify/Scheduler1", "--method", member,
      ] + arguments)
  }

  /// Runs the Python client with `arguments`; its one JSON answer.
  func python(_ arguments: String..., timeout: TimeInterval = 120) throws -> [String: Any] {
    try python(arguments, timeout: timeout)
  }

  /// `python(_:timeout:)` with the arguments as an array.
  func python(_ arguments: [String], timeout: TimeInterval = 120) throws -> [String: Any] {
    let result = try CommandRunner(executable: "/usr/bin/python3", environment: environment).run(
      [Self.client] + arguments, timeout: timeout)
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    return try #require(object, "the client said: \(result.stdout) \(result.stderr)")
  }

  /// Starts a Python client that subscribes to `app` and records its signals in `record`;
  /// returns its process once it is subscribed.
  @discardableResult
  func listen(app: String, record: String) throws -> pid_t {
    let out = record + ".out"
    let listener = try ChildProcess(
      "/usr/bin/python3", [Self.client, "listen", app, record], environment: environment, stdout: .file(out),
      stderr: .file(record + ".err"))
    children.append(listener)
    let ready = waitUntil(timeout: 60) { !listener.isRunning || text(out).contains("ready") }
    try #require(
      text(out).contains("ready"), "the listener did not subscribe: \(text(out)) \(text(record + ".err"))")
    return listener.pid
  }

  /// Waits until the scripted server shows a bubble titled `title`; its server id.
  func shown(title: String) throws -> Int {
    var shown: [String: Any]?
    _ = waitUntil(timeout: 30) {
      shown = desktop.calls.last { $0["call"] as? String == "Notify" && $0["summary"] as? String == title }
      return shown != nil
    }
    return try #require(shown?["id"] as? Int, "\(title) was not shown: \(text(folder.file("daemon.err")))")
  }

  /// `notify ARGUMENTS` on the same store.
  func notify(_ arguments: String...) throws -> CommandRunner.Result {
    try NotifyTestSupport.notify(arguments, environment: environment)
  }

  /// The ids `notify list --json` shows for `app`.
  func pendingIDs(app: String) throws -> [String] {
    let result = try notify("list", "--json", "--app", app)
    let list = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
    return list.compactMap { $0["id"] as? String }
  }
}

/// A file's text, empty when it cannot be read.
func text(_ path: String) -> String {
  fileBytes(path).map { String(decoding: $0, as: UTF8.self) } ?? ""
}

extension Trait where Self == ConditionTrait {
  /// Runs the test only where a private bus with notify's service can be driven (`usable`);
  /// skips it saying what is missing.
  static var needsSchedulerBus: Self {
    .enabled(
      if: SchedulerBus.usable,
      "needs dbus-daemon, gdbus (libglib2.0-bin) and /usr/bin/python3 with python3-gi")
  }
}

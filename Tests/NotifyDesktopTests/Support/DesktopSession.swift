import Foundation
import NotifyCore
import NotifyTestSupport

@testable import NotifyDesktop

/// A private headless desktop for one test: its own Xvfb, session bus and dunst, started by
/// `.ci/desktop-session.sh` in a fresh directory and stopped when the object goes away.
final class DesktopSession {
  /// The tools the session needs; tests are disabled (with a printed reason) without them.
  static let requiredTools = [
    "Xvfb", "dbus-daemon", "dbus-send", "dbus-monitor", "dunst", "dunstctl", "busctl",
  ]

  /// Nil when every tool is installed, else the first missing one (printed once).
  static let missingTool: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for tool in requiredTools {
      let found = path.split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
      }
      if !found {
        print(
          "NotifyDesktopTests: skipping desktop tests: \(tool) is not installed (apt-get install xvfb dbus dunst)"
        )
        return tool
      }
    }
    return nil
  }()

  /// True when the desktop tests can run.
  static var available: Bool { missingTool == nil }

  static let script = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(".ci/desktop-session.sh").path

  let directory: String
  private(set) var busAddress = ""
  private(set) var display = ""

  /// Starts a session; throws when it cannot (a failure, not a skip: the tools are there).
  init() throws {
    var template = Array("/tmp/ndt-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
    directory = String(cString: made)
    try start()
  }

  deinit {
    _ = try? Self.run(["/bin/bash", Self.script, "stop", directory])
  }

  /// Starts whatever is not running (all of it at first; dunst or the bus after a kill).
  /// `dunstConfig` replaces the script's test configuration of dunst.
  func start(dunstConfig: String? = nil) throws {
    var environment = ["NOTIFY_SESSION_DISPLAY": "auto"]
    environment["NOTIFY_DUNSTRC"] = dunstConfig
    let result = try Self.run(["/bin/bash", Self.script, "start", directory], environment: environment)
    guard result.status == 0 else {
      throw TestFailure("desktop-session.sh start failed: \(result.stdout) \(result.stderr)")
    }
    // export DBUS_SESSION_BUS_ADDRESS='…'; export DISPLAY='…'
    let parts = result.stdout.split(separator: "'")
    guard parts.count >= 4 else { throw TestFailure("unexpected session output: \(result.stdout)") }
    busAddress = String(parts[1])
    display = String(parts[3])
  }

  /// The environment of a client of this session.
  var environment: [String: String] {
    var env = ProcessInfo.processInfo.environment
    env["DBUS_SESSION_BUS_ADDRESS"] = busAddress
    env["DISPLAY"] = display
    return env
  }

  /// The process id of dunst.
  var dunstPID: pid_t { pid_t(readTrimmed("dunst.pid")) ?? 0 }
  /// The process id of the bus daemon.
  var busPID: pid_t { pid_t(readTrimmed("bus.pid")) ?? 0 }

  private func readTrimmed(_ name: String) -> String {
    ((try? String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8)) ?? "")
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Sends `signal` to `pid` and waits until it is gone (or a zombie nobody reaps).
  func kill(_ pid: pid_t, signal: Int32 = SIGTERM) throws {
    Glibc.kill(pid, signal)
    let gone = waitUntil(.seconds(10)) { !Self.isRunning(pid) }
    guard gone else { throw TestFailure("process \(pid) did not exit") }
  }

  static func isRunning(_ pid: pid_t) -> Bool {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
      return false
    }
    let state = status.split(separator: "\n").first { $0.hasPrefix("State:") } ?? ""
    return !(state.contains("Z (") || state.contains("X ("))
  }

  /// Runs `dunstctl` against this session's dunst and returns its output.
  @discardableResult
  func dunstctl(_ arguments: String...) throws -> String {
    let result = try Self.run(["dunstctl"] + arguments, environment: environment)
    guard result.status == 0 else { throw TestFailure("dunstctl \(arguments) failed: \(result.stderr)") }
    return result.stdout
  }

  /// dunst's history (closed notifications), newest first, as plain string fields.
  func history() throws -> [[String: String]] {
    let json = try dunstctl("history")
    guard
      let root = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
      let data = root["data"] as? [[[String: Any]]], let entries = data.first
    else { throw TestFailure("unexpected dunstctl history output: \(json)") }
    return entries.map { entry in
      entry.compactMapValues { field in
        guard let value = (field as? [String: Any])?["data"] else { return nil }
        return "\(value)"
      }
    }
  }

  /// Closes everything dunst shows and waits until the history holds `count` entries.
  func closeAllAndReadHistory(expecting count: Int) throws -> [[String: String]] {
    try dunstctl("close-all")
    var entries: [[String: String]] = []
    _ = try waitUntil(.seconds(5)) {
      entries = try history()
      return entries.count >= count
    }
    return entries
  }

  /// Starts `dbus-monitor` on this bus with `rules`, ready once it returns.
  func monitor(_ rules: String...) throws -> BusMonitor {
    try BusMonitor(address: busAddress, rules: rules, directory: directory)
  }

  // MARK: Processes

  /// Runs a command to completion, with `environment` added to this process's.
  static func run(_ command: [String], environment: [String: String] = [:]) throws -> CommandRunner.Result {
    try CommandRunner(executable: command[0], environment: environment).run(Array(command.dropFirst()))
  }
}

/// A `dbus-monitor` writing to a file, stopped when the object goes away.
final class BusMonitor {
  let child: pid_t
  let logPath: String

  init(address: String, rules: [String], directory: String) throws {
    logPath = "\(directory)/monitor-\(UUID().uuidString).log"
    child = try CommandRunner.spawn(
      ["dbus-monitor", "--address", address] + rules, environment: ProcessInfo.processInfo.environment,
      stdout: logPath, stderr: logPath)
    // It reports NameLost for its own name once it became a monitor: from then on it sees all.
    guard waitUntil(.seconds(5), { self.text.contains("NameLost") }) else {
      throw TestFailure("dbus-monitor did not start: \(text)")
    }
  }

  deinit {
    kill(child, SIGTERM)
    CommandRunner.wait(child)
  }

  /// Everything seen so far.
  var text: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  /// Waits until the output satisfies `condition`.
  func waitFor(_ timeout: Duration = .seconds(5), _ condition: (String) -> Bool) -> Bool {
    waitUntil(timeout) { condition(self.text) }
  }
}

/// A failure in the test harness itself.
struct TestFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Polls `condition` every 20 ms until it holds or `timeout` passes; true when it held.
func waitUntil(_ timeout: Duration, _ condition: () throws -> Bool) rethrows -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now + timeout
  while true {
    if try condition() { return true }
    if clock.now >= deadline { return false }
    Thread.sleep(forTimeInterval: 0.02)
  }
}

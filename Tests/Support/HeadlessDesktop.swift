import Foundation
import Testing

/// A private headless desktop for one test: its own Xvfb, session bus and dunst, started by
/// `.ci/desktop-session.sh` in a fresh folder and stopped when the object goes away. Suites
/// that make one carry `.needsHeadlessDesktop`: where the tools are installed, a desktop
/// that does not start is a failure, not a skip.
///
/// `@unchecked Sendable`: the bus address and display change only in `start`, which the
/// test owning the desktop calls between its own steps, never beside a task reading them.
public final class HeadlessDesktop: @unchecked Sendable {
  /// The session script, three folders above this file (Tests/Support/HeadlessDesktop.swift).
  public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".ci/desktop-session.sh")
    .path

  private let folder = TemporaryFolder(prefix: "notify-desktop")
  /// The session's folder: its pid files, logs and the scripted dmenu's files.
  public let directory: String
  /// `DBUS_SESSION_BUS_ADDRESS` of the session's bus.
  public private(set) var busAddress = ""
  /// `DISPLAY` of the session's Xvfb.
  public private(set) var display = ""

  /// Starts a desktop; `dunstConfig` replaces the script's test configuration of dunst.
  public init(dunstConfig: String? = nil) throws {
    directory = folder.file("session")
    try start(dunstConfig: dunstConfig)
  }

  deinit { stop() }

  /// Stops the session's processes (again when it goes away: stopping twice is harmless).
  public func stop() {
    // A test may leave dunst stopped (SIGSTOP) to play a hung server: the script's stop
    // would wait on it.
    if Self.isRunning(dunstPID) { Glibc.kill(dunstPID, SIGCONT) }
    _ = try? Self.run(["/bin/bash", Self.script, "stop", directory])
  }

  /// Starts whatever is not running: all of it at first, dunst or the bus again after a
  /// kill. `dunstConfig` replaces the script's test configuration of dunst.
  public func start(dunstConfig: String? = nil) throws {
    var environment = ["NOTIFY_SESSION_DISPLAY": "auto"]
    environment["NOTIFY_DUNSTRC"] = dunstConfig
    let result = try Self.run(["/bin/bash", Self.script, "start", directory], environment: environment)
    // export DBUS_SESSION_BUS_ADDRESS='…'; export DISPLAY='…'
    let parts = result.stdout.split(separator: "'")
    guard result.status == 0, parts.count >= 4 else {
      throw TestFailure("desktop-session.sh start failed: \(result.stdout) \(result.stderr)")
    }
    busAddress = String(parts[1])
    display = String(parts[3])
  }

  /// The environment of a client of this desktop (added to the test's own by whoever
  /// starts the client).
  public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": busAddress, "DISPLAY": display] }

  /// The process id of dunst.
  public var dunstPID: pid_t { pid_t(readTrimmed("dunst.pid")) ?? 0 }
  /// The process id of the bus daemon.
  public var busPID: pid_t { pid_t(readTrimmed("bus.pid")) ?? 0 }

  private func readTrimmed(_ name: String) -> String {
    (fileBytes("\(directory)/\(name)").map { String(decoding: $0, as: UTF8.self) } ?? "")
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  // MARK: dunst

  /// Ends dunst and waits until it is gone: nobody owns the notification name any more.
  public func stopDunst() -> Bool {
    let pid = dunstPID
    guard pid > 0 else { return false }
    Glibc.kill(pid, SIGTERM)
    return waitUntil(timeout: 30) { !Self.isRunning(pid) }
  }

  /// Stops dunst and starts a new one on the same bus: another server instance, whose ids
  /// start again at 1.
  public func restartDunst() throws {
    try #require(stopDunst(), "dunst did not exit")
    try start()
  }

  /// Sends `signal` to `pid` (one of the session's: `dunstPID`, `busPID`) and waits until
  /// it is gone.
  public func kill(_ pid: pid_t, signal: Int32 = SIGTERM) throws {
    Glibc.kill(pid, signal)
    guard waitUntil(timeout: 10, { !Self.isRunning(pid) }) else {
      throw TestFailure("process \(pid) did not exit")
    }
  }

  /// Runs `dunstctl` against this desktop's dunst and returns its output.
  @discardableResult
  public func dunstctl(_ arguments: String...) throws -> String {
    let result = try Self.run(["dunstctl"] + arguments, environment: environment)
    guard result.status == 0 else { throw TestFailure("dunstctl \(arguments) failed: \(result.stderr)") }
    return result.stdout
  }

  /// How many notifications dunst holds: displayed, waiting and in history.
  public func count() -> Int {
    ["displayed", "waiting", "history"].reduce(0) { total, kind in
      total
        + (Int((try? dunstctl("count", kind))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0)
    }
  }

  /// dunst's history (closed notifications), newest first, as plain string fields.
  public func history() throws -> [[String: String]] {
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
  public func closeAllAndReadHistory(expecting count: Int) throws -> [[String: String]] {
    try dunstctl("close-all")
    var entries: [[String: String]] = []
    _ = try waitUntil(timeout: 5) {
      entries = try history()
      return entries.count >= count
    }
    return entries
  }

  /// Every notification dunst got, oldest first, as (summary, body): closes what it shows,
  /// then reads its history.
  public func notifications() throws -> [(summary: String, body: String)] {
    let closed = waitUntil(timeout: 10) {
      _ = try? dunstctl("close-all")
      return ["displayed", "waiting"].allSatisfy {
        (try? dunstctl("count", $0))?.trimmingCharacters(in: .whitespacesAndNewlines) == "0"
      }
    }
    guard closed else { throw TestFailure("dunst kept notifications on screen") }
    return try history()
      .sorted { Int($0["id"] ?? "") ?? 0 < Int($1["id"] ?? "") ?? 0 }
      .map { ($0["summary"] ?? "", $0["body"] ?? "") }
  }

  /// Picks an action through dunst's context menu, as a click on its button does: the
  /// session's scripted dmenu chooses the first offered line containing `text` (dunst
  /// offers `#LABEL (SUMMARY) [SERVER_ID,KEY]`). Returns what the menu offered.
  @discardableResult
  public func pick(_ text: String) throws -> String {
    try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/dmenu-pick"))
    try? FileManager.default.removeItem(atPath: directory + "/dmenu-offered")
    try dunstctl("context")
    // dunst runs the menu after answering: wait for what it offered (the file exists a
    // moment before the script has written to it).
    _ = waitUntil(timeout: 10) { fileBytes(directory + "/dmenu-offered")?.isEmpty == false }
    return fileBytes(directory + "/dmenu-offered").map { String(decoding: $0, as: UTF8.self) } ?? ""
  }

  /// Starts `dbus-monitor` on this bus with `rules`, ready once it returns.
  public func monitor(_ rules: String...) throws -> BusMonitor {
    try BusMonitor(rules, environment: environment, folder: folder)
  }

  // MARK: Processes

  /// True while `pid` runs (a zombie nobody reaps counts as gone: the session script's
  /// children are orphans).
  public static func isRunning(_ pid: pid_t) -> Bool {
    guard pid > 0, let status = fileBytes("/proc/\(pid)/status").map({ String(decoding: $0, as: UTF8.self) })
    else { return false }
    let state = status.split(separator: "\n").first { $0.hasPrefix("State:") } ?? ""
    return !(state.contains("Z (") || state.contains("X ("))
  }

  /// Runs a command to completion, with `environment` added to this process's. It waits
  /// for the command itself, not for the daemons the session script leaves behind holding
  /// its output files.
  public static func run(_ command: [String], environment: [String: String] = [:]) throws
    -> CommandRunner.Result
  {
    try CommandRunner(executable: command[0], environment: environment).run(Array(command.dropFirst()))
  }
}

/// A failure of the test harness itself (a component that did not start or answer).
public struct TestFailure: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

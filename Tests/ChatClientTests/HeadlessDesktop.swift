import Foundation
import NotifyTestSupport
import Testing

/// A private Xvfb + session bus + dunst for one test, through `.ci/desktop-session.sh`,
/// stopped when the value goes away.
final class HeadlessDesktop {
  let directory: String
  private(set) var busAddress = ""
  private(set) var display = ""

  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(".ci/desktop-session.sh").path

  /// Starts one in `directory`. Tests that make one are enabled only where the tools are
  /// installed (`.needsHeadlessDesktop`): a desktop that does not start then is a failure.
  init(in directory: String) throws {
    self.directory = directory
    try start()
  }

  deinit {
    if Self.isRunning(dunstPID) { kill(dunstPID, SIGCONT) }
    _ = try? Self.shell(#"exec /bin/bash "$0" stop "$1" >/dev/null 2>&1"#, Self.script, directory)
  }

  /// Starts what is not running: all of it at first, dunst again after it was stopped.
  func start() throws {
    // The script leaves daemons running: its output goes to files, so nothing waits on
    // pipes they inherit.
    let status = try Self.shell(
      #"NOTIFY_SESSION_DISPLAY=auto exec /bin/bash "$0" start "$1" >"$1.out" 2>"$1.err""#, Self.script,
      directory)
    let output = (try? String(contentsOfFile: directory + ".out", encoding: .utf8)) ?? ""
    // export DBUS_SESSION_BUS_ADDRESS='…'; export DISPLAY='…'
    let parts = output.split(separator: "'")
    guard status == 0, parts.count >= 4 else {
      let errors = (try? String(contentsOfFile: directory + ".err", encoding: .utf8)) ?? ""
      throw IRCServerError(reason: "desktop-session.sh start failed: \(errors)")
    }
    busAddress = String(parts[1])
    display = String(parts[3])
  }

  /// The environment of a client of this desktop.
  var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": busAddress, "DISPLAY": display] }

  /// The process id of dunst.
  var dunstPID: pid_t {
    pid_t(
      ((try? String(contentsOfFile: directory + "/dunst.pid", encoding: .utf8)) ?? "")
        .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
  }

  /// Ends dunst and waits until it is gone: nobody owns the notification name any more.
  func stopDunst() -> Bool {
    let pid = dunstPID
    kill(pid, SIGTERM)
    return waitUntil(timeout: 30) { !Self.isRunning(pid) }
  }

  /// How many notifications dunst holds: displayed, waiting and in history.
  func count() -> Int {
    ["displayed", "waiting", "history"].reduce(0) { total, kind in
      total
        + (Int((try? dunstctl("count", kind))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0)
    }
  }

  /// Every notification dunst got, oldest first, as (summary, body): closes what it
  /// shows, then reads its history.
  func notifications() throws -> [(summary: String, body: String)] {
    let closed = waitUntil(timeout: 10) {
      _ = try? dunstctl("close-all")
      return ["displayed", "waiting"].allSatisfy {
        (try? dunstctl("count", $0))?.trimmingCharacters(in: .whitespacesAndNewlines) == "0"
      }
    }
    guard closed else { throw IRCServerError(reason: "dunst kept notifications on screen") }
    let json = try dunstctl("history")
    guard
      let root = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
      let data = root["data"] as? [[[String: Any]]], let entries = data.first
    else { throw IRCServerError(reason: "unexpected dunstctl history output: \(json)") }
    func field(_ entry: [String: Any], _ name: String) -> Any? { (entry[name] as? [String: Any])?["data"] }
    return
      entries
      .sorted { (field($0, "id") as? Int ?? 0) < (field($1, "id") as? Int ?? 0) }
      .map { (field($0, "summary") as? String ?? "", field($0, "body") as? String ?? "") }
  }

  /// Runs `dunstctl` against this desktop's dunst.
  @discardableResult
  func dunstctl(_ arguments: String...) throws -> String {
    let output = directory + ".dunstctl"
    let status = try Self.shell(
      #"DBUS_SESSION_BUS_ADDRESS="$0" DISPLAY="$1" dunstctl "${@:3}" >"$2" 2>&1"#,
      [busAddress, display, output] + arguments)
    let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    guard status == 0 else { throw IRCServerError(reason: "dunstctl \(arguments): \(text)") }
    return text
  }

  static func isRunning(_ pid: pid_t) -> Bool {
    guard pid > 0, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
      return false
    }
    let state = status.split(separator: "\n").first { $0.hasPrefix("State:") } ?? ""
    return !(state.contains("Z (") || state.contains("X ("))
  }

  /// Runs `bash -c command arguments...` to completion and returns its exit status.
  static func shell(_ command: String, _ arguments: String...) throws -> Int32 {
    try shell(command, arguments)
  }

  static func shell(_ command: String, _ arguments: [String]) throws -> Int32 {
    try CommandRunner(executable: "/bin/bash").run(["-c", command] + arguments, timeout: 60).status
  }
}

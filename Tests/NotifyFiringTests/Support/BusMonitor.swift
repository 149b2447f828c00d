import Foundation
import NotifyTestSupport
import Testing

/// `dbus-monitor` on a test's bus with one match rule (by default the launcher badges'
/// `Update` signals), its output in a file; stopped when it goes away.
final class BusMonitor {
  static let badgeRule = "type='signal',interface='com.canonical.Unity.LauncherEntry',member='Update'"

  private let output: String
  private let pid: pid_t

  /// Starts it and waits until it sees the bus (dbus-monitor announces `NameLost` once it
  /// has become a monitor: from then on it sees everything).
  init(_ rules: [String] = [badgeRule], environment: [String: String], folder: TemporaryFolder) throws {
    output = folder.file("monitor-\(UUID().uuidString.prefix(8)).out")
    pid = try CommandRunner.spawn(
      ["dbus-monitor"] + rules, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
      stdout: output)
    try #require(
      waitUntil(timeout: 10) { self.seen.contains("member=NameLost") }, "dbus-monitor did not start")
  }

  deinit {
    kill(pid, SIGKILL)
    waitpid(pid, nil, 0)
  }

  /// Everything it printed so far.
  var seen: String { fileBytes(output).map { String(decoding: $0, as: UTF8.self) } ?? "" }

  /// Sends a marker signal its default rule matches and waits until it has printed it: the
  /// bus passes messages on in order, so whatever it had from others before (a daemon that
  /// has exited since, say) is in `seen` by then.
  func catchUp(environment: [String: String]) throws {
    let marker = "monitor-marker-\(UUID().uuidString.prefix(8))"
    let sent = try CommandRunner(executable: "dbus-send", environment: environment).run([
      "--session", "--type=signal", "/notify/test/marker", "com.canonical.Unity.LauncherEntry.Update",
      "string:\(marker)",
    ])
    try #require(sent.status == 0, "dbus-send: \(sent.stderr)")
    try #require(
      waitUntil(timeout: 10) { self.seen.contains(marker) }, "dbus-monitor did not print the marker")
  }
}

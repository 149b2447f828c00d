import Foundation
import Testing

/// `dbus-monitor` on a test's bus with match rules (by default the launcher badges'
/// `Update` signals), its output in a file; killed when it goes away.
public final class BusMonitor {
  /// Unity's LauncherEntry `Update` signals, which carry badges.
  public static let badgeRule = "type='signal',interface='com.canonical.Unity.LauncherEntry',member='Update'"

  private let process: ChildProcess

  /// Starts it on the bus of `environment` (added to the test's own) and waits until it
  /// sees the bus: dbus-monitor announces `NameLost` once it has become a monitor, and from
  /// then on it sees everything.
  public init(_ rules: [String] = [badgeRule], environment: [String: String], folder: TemporaryFolder) throws
  {
    process = try ChildProcess(
      "dbus-monitor", rules, environment: environment,
      stdout: .file(folder.file("monitor-\(UUID().uuidString.prefix(8)).out")), stderr: .file("/dev/null"))
    try #require(
      waitUntil(timeout: 10) { self.seen.contains("member=NameLost") }, "dbus-monitor did not start: \(seen)")
  }

  /// Everything it printed so far.
  public var seen: String { process.stdout }

  /// Waits until what it printed satisfies `condition`.
  public func waitFor(timeout: TimeInterval = 5, _ condition: (String) -> Bool) -> Bool {
    waitUntil(timeout: timeout) { condition(seen) }
  }

  /// Sends a marker signal its default rule matches and waits until it has printed it: the
  /// bus passes messages on in order, so whatever it had from others before (a daemon that
  /// has exited since, say) is in `seen` by then.
  public func catchUp(environment: [String: String]) throws {
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

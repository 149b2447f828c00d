import Foundation
import Testing

/// What this machine offers the tests that need more than Swift: each check runs once,
/// lazily, when a suite's `.enabled(if:)` trait first asks. A test whose tools are missing
/// is reported skipped with the trait's reason, never passed; once its tools are there,
/// a component that does not start is a failure.
public enum TestEnvironment {
  /// The first of `tools` found nowhere on PATH, or nil when all are installed.
  public static func missing(_ tools: [String]) -> String? {
    tools.first { !isInstalled($0) }
  }

  /// True when `tool` is an executable file in a folder of PATH.
  public static func isInstalled(_ tool: String) -> Bool {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains { CommandRunner.isRegularExecutable("\($0)/\(tool)") }
  }

  /// The tools `.ci/desktop-session.sh` runs a headless desktop with, and `dunstctl` and
  /// `dbus-monitor`, which the tests drive dunst and watch its bus with (`HeadlessDesktop`).
  public static let headlessDesktopTools = [
    "Xvfb", "dbus-daemon", "dbus-send", "dbus-monitor", "dunst", "dunstctl",
  ]

  /// True when a headless desktop (Xvfb, a session bus, dunst) can be started.
  public static let hasHeadlessDesktop = missing(headlessDesktopTools) == nil

  /// The ngIRCd executable, when installed (the chat example's real IRC server).
  public static let ircServer: String? = [
    "/usr/sbin/ngircd", "/usr/bin/ngircd", "/usr/local/sbin/ngircd", "/usr/local/bin/ngircd",
  ].first(where: CommandRunner.isRegularExecutable)

  /// True when `/usr/bin/sox` is installed (sound fixtures are made with it).
  public static let hasSox = CommandRunner.isRegularExecutable("/usr/bin/sox")
}

extension Trait where Self == ConditionTrait {
  /// Runs the test only where a headless desktop can be started; skips it saying why.
  public static var needsHeadlessDesktop: Self {
    .enabled(
      if: TestEnvironment.hasHeadlessDesktop,
      "needs \(TestEnvironment.headlessDesktopTools.joined(separator: ", ")) (apt-get install xvfb dbus dunst)"
    )
  }

  /// Runs the test only where ngIRCd is installed; skips it saying why.
  public static var needsIRCServer: Self {
    .enabled(if: TestEnvironment.ircServer != nil, "needs ngircd (apt-get install ngircd)")
  }

  /// Runs the test only where sox is installed; skips it saying why.
  public static var needsSox: Self {
    .enabled(if: TestEnvironment.hasSox, "needs /usr/bin/sox (apt-get install sox)")
  }
}

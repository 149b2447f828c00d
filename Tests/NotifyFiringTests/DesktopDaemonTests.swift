import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// `notify daemon --sink desktop` against a real dunst under Xvfb on a private session bus
/// (`.ci/desktop-session.sh`): delivery to the server, and the server's closing reported
/// back into history while the daemon sleeps.
@Suite(.serialized, .enabled(if: HeadlessDesktop.toolsMissing == nil, "needs Xvfb, dbus and dunst"))
struct DesktopDaemonTests {
  @Test("the daemon shows a due notification in dunst and records its dismissal")
  func deliversAndRecordsDismissal() throws {
    // Given a headless desktop and a daemon delivering to it
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let daemon = try NotifyProcess(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d",
      environment: desktop.environment)
    #expect(daemon.waitReady(), "\(daemon.errorText)")
    // When a notification comes due
    try f.schedule("hello", at: Date() + 1)
    // Then dunst shows it and it is recorded delivered
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 1 }, "\(daemon.errorText)")
    #expect(try desktop.dunstctl("count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    // When the user closes it
    try desktop.dunstctl("close-all")
    // Then the sleeping daemon records the dismissal
    #expect(waitUntil(timeout: 10) { (try? f.events(.dismissed).map(\.notificationID)) == ["hello"] })
    #expect(try f.events(.dismissed).first?.detail["userInfo"] == .object(["k": .string("v")]))
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }
}

/// A private Xvfb + session bus + dunst, from the project's `.ci/desktop-session.sh`.
final class HeadlessDesktop {
  static let toolsMissing: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let missing = ["Xvfb", "dbus-daemon", "dunst", "dunstctl"].first { tool in
      !path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }
    if let missing {
      print("DesktopDaemonTests: skipping: \(missing) is not installed (apt-get install xvfb dbus dunst)")
    }
    return missing
  }()

  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(".ci/desktop-session.sh").path

  let folder = TemporaryFolder(prefix: "notify-desktop")
  private(set) var environment: [String: String] = [:]

  init() throws {
    let result = try HeadlessDesktop.run(
      ["/bin/bash", HeadlessDesktop.script, "start", folder.file("session")],
      environment: ["NOTIFY_SESSION_DISPLAY": "auto"], in: folder)
    let parts = result.output.split(separator: "'")
    guard result.status == 0, parts.count >= 4 else {
      throw NotifyError(.unavailable, "desktop-session.sh start failed: \(result.errors)")
    }
    environment = ["DBUS_SESSION_BUS_ADDRESS": String(parts[1]), "DISPLAY": String(parts[3])]
  }

  deinit {
    _ = try? HeadlessDesktop.run(
      ["/bin/bash", HeadlessDesktop.script, "stop", folder.file("session")], in: folder)
  }

  @discardableResult
  func dunstctl(_ arguments: String...) throws -> String {
    let result = try HeadlessDesktop.run(
      ["/usr/bin/dunstctl"] + arguments, environment: environment, in: folder)
    guard result.status == 0 else {
      throw NotifyError(.unavailable, "dunstctl \(arguments) failed: \(result.errors)")
    }
    return result.output
  }

  /// Runs a command with its output in files, through posix_spawn and waitpid: the
  /// session script leaves daemons behind that inherit its descriptors, which keeps
  /// Foundation's Process from ever seeing it end.
  static func run(_ command: [String], environment: [String: String] = [:], in folder: TemporaryFolder) throws
    -> (status: Int32, output: String, errors: String)
  {
    let name = UUID().uuidString
    let (out, err) = (folder.file(name + ".out"), folder.file(name + ".err"))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
    let argv = command.map { strdup($0) } + [nil]
    let envp = env.map { strdup($0) } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    // Test code may run on a thread that blocks signals; the session's daemons must not
    // inherit that, or SIGTERM would not stop them.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    var all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid: pid_t = 0
    guard posix_spawn(&pid, command[0], &actions, &attributes, argv, envp) == 0 else {
      throw NotifyError(.unavailable, "cannot start \(command[0])")
    }
    // Foundation's own child reaper may collect it first (waitpid then fails with ECHILD):
    // it has ended either way, and its output is in the files.
    var status: Int32 = 0
    guard waitUntil(timeout: 30, { waitpid(pid, &status, WNOHANG) != 0 }) else {
      kill(pid, SIGKILL)
      throw NotifyError(.temporary, "\(command[0]) did not finish within 30 s")
    }
    let read = { (path: String) in fileBytes(path).map { String(decoding: $0, as: UTF8.self) } ?? "" }
    return ((status >> 8) & 0xff, read(out), read(err))
  }
}

import Foundation
import Testing

/// A real `systemd --user` in a mount namespace of its own, as the test user
/// (`Tests/Fixtures/user-manager.sh`): its own journald, user bus (dbus-user-session),
/// runtime dir and an empty home, in a delegated cgroup unique to it. Several run at once
/// on one machine without meeting. Stopped when it goes away.
///
/// Everything runs through the script: `run` as the user with the manager's environment,
/// `runAsRoot` in the namespace. Paths such as `home` exist inside the namespace only;
/// `hostPath(_:)` reaches them from the test process. Blocks while it waits: use it under
/// `.ownThreads`.
///
/// ```swift
/// @Suite(.needsUserManager, .ownThreads) struct UnitTests {
///   @Test func daemonRuns() throws {
///     let manager = try UserManager(in: TemporaryFolder())
///     try manager.installNotify(enable: true)
///     #expect(try manager.property("ActiveState", of: "notify.service") == "active")
///   }
/// }
/// ```
///
/// `@unchecked Sendable`: everything is set once in `init` except `stopped`, which the lock
/// guards; the script serializes nothing, and needs not (each call is its own process).
public final class UserManager: @unchecked Sendable {
  /// `Tests/Fixtures/user-manager.sh`.
  public static let script = ScriptedDesktop.fixtures + "/user-manager.sh"

  /// The exit status with which the script says a user manager cannot run here.
  public static let cannotRunStatus: Int32 = 77

  /// Why no user manager can be started on this machine (`user-manager.sh check` exited
  /// 77: not root, a tool or the test user missing, no cgroup delegation), or nil when one
  /// can. Checked once, when a suite's trait first asks. Any other failure of the check is
  /// nil too: the tests then run and fail where `start` fails, never skip.
  public static let unavailable: String? = {
    guard let result = try? CommandRunner(executable: "/bin/bash").run([script, "check"], timeout: 30) else {
      return "user-manager.sh check did not run"
    }
    guard result.status == cannotRunStatus else { return nil }
    return result.stderr.replacingOccurrences(of: "user-manager: ", with: "")
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }()

  /// The test user's name, uid, home and runtime dir (inside the namespace).
  public let user: String
  public let uid: uid_t
  public let home: String
  public let runtimeDirectory: String
  /// The process that holds the namespace (`nsenter --target HOLDER --mount`).
  public let holder: pid_t
  /// The script's state folder.
  public let state: String
  private let folder: TemporaryFolder
  private let lock = NSLock()
  private var stopped = false

  /// Starts a user manager with its state in `folder`; returns once it is up (started
  /// and `is-system-running` answered). A start that fails is a test failure.
  public init(in folder: TemporaryFolder) throws {
    self.folder = folder
    state = folder.file("user-manager")
    let started = try CommandRunner(executable: "/bin/bash").run([Self.script, "start", state], timeout: 120)
    try #require(started.status == 0, "user-manager.sh start exited \(started.status): \(started.stderr)")
    var exports: [String: String] = [:]
    for part in started.stdout.split(whereSeparator: { $0 == ";" || $0 == "\n" }) {
      // export NAME='VALUE' or export NAME=VALUE
      let text = part.trimmingCharacters(in: .whitespaces)
      guard text.hasPrefix("export "), let equals = text.firstIndex(of: "=") else { continue }
      let name = String(text[text.index(text.startIndex, offsetBy: 7)..<equals])
      exports[name] = String(text[text.index(after: equals)...]).trimmingCharacters(
        in: CharacterSet(charactersIn: "'"))
    }
    runtimeDirectory = exports["XDG_RUNTIME_DIR"] ?? ""
    home = exports["HOME"] ?? ""
    holder = pid_t(exports["NOTIFY_USER_MANAGER_PID"] ?? "") ?? 0
    user = ProcessInfo.processInfo.environment["NOTIFY_TEST_USER"] ?? "notify-test"
    uid = uid_t(runtimeDirectory.split(separator: "/").last.map(String.init) ?? "") ?? 0
    try #require(holder > 0 && !home.isEmpty && uid > 0, "user-manager.sh start printed \(started.stdout)")
  }

  deinit { stop() }

  /// Stops the manager (its units stop as at logout), ends everything left in its
  /// cgroup and the namespace. Idempotent.
  public func stop() {
    let already = lock.withLock {
      defer { stopped = true }
      return stopped
    }
    guard !already else { return }
    _ = try? CommandRunner(executable: "/bin/bash").run([Self.script, "stop", state], timeout: 120)
  }

  // MARK: Running commands

  /// Runs `arguments` as the test user in the namespace, with the manager's environment
  /// (HOME, XDG_RUNTIME_DIR, DBUS_SESSION_BUS_ADDRESS, PATH with ~/.local/bin first), in
  /// HOME. `environment` is added with `env`.
  @discardableResult
  public func run(
    _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil,
    timeout: TimeInterval = 60
  ) throws -> CommandRunner.Result {
    let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    let command = assignments.isEmpty ? arguments : ["env"] + assignments + arguments
    return try CommandRunner(executable: "/bin/bash").run(
      [Self.script, "run", state, "--"] + command, stdin: stdin, timeout: timeout)
  }

  /// Runs `arguments` as root in the namespace (in /, PATH and LANG only).
  @discardableResult
  public func runAsRoot(_ arguments: [String], stdin: String? = nil, timeout: TimeInterval = 60) throws
    -> CommandRunner.Result
  {
    try CommandRunner(executable: "/bin/bash").run(
      [Self.script, "run", state, "--root", "--"] + arguments, stdin: stdin, timeout: timeout)
  }

  /// `systemctl --user ARGUMENTS` as the user.
  @discardableResult
  public func systemctl(_ arguments: String..., timeout: TimeInterval = 60) throws -> CommandRunner.Result {
    try run(["systemctl", "--user", "--no-pager"] + arguments, timeout: timeout)
  }

  /// Writes `contents` to `path` (absolute, or relative to HOME) as the user, making its
  /// folder: a drop-in, a desktop entry.
  public func writeFile(_ path: String, _ contents: String) throws {
    let result = try run(
      ["sh", "-c", "mkdir -p \"$(dirname \"$1\")\" && cat > \"$1\"", "sh", path], stdin: contents)
    try #require(result.status == 0, "writing \(path): \(result.stderr)")
  }

  /// `path` inside the namespace as the test process reaches it (through the holder's
  /// `/proc/PID/root`): to read what the user's processes wrote.
  public func hostPath(_ path: String) -> String { "/proc/\(holder)/root" + path }

  // MARK: Units

  /// The properties `names` of `unit` (`systemctl --user show -p …`).
  public func properties(_ names: [String], of unit: String) throws -> [String: String] {
    let result = try run(["systemctl", "--user", "show", unit] + names.flatMap { ["-p", $0] })
    try #require(result.status == 0, "systemctl --user show \(unit): \(result.stderr)")
    var values: [String: String] = [:]
    for line in result.stdout.split(separator: "\n") {
      guard let equals = line.firstIndex(of: "=") else { continue }
      values[String(line[..<equals])] = String(line[line.index(after: equals)...])
    }
    return values
  }

  /// One property of `unit`.
  public func property(_ name: String, of unit: String) throws -> String {
    try properties([name], of: unit)[name] ?? ""
  }

  /// Polls `name` of `unit` until `condition` holds or `timeout` seconds pass; the last
  /// value. Each poll is a `systemctl show`, 50 ms apart.
  @discardableResult
  public func waitFor(
    _ name: String, of unit: String, timeout: TimeInterval = 30, _ condition: (String) -> Bool
  ) throws -> String {
    var value = ""
    _ = try waitUntil(timeout: timeout, interval: 0.05) {
      value = try property(name, of: unit)
      return condition(value)
    }
    return value
  }

  /// Reloads the manager's units (`systemctl --user daemon-reload`).
  public func daemonReload() throws {
    let result = try systemctl("daemon-reload")
    try #require(result.status == 0, "daemon-reload: \(result.stderr)")
  }

  /// Adds the drop-in `~/.config/systemd/user/UNIT.d/NAME.conf` and reloads.
  public func addDropIn(_ unit: String, name: String = "test", _ contents: String) throws {
    try writeFile("\(home)/.config/systemd/user/\(unit).d/\(name).conf", contents)
    try daemonReload()
  }

  // MARK: The journal

  /// The journal entries of the user unit `unit` (`journalctl --user -u UNIT -o json` as the
  /// user), after `journalctl --flush` and `--sync` (as root), so that everything sent so
  /// far is in. Each entry's fields as text.
  public func journal(unit: String) throws -> [[String: String]] {
    for flag in ["--flush", "--sync"] {
      let done = try runAsRoot(["journalctl", flag])
      try #require(done.status == 0, "journalctl \(flag): \(done.stderr)")
    }
    let result = try run(["journalctl", "--user", "-u", unit, "-o", "json", "--no-pager"])
    try #require(result.status == 0, "journalctl --user -u \(unit): \(result.stderr)")
    return result.stdout.split(separator: "\n").compactMap { line in
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        return nil
      }
      return object.mapValues { "\($0)" }
    }
  }

  /// The `MESSAGE`s of `journal(unit:)`.
  public func journalMessages(unit: String) throws -> [String] {
    try journal(unit: unit).compactMap { $0["MESSAGE"] }
  }

  // MARK: notify

  /// Installs the built `notify` for the user with `scripts/install.sh --binary … --man-pages
  /// …` (into ~/.local, units in ~/.local/share/systemd/user), run as the user; with
  /// `enable`, install.sh enables and starts notify.service (else `--no-enable`).
  ///
  /// The script, the units and the binary are copied into `~/src` first, so the user needs
  /// no access to the checkout. The man pages are two stand-ins (generate-manual is not
  /// built with the tests; `.ci/install-check` checks the real ones).
  @discardableResult
  public func installNotify(binary: String = CommandRunner.product("notify"), enable: Bool) throws
    -> CommandRunner.Result
  {
    let checkout = URL(fileURLWithPath: ScriptedDesktop.fixtures).deletingLastPathComponent()
      .deletingLastPathComponent().path
    let source = "\(home)/src"
    let page = ".Dd 2026\n.Dt NOTIFY 1\n.Os\n.Sh NAME\n.Nm notify\n.Nd a stand-in page\n"
    let copied = try runAsRoot(
      [
        "sh", "-c",
        """
        set -e
        mkdir -p "$2/scripts" "$2/units" "$2/man" "$2/pages" "$2/data/dbus"
        cp "$1"/scripts/*.sh "$2/scripts/"
        cp "$1"/units/*.service "$1"/units/*.timer "$2/units/"
        cp "$1"/data/dbus/* "$2/data/dbus/"
        cp "$1"/man/* "$2/man/"
        cp "$3" "$2/notify"
        cat > "$2/pages/notify.1"
        cp "$2/pages/notify.1" "$2/pages/notify.schedule.1"
        chown -R "$4" "$2"
        """,
        "sh", checkout, source, binary, "\(uid)",
      ], stdin: page)
    try #require(copied.status == 0, "copying the install files: \(copied.stderr)")
    return try run(
      [
        "bash", "\(source)/scripts/install.sh", "install", "--binary", "\(source)/notify", "--man-pages",
        "\(source)/pages",
      ]
        + (enable ? [] : ["--no-enable"]), timeout: 120)
  }

  /// Runs the installed `notify ARGUMENTS` as the user (its default store,
  /// `~/.local/state/notify/notify.db`, the daemon's).
  @discardableResult
  public func notify(_ arguments: String..., timeout: TimeInterval = 60) throws -> CommandRunner.Result {
    try run(["\(home)/.local/bin/notify"] + arguments, timeout: timeout)
  }

  // MARK: Hooks for the tests to come

  /// HOOK (login order: daemon first, notification server later): ends the user's
  /// session as logout does (the manager stops every unit and exits), then starts the
  /// manager again in the same namespace, home and journal, and waits until it is up:
  /// enabled units (`WantedBy=default.target`) start as at the next login, before any
  /// notification server (none is activatable here, see the script). Start one afterwards
  /// with `startTransientService`, e.g. dunst with a `DISPLAY`.
  public func relogin() throws {
    for step in ["logout", "login"] {
      let result = try CommandRunner(executable: "/bin/bash").run([Self.script, step, state], timeout: 120)
      try #require(result.status == 0, "user-manager.sh \(step): \(result.stderr)")
    }
  }

  /// Gives the user manager `capability` (`wake_alarm`) as an ambient capability from its
  /// next login (`relogin()`), as `AmbientCapabilities=` of user@.service does: what systemd
  /// 254 and later do for CAP_WAKE_ALARM, and an administrator's drop-in does before.
  public func grant(_ capability: String) throws {
    let result = try CommandRunner(executable: "/bin/bash").run([Self.script, "grant", state, capability])
    try #require(result.status == 0, "user-manager.sh grant: \(result.stderr)")
  }

  /// HOOK (login order; a server that comes later): runs `command` as the transient user
  /// service `unit` (`systemd-run --user --unit UNIT --collect`), with `environment` set
  /// for it (`--setenv`), and returns once it has started. `type` is systemd's `Type=`
  /// (`exec` by default: started once the program runs; `dbus` with `busName` waits for
  /// the name).
  public func startTransientService(
    _ unit: String, command: [String], environment: [String: String] = [:], type: String = "exec",
    busName: String? = nil
  ) throws {
    var arguments = ["systemd-run", "--user", "--unit", unit, "--collect", "-p", "Type=\(type)"]
    if let busName { arguments += ["-p", "BusName=\(busName)"] }
    for (name, value) in environment.sorted(by: { $0.key < $1.key }) {
      arguments += ["--setenv", "\(name)=\(value)"]
    }
    let result = try run(arguments + command)
    try #require(result.status == 0, "systemd-run --user \(unit): \(result.stderr)")
  }

  /// HOOK (a clicked app has its own cgroup): copies `source` (a file or folder of the
  /// checkout or the test's temporary folder, which the user may not be able to read) to
  /// `destination` (absolute, or relative to HOME), owned by the user; returns its absolute
  /// path. For the scripted notification server (`Tests/Fixtures/notification-server.py`,
  /// run with `startTransientService(type: "dbus", busName: "org.freedesktop.Notifications")`
  /// and clicked with `run(["gdbus", "call", "--session", …, "org.notify.Test.Click", …])`),
  /// an app's desktop entry and its program.
  @discardableResult
  public func copyIntoHome(_ source: String, to destination: String) throws -> String {
    let target = destination.hasPrefix("/") ? destination : "\(home)/\(destination)"
    let copy = "mkdir -p \"$(dirname \"$2\")\" && cp -R \"$1\" \"$2\" && chown -R \"$3\" \"$2\""
    let copied = try runAsRoot(["sh", "-c", copy, "sh", source, target, "\(uid)"])
    try #require(copied.status == 0, "copying \(source) to \(target): \(copied.stderr)")
    return target
  }

  /// HOOK (a clicked app has its own cgroup): the cgroup (v2 path, or name=systemd's
  /// where there is no v2) of process `pid`, e.g.
  /// `/notify-um-X.slice/user@1001.service/app.slice/notify.service`; nil when it is gone.
  public func cgroup(ofProcess pid: pid_t) -> String? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/cgroup", encoding: .utf8) else { return nil }
    let lines = text.split(separator: "\n")
    let line = lines.first { $0.hasPrefix("0::") } ?? lines.first { $0.contains(":name=systemd:") }
    return line.flatMap { $0.split(separator: ":", maxSplits: 2).last.map(String.init) }
  }

  /// HOOK (a clicked app has its own cgroup): the user unit process `pid` runs in (the
  /// innermost `.service` or `.scope` below `user@UID.service`, e.g. `notify.service` or
  /// `app-org.example.Chat-1234.scope`), or nil when it runs outside the manager's units.
  public func unit(ofProcess pid: pid_t) -> String? {
    guard let path = cgroup(ofProcess: pid), let range = path.range(of: "/user@\(uid).service/") else {
      return nil
    }
    return path[range.upperBound...].split(separator: "/").last {
      $0.hasSuffix(".service") || $0.hasSuffix(".scope")
    }.map(String.init)
  }

  /// HOOK: the processes of user unit `unit` (its cgroup's `cgroup.procs`, with children),
  /// as `systemd-cgls`/`systemctl status` list them.
  public func processes(ofUnit unit: String) throws -> [pid_t] {
    let cgroup = try property("ControlGroup", of: unit)
    guard !cgroup.isEmpty else { return [] }
    let hierarchy = ["/sys/fs/cgroup/unified", "/sys/fs/cgroup", "/sys/fs/cgroup/systemd"].first {
      FileManager.default.fileExists(atPath: $0 + cgroup)
    }
    guard let hierarchy else { return [] }
    let result = try CommandRunner(executable: "/bin/sh").run([
      "-c", "find \"$1\" -name cgroup.procs -exec cat {} +", "sh", hierarchy + cgroup,
    ])
    return result.stdout.split(separator: "\n").compactMap { pid_t($0) }
  }
}

extension Trait where Self == ConditionTrait {
  /// Runs the test only where a real `systemd --user` can be started
  /// (`Tests/Fixtures/user-manager.sh check`); skips it saying why.
  public static var needsUserManager: Self {
    .enabled(
      if: UserManager.unavailable == nil,
      Comment(rawValue: "needs a systemd --user: \(UserManager.unavailable ?? "")"))
  }
}

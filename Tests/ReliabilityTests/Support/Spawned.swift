import Foundation
import Glibc
import NotifyTestSupport

/// A long-running child (a daemon, a fire-due run) started with `CommandRunner.spawn` (an
/// empty signal mask, default signal handlers), its stdout and stderr appended to files,
/// reaped here with `waitpid`: nothing else reaps orphans on this machine.
final class Spawned: @unchecked Sendable {
  /// The process id.
  let pid: pid_t
  /// Where its stdout goes.
  let outputPath: String
  /// Where its stderr goes.
  let errorPath: String
  private let lock = NSLock()
  private var exitStatus: Int32?

  /// Starts `executable ARGUMENTS` with the test's environment minus journald and systemd
  /// variables, plus `environment`.
  init(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], output: String,
    errors: String
  ) throws {
    outputPath = output
    errorPath = errors
    var env = ProcessInfo.processInfo.environment
    for key in [
      "JOURNAL_STREAM", "INVOCATION_ID", "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "NOTIFY_DB",
    ] {
      env[key] = nil
    }
    for (key, value) in environment { env[key] = value }
    pid = try CommandRunner.spawn([executable] + arguments, environment: env, stdout: output, stderr: errors)
  }

  /// `notify ARGUMENTS --db DB`, its output in `folder/NAME.out` and `.err`.
  static func notify(
    _ arguments: [String], db: String, folder: TemporaryFolder, name: String,
    environment: [String: String] = [:]
  ) throws -> Spawned {
    try Spawned(
      CommandRunner.product("notify"), arguments + ["--db", db], environment: environment,
      output: folder.file("\(name).out"), errors: folder.file("\(name).err"))
  }

  deinit { kill9() }

  /// The exit status (or 128 + signal) once it ended, else nil. Reaps it.
  var status: Int32? {
    lock.withLock {
      if let exitStatus { return exitStatus }
      var raw: Int32 = 0
      guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
      exitStatus = CommandRunner.exitCode(ofWaitStatus: raw)
      return exitStatus
    }
  }

  /// True while the process runs.
  var isRunning: Bool { status == nil }

  /// Sends `signal`.
  func send(_ signal: Int32) {
    if isRunning { kill(pid, signal) }
  }

  /// Waits until it has ended; its status, or nil at the deadline.
  @discardableResult
  func waitExit(timeout: TimeInterval = 20) -> Int32? {
    _ = waitUntil(timeout: timeout, interval: 0.005) { status != nil }
    return status
  }

  /// SIGKILL and reap, if still running.
  func kill9() {
    guard isRunning else { return }
    kill(pid, SIGKILL)
    waitExit(timeout: 10)
  }

  /// True when it holds a file whose path ends with `suffix` open (e.g. the store's WAL,
  /// which a daemon opens with the store).
  func hasOpen(_ suffix: String) -> Bool {
    let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
    return fds.contains { fd in
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"))?.hasSuffix(suffix)
        ?? false
    }
  }

  /// Its stdout so far.
  var output: String { fileBytes(outputPath).map { String(decoding: $0, as: UTF8.self) } ?? "" }
  /// Its stderr so far.
  var errors: String { fileBytes(errorPath).map { String(decoding: $0, as: UTF8.self) } ?? "" }

  /// The delivery lines of the stdout sink so far (a line cut short is skipped).
  var deliveries: [DeliveryLine] { output.split(separator: "\n").compactMap { DeliveryLine(String($0)) } }
}

/// One line of the stdout sink: which occurrence of which notification.
struct DeliveryLine: Hashable, Sendable {
  var app: String
  var id: String
  var occurrence: Int
  var late: Bool

  init?(_ line: String) {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      object["event"] as? String == "delivered", let app = object["app"] as? String,
      let id = object["id"] as? String, let occurrence = object["occurrence"] as? Int
    else { return nil }
    self.app = app
    self.id = id
    self.occurrence = occurrence
    self.late = object["late"] as? Bool ?? false
  }

  /// `app/id#occurrence`.
  var key: String { "\(app)/\(id)#\(occurrence)" }
}

/// Runs `notify ARGUMENTS` to completion with `--db DB` (and `environment`).
@discardableResult
func runNotify(
  _ arguments: [String], db: String, environment: [String: String] = [:], timeout: TimeInterval = 60
)
  throws -> CommandRunner.Result
{
  var env = ["JOURNAL_STREAM": "", "INVOCATION_ID": "", "NOTIFY_SOCKET": ""]
  for (key, value) in environment { env[key] = value }
  return try CommandRunner(environment: env).run(arguments + ["--db", db], timeout: timeout)
}

/// RFC 3339 with milliseconds, for `--at`.
func rfc3339(_ date: Date) -> String {
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
  return formatter.string(from: date)
}

import Foundation
import Glibc
import NotifyTestSupport
import Testing

/// A `notify` child process whose stdout goes to a file (so that what it delivered
/// survives `kill -9`) and whose sd_notify messages reach a listener.
final class NotifyProcess: @unchecked Sendable {
  let pid: pid_t
  let outputPath: String
  let errorPath: String
  let listener: NotifySocketListener
  private var status: Int32?

  /// Starts `notify ARGUMENTS --db DB` (or another built `program`); `name` keeps its files
  /// apart from other processes'.
  init(
    _ arguments: [String], db: String, folder: TemporaryFolder, name: String,
    environment: [String: String] = [:], program: String = "notify"
  )
    throws
  {
    outputPath = folder.file("\(name).out")
    errorPath = folder.file("\(name).err")
    listener = try NotifySocketListener(path: folder.file("\(name).sock"))
    var env = ProcessInfo.processInfo.environment
    // Log to stderr, not to a journal the test cannot read.
    env["JOURNAL_STREAM"] = nil
    env["INVOCATION_ID"] = nil
    env["NOTIFY_SOCKET"] = listener.path
    env["NOTIFY_DB"] = nil
    for (key, value) in environment { env[key] = value }
    // Spawned with an empty signal mask so SIGTERM and SIGINT reach the daemon.
    pid = try CommandRunner.spawn(
      [CommandRunner.product(program)] + arguments + ["--db", db], environment: env, stdout: outputPath,
      stderr: errorPath)
  }

  /// A daemon with the stdout sink.
  static func daemon(
    db: String, folder: TemporaryFolder, name: String, extra: [String] = [],
    environment: [String: String] = [:]
  ) throws -> NotifyProcess {
    try NotifyProcess(
      ["daemon", "--sink", "stdout"] + extra, db: db, folder: folder, name: name, environment: environment)
  }

  /// A firer of `driver`'s kind delivering to `sink`: the daemon (every app), or an app
  /// firing its own notifications in process (`app`'s only).
  static func firer(
    _ driver: FiringDriver, db: String, folder: TemporaryFolder, name: String, app: String = "test",
    sink: String = "stdout", environment: [String: String] = [:]
  ) throws -> NotifyProcess {
    switch driver {
    case .daemon:
      try NotifyProcess(
        ["daemon", "--sink", sink], db: db, folder: folder, name: name, environment: environment)
    case .app:
      try NotifyProcess(
        ["--app", app, "--sink", sink], db: db, folder: folder, name: name, environment: environment,
        program: "embedded-app-fixture")
    }
  }

  /// Waits for READY=1 from sd_notify.
  func waitReady(timeout: TimeInterval = 60) -> Bool {
    listener.waitFor("READY=1", timeout: timeout) != nil
  }

  /// The JSON lines the sink wrote so far (a line cut short by a kill is ignored).
  var deliveries: [Delivered] {
    guard let data = fileBytes(outputPath) else { return [] }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
      Delivered(line: String($0))
    }
  }

  /// What the process wrote on stderr.
  var errorText: String { fileBytes(errorPath).map { String(decoding: $0, as: UTF8.self) } ?? "" }

  func send(_ signal: Int32) { kill(pid, signal) }

  /// Waits for the process to end; its exit status (128 + signal when killed), or nil at
  /// the deadline.
  func waitExit(timeout: TimeInterval = 60) -> Int32? {
    guard waitUntil(timeout: timeout, interval: 0.01, { reap() }) else { return nil }
    return status
  }

  /// Whether the process is still running.
  var isRunning: Bool { !reap() }

  /// Collects the exit status once the process has ended; true when it has.
  private func reap() -> Bool {
    if status != nil { return true }
    var raw: Int32 = 0
    let result = waitpid(pid, &raw, WNOHANG)
    guard result == pid else { return result < 0 && errno == ECHILD }
    status = CommandRunner.exitCode(ofWaitStatus: raw)
    return true
  }

  /// Kills it if still running.
  func stop() {
    if isRunning {
      send(SIGKILL)
      _ = waitExit(timeout: 5)
    }
  }

  deinit { stop() }
}

/// Who fires: every firing case runs against each (issue "one firing engine").
enum FiringDriver: String, CaseIterable, Sendable, CustomTestStringConvertible {
  /// `notify daemon`, firing every app's notifications.
  case daemon
  /// An app embedding the library, firing its own in process (`embedded-app-fixture`).
  case app

  var testDescription: String { rawValue }
}

/// One delivery line of the stdout sink.
struct Delivered: Hashable {
  var app: String
  var id: String
  var occurrence: Int
  var late: Bool
  var deliveredAt: Date
  var line: String

  init?(line: String) {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      object["event"] as? String == "delivered", let app = object["app"] as? String,
      let id = object["id"] as? String, let occurrence = object["occurrence"] as? Int,
      let late = object["late"] as? Bool, let at = object["deliveredAt"] as? String,
      let deliveredAt = Delivered.parse(at)
    else { return nil }
    self.app = app
    self.id = id
    self.occurrence = occurrence
    self.late = late
    self.deliveredAt = deliveredAt
    self.line = line
  }

  /// The key that identifies one occurrence.
  var key: String { "\(app)/\(id)#\(occurrence)" }

  static func parse(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
  }
}

/// RFC 3339 with milliseconds, for `--at`.
func rfc3339(_ date: Date) -> String {
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
  return formatter.string(from: date)
}

/// Runs `notify ARGUMENTS --db DB` to completion, with `environment` added.
@discardableResult
func notify(_ arguments: [String], db: String, environment: [String: String] = [:]) throws
  -> CommandRunner.Result
{
  try CommandRunner(environment: ["JOURNAL_STREAM": "", "INVOCATION_ID": ""].merging(environment) { $1 })
    .run(arguments + ["--db", db])
}

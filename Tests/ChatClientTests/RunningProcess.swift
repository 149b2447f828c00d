import Foundation

/// A built product running in the background for an integration test: its stdin can be
/// written, its stdout and stderr are collected as they come, and it is stopped when the
/// test is done.
final class RunningProcess: @unchecked Sendable {
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let errors = Pipe()
  private let lock = NSLock()
  private var outText = ""
  private var errText = ""

  /// Starts `executable` with `arguments`, adding `environment` to the test's own.
  init(_ executable: String, _ arguments: [String], environment: [String: String]) throws {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    output.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      self?.lock.withLock { self?.outText += String(decoding: data, as: UTF8.self) }
    }
    errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      self?.lock.withLock { self?.errText += String(decoding: data, as: UTF8.self) }
    }
    try process.run()
  }

  /// Everything written to stdout so far.
  var stdout: String { lock.withLock { outText } }
  /// Everything written to stderr so far.
  var stderr: String { lock.withLock { errText } }
  /// The complete lines of stdout so far.
  var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
  /// Whether it still runs.
  var isRunning: Bool { process.isRunning }
  /// The exit status, once it has exited.
  var exitStatus: Int32? { process.isRunning ? nil : process.terminationStatus }

  /// Types a line on its stdin.
  func type(_ line: String) {
    input.fileHandleForWriting.write(Data((line + "\n").utf8))
  }

  /// Sends SIGTERM and waits up to `timeout` seconds for it to exit (then SIGKILL).
  func stop(timeout: TimeInterval = 10) {
    guard process.isRunning else { return }
    process.terminate()
    let deadline = Date() + timeout
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  /// Waits up to `timeout` seconds for it to exit by itself.
  func waitForExit(timeout: TimeInterval) -> Int32? {
    let deadline = Date() + timeout
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    return exitStatus
  }

  deinit {
    stop()
    output.fileHandleForReading.readabilityHandler = nil
    errors.fileHandleForReading.readabilityHandler = nil
  }
}

import Foundation

/// Runs the built `notify` (or another product) as a child process, for end-to-end tests.
public struct CommandRunner: Sendable {
  /// What a finished process left behind.
  public struct Result: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
  }

  /// The folder holding the built products (`.build/debug`).
  public static let productsFolder: URL = {
    // The test bundle lives in the products folder: .build/<triple>/debug/notifyPackageTests.xctest
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    while url.path != "/" {
      if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("notify").path) {
        return url
      }
      url.deleteLastPathComponent()
    }
    // Fall back to the package's .build/debug.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug")
  }()

  /// The path of a built product such as `notify`.
  public static func product(_ name: String) -> String {
    productsFolder.appendingPathComponent(name).path
  }

  /// Extra environment for every run (e.g. NOTIFY_DB).
  public var environment: [String: String]
  /// The product to run.
  public var executable: String

  public init(executable: String = CommandRunner.product("notify"), environment: [String: String] = [:]) {
    self.executable = executable
    self.environment = environment
  }

  /// Runs with `arguments`, waits up to `timeout` seconds, returns status and output.
  @discardableResult
  public func run(_ arguments: [String], stdin: String? = nil, timeout: TimeInterval = 60) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let input = Pipe()
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try? input.fileHandleForWriting.close()
    // Read both pipes concurrently so a chatty child cannot block on a full pipe.
    nonisolated(unsafe) var outData = Data()
    nonisolated(unsafe) var errData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      outData = out.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    group.enter()
    DispatchQueue.global().async {
      errData = err.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    if group.wait(timeout: .now() + timeout) == .timedOut {
      process.terminate()
      throw CommandRunnerError.timedOut(arguments)
    }
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}

/// Failures of the runner itself.
public enum CommandRunnerError: Error {
  case timedOut([String])
}

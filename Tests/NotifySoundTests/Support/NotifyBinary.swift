import Foundation

/// The built `notify` executable, found next to the test bundle (`.build/debug`), or at
/// `NOTIFY_BINARY`.
enum NotifyBinary {
  static let path: String? = {
    var candidates: [String] = []
    if let override = ProcessInfo.processInfo.environment["NOTIFY_BINARY"] { candidates.append(override) }
    for start in [
      Bundle.main.bundlePath, Bundle.main.executablePath ?? "", CommandLine.arguments.first ?? "",
    ] where !start.isEmpty {
      var url = URL(fileURLWithPath: start)
      for _ in 0..<4 {
        url.deleteLastPathComponent()
        candidates.append(url.appendingPathComponent("notify").path)
      }
    }
    let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    if found == nil { print("skipping CLI tests: the notify binary was not found (run swift build first)") }
    return found
  }()

  /// Runs `notify ARGUMENTS` with `environment` added to a minimal one.
  static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (
    status: Int32, output: String, errors: String
  ) {
    var base = ["PATH": "/usr/bin:/bin", "HOME": ProcessInfo.processInfo.environment["HOME"] ?? "/tmp"]
    base.merge(environment) { $1 }
    return try Sox.run(path!, arguments, environment: base)
  }
}

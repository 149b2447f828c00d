import Foundation
import NotifyTestSupport

/// The built `notify` executable: `NOTIFY_BINARY` when set, else the one in the products
/// folder the test bundle was built into (`CommandRunner.productsFolder`). Only a regular
/// executable file counts: a clone in a folder named `notify` is not the binary.
enum NotifyBinary {
  static let path: String? = {
    var candidates: [String] = []
    if let override = ProcessInfo.processInfo.environment["NOTIFY_BINARY"] { candidates.append(override) }
    candidates.append(CommandRunner.product("notify"))
    let found = candidates.first(where: CommandRunner.isRegularExecutable)
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

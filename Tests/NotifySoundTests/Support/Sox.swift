import Foundation
import NotifyTestSupport

/// The `sox` and `soxi` tools, used to generate fixtures at test time and as the
/// reference the reader is checked against.
enum Sox {
  static let sox = which("sox")
  static let soxi = which("soxi")

  /// True when both tools are installed.
  static let available: Bool = {
    let ok = sox != nil && soxi != nil
    if !ok {
      print("skipping sox-based tests: sox/soxi not found on PATH (apt-get install sox libsox-fmt-all)")
    }
    return ok
  }()

  /// The file types `sox -h` lists.
  static let formats: Set<String> = {
    guard let sox, let help = try? run(sox, ["-h"]).output else { return [] }
    guard let line = help.split(separator: "\n").first(where: { $0.hasPrefix("AUDIO FILE FORMATS:") }) else {
      return []
    }
    return Set(line.dropFirst("AUDIO FILE FORMATS:".count).split(separator: " ").map(String.init))
  }()

  /// Generates `seconds` of a 440 Hz sine into `path` with the given options
  /// (`-r 8000 -c 1 -b 16 ...`, placed before the output file).
  static func generate(_ path: String, seconds: Double, options: [String]) throws {
    let result = try run(sox!, ["-q", "-n"] + options + [path, "synth", String(seconds), "sine", "440"])
    guard result.status == 0 else { throw SoxError(message: "sox failed for \(path): \(result.errors)") }
  }

  /// `soxi -FLAG path`, trimmed.
  static func info(_ flag: String, _ path: String) throws -> String {
    let result = try run(soxi!, ["-\(flag)", path])
    guard result.status == 0 else {
      throw SoxError(message: "soxi -\(flag) failed for \(path): \(result.errors)")
    }
    return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  struct SoxError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
  }

  static func which(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// Runs a program to completion, capturing its output; with `environment`, in that
  /// environment alone.
  static func run(_ program: String, _ arguments: [String], environment: [String: String]? = nil) throws -> (
    status: Int32, output: String, errors: String
  ) {
    let result = try CommandRunner(
      executable: program, environment: environment ?? [:], inheritsEnvironment: environment == nil
    ).run(arguments)
    return (result.status, result.stdout, result.stderr)
  }
}

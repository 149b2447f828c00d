import Foundation
import Glibc

/// A fresh folder under /tmp, removed when the value goes away.
public final class ScratchFolder {
  /// The folder's path.
  public let path: String

  /// Creates `/tmp/PREFIX.XXXXXX`.
  public init(prefix: String) {
    var template = Array("/tmp/\(prefix).XXXXXX".utf8CString)
    path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
  }

  /// A path inside the folder.
  public func file(_ name: String) -> String { path + "/" + name }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Options shared by the harnesses: `--flag value` pairs and `--smoke`.
public struct Arguments {
  private var values: [String: String] = [:]
  /// True with `--smoke`: tiny counts, for CI.
  public let smoke: Bool

  /// Parses `CommandLine.arguments`.
  public init(_ arguments: [String] = CommandLine.arguments) {
    var rest = arguments.dropFirst()
    var smoke = false
    while let flag = rest.popFirst() {
      if flag == "--smoke" {
        smoke = true
      } else {
        values[flag] = rest.popFirst() ?? ""
      }
    }
    self.smoke = smoke
  }

  /// The value of `--name`, or `fallback`.
  public func string(_ name: String, _ fallback: String) -> String { values[name] ?? fallback }

  /// The value of `--name` as a number, or `fallback`.
  public func int(_ name: String, _ fallback: Int) -> Int { values[name].flatMap { Int($0) } ?? fallback }

  /// The value of `--name` as a number of seconds, or `fallback`.
  public func seconds(_ name: String, _ fallback: Double) -> Double {
    values[name].flatMap { Double($0) } ?? fallback
  }
}

import Foundation

/// A fresh folder under the system temporary directory, removed when released.
final class TemporaryDirectory: @unchecked Sendable {
  let path: String

  init(_ label: String = "notify-sound-tests") {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("\(label)-\(UUID().uuidString)").path
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// `path/name`.
  func file(_ name: String) -> String { "\(path)/\(name)" }

  /// Writes `bytes` to `path/name` and returns the path.
  @discardableResult
  func write(_ name: String, _ bytes: [UInt8]) -> String {
    let target = file(name)
    try! FileManager.default.createDirectory(
      atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: target, contents: Data(bytes))
    return target
  }
}

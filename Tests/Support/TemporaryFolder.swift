import Foundation

/// A fresh folder under /tmp, removed when the value is deinitialized.
public final class TemporaryFolder: @unchecked Sendable {
  /// The folder's path.
  public let path: String

  public init(prefix: String = "notify-test") {
    let template = NSTemporaryDirectory() + "/\(prefix).XXXXXX"
    var bytes = Array(template.utf8CString)
    let result = bytes.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    path = result.map { String(cString: $0) } ?? template
  }

  /// A path inside the folder.
  public func file(_ name: String) -> String { path + "/" + name }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// The bytes of a file, or nil when it does not exist (for byte-for-byte store checks).
public func fileBytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

/// What a store holds on disk: its file and its WAL, where commits stay until a checkpoint
/// (short processes close without one). A store whose file and WAL are byte for byte as
/// they were had nothing committed to it; the file alone says nothing.
public func storeBytes(_ db: String) -> Data? {
  guard let file = fileBytes(db) else { return nil }
  return file + (fileBytes(db + "-wal") ?? Data())
}

/// The permission bits of `path` itself (a link is not followed), or nil when it is absent.
public func fileMode(_ path: String) -> UInt32? {
  var info = stat()
  return lstat(path, &info) == 0 ? UInt32(info.st_mode) & 0o777 : nil
}

import Glibc

/// Reads zone files whole, with plain system calls.
enum ZoneFile {
  /// TZif files are a few kilobytes; anything past this is not one.
  static let maximumSize = 1 << 20

  /// The bytes of the regular file at `path` (links followed), or nil when it cannot be
  /// read or is not a regular file.
  static func read(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while bytes.count <= maximumSize {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { return nil }
      if count == 0 { return bytes }
      bytes += chunk[0..<count]
    }
    return nil
  }

  /// The size of the regular file at `path` when it is over `maximumSize`, else nil.
  static func sizeIfTooLarge(_ path: String) -> Int? {
    var info = stat()
    guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > maximumSize else {
      return nil
    }
    return Int(info.st_size)
  }

  /// The target of the symbolic link at `path`, or nil when it is not one.
  static func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

import Foundation
import NotifyCore

/// The store's file-system side: private folders and files, and a lock for migrations.
enum StoreFiles {
  /// Creates the folder (0700) and the file (0600) when absent. Existing ones are left
  /// as they are: a file that is not a store is reported later, never replaced.
  static func prepare(path: String) throws(NotifyError) {
    let folder = (path as NSString).deletingLastPathComponent
    if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
      do {
        try FileManager.default.createDirectory(
          atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw NotifyError(
          .ioError, "cannot create the store folder \(folder)", fix: "check the permissions of its parent")
      }
    }
    // An existing store is never opened here: closing any descriptor of a file drops every
    // POSIX lock this process holds on it, SQLite's included, and another process closing
    // the store would then checkpoint and delete the WAL under this process's connections.
    var info = stat()
    if stat(path, &info) == 0 {
      guard info.st_mode & S_IFMT != S_IFDIR else {
        throw NotifyError(
          .ioError, "cannot open the store \(path): Is a directory", fix: "check the path and its permissions"
        )
      }
      return
    }
    let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if fd < 0 {
      let reason = String(cString: strerror(errno))
      // Another process created it first.
      if errno == EEXIST { return }
      throw NotifyError(
        .ioError, "cannot open the store \(path): \(reason)", fix: "check the path and its permissions")
    }
    close(fd)
  }

  /// Runs `body` holding an exclusive `flock` on `path` (created 0600). Waits at most
  /// `timeout` for it, like SQLite's busy timeout: a process stopped or hung while
  /// opening the store must not block every other one forever (exit 75 instead).
  static func withLock<T>(path: String, timeout: TimeInterval, _ body: () throws -> T) throws -> T {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return try body() }
    defer { close(fd) }
    let deadline = Date() + timeout
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
        throw NotifyError(
          .temporary,
          "the store \(path.dropLast(5)) stayed busy for more than \(Int(timeout)) s (another process is opening it)",
          fix: "try again; if it persists, look for a stopped notify process")
      }
      usleep(2000)
    }
    defer { flock(fd, LOCK_UN) }
    return try body()
  }
}

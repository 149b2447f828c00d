import Foundation
import NotifyCore

/// Busy (exit 75), told apart by who holds the store: a process that holds a lock and is
/// stopped (or keeps it the whole time) is named; with no holder left, others were only
/// slow. Read from `/proc/locks`, never by opening the store's files: closing any
/// descriptor of them would drop this process's own SQLite locks.
enum StoreBusy {
  /// The error for an open or a write that waited `waited` in vain. `lockFile` is the
  /// migration lock it waited for, nil for SQLite's own write lock.
  static func error(store: String, lockFile: String? = nil, waited timeout: TimeInterval) -> NotifyError {
    let shown = Escaper.visible(store)
    let seconds = timeout < 1 ? String(format: "%.1f", timeout) : "\(Int(timeout.rounded()))"
    let holder =
      lockFile.flatMap { LockHolder.find(file: $0, range: nil) }
      ?? LockHolder.find(file: store + "-shm", range: walWriteLock)
    guard let holder else {
      return NotifyError(
        .temporary,
        "the store \(shown) stayed busy for more than \(seconds) s while other processes wrote to it (a slow disk or a heavy load); nothing was changed",
        fix: "try again, or wait longer with NOTIFY_BUSY_TIMEOUT=SECONDS")
    }
    let who = "process \(holder.pid) (\(Escaper.visible(holder.command)))"
    if holder.isStopped {
      return NotifyError(
        .temporary, "the store \(shown) is busy: \(who) holds it and is stopped; nothing was changed",
        fix: "resume it (kill -CONT \(holder.pid)) or end it, then try again")
    }
    return NotifyError(
      .temporary,
      "the store \(shown) stayed busy for more than \(seconds) s: \(who) held it all that time; nothing was changed",
      fix: "try again; if it persists, look at what that process is doing")
  }

  /// The byte of the `-shm` file that SQLite's WAL writers lock (`WAL_WRITE_LOCK`).
  static let walWriteLock: ClosedRange<Int64> = 120...120
}

/// A process holding a lock on a file, from `/proc/locks`.
struct LockHolder {
  var pid: Int32
  var command: String
  var isStopped: Bool

  /// The first process other than this one holding a lock on `file` that covers `range`
  /// (any range when nil).
  static func find(file: String, range: ClosedRange<Int64>?) -> LockHolder? {
    var info = stat()
    guard stat(file, &info) == 0, let table = readWhole("/proc/locks") else { return nil }
    for line in table.split(separator: "\n") {
      // "1: POSIX  ADVISORY  WRITE 1234 08:01:5678 120 120", "2: FLOCK  ADVISORY  WRITE 99 00:2a:7 0 EOF"
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count >= 8, fields[1] != "->", let pid = Int32(fields[4]), pid > 0, pid != getpid(),
        let inode = fields[5].split(separator: ":").last.flatMap({ UInt64($0) }), inode == UInt64(info.st_ino)
      else { continue }
      if let range {
        let start = Int64(fields[6]) ?? 0
        let end = fields[7] == "EOF" ? Int64.max : Int64(fields[7]) ?? 0
        guard start <= range.upperBound, end >= range.lowerBound else { continue }
      }
      return LockHolder(pid: pid, command: command(of: pid), isStopped: isStopped(pid))
    }
    return nil
  }

  /// A file of `/proc` read to its end: such files report a size of 0, and one read may
  /// return only the first page of a long table.
  private static func readWhole(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func command(of pid: Int32) -> String {
    guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else {
      return "unknown"
    }
    let words = data.split(separator: 0).prefix(3).map { String(decoding: $0, as: UTF8.self) }
    return words.enumerated().map { $0.offset == 0 ? ($0.element as NSString).lastPathComponent : $0.element }
      .joined(separator: " ")
  }

  /// Stopped by a signal or a tracer (`T`, `t` in `/proc/PID/stat`).
  private static func isStopped(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
    return state == "T" || state == "t"
  }
}

import Foundation
import NotifyCore

/// Busy (exit 75): a wait for other processes gave up (`ProgressWait`), told apart by who
/// holds the store: a process that holds a lock and is stopped, or holds it doing nothing,
/// is named; a wait that saw others make progress until its cap says so. Read from
/// `/proc/locks`, never by opening the store's files: closing any descriptor of them would
/// drop this process's own SQLite locks.
enum StoreBusy {
  /// The error for an open or a write whose wait gave up as `ending` says, with a busy
  /// timeout of `timeout` seconds. `lockFile` is the migration lock it waited for, nil for
  /// SQLite's own write lock.
  static func error(
    store: String, lockFile: String? = nil, timeout: TimeInterval, ending: ProgressWait.Ending
  ) -> NotifyError {
    let shown = Escaper.visible(store)
    let holder =
      lockFile.flatMap { LockHolder.find(file: $0, range: nil) }
      ?? LockHolder.find(file: store + "-shm", range: walWriteLock)
    let who = holder.map { "process \($0.pid) (\(Escaper.visible($0.command)))" }
    if let holder, let who, holder.isStopped {
      return NotifyError(
        .storeBusy(holder: holder.pid),
        "the store \(shown) is busy: \(who) holds it and is stopped; nothing was changed",
        fix: "resume it (kill -CONT \(holder.pid)) or end it, then try again")
    }
    switch ending {
    case .capReached:
      let cap = seconds(timeout * Double(ProgressWait.capFactor))
      return NotifyError(
        .storeBusy(holder: holder?.pid),
        "the store \(shown) stayed busy for more than \(cap) s while other processes kept writing to it (a slow disk or a heavy load); nothing was changed",
        fix:
          "try again, or wait longer with NOTIFY_BUSY_TIMEOUT=SECONDS (a wait ends after \(ProgressWait.capFactor) times that even while others write)"
      )
    case .noProgress:
      guard let who else {
        return NotifyError(
          .storeBusy(holder: nil),
          "the store \(shown) stayed busy for more than \(seconds(timeout)) s and no other process wrote to it meanwhile; nothing was changed",
          fix: "try again")
      }
      return NotifyError(
        .storeBusy(holder: holder?.pid),
        "the store \(shown) stayed busy for more than \(seconds(timeout)) s: \(who) held it all that time without writing to it; nothing was changed",
        fix: "try again; if it persists, look at what that process is doing")
    }
  }

  /// `seconds` as messages show it: whole, or with one decimal (0.5, 1.5).
  private static func seconds(_ seconds: TimeInterval) -> String {
    let tenths = (seconds * 10).rounded()
    return tenths.truncatingRemainder(dividingBy: 10) == 0
      ? "\(Int(tenths / 10))" : String(format: "%.1f", tenths / 10)
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
    pid(file: file, range: range).map {
      LockHolder(pid: $0, command: command(of: $0), isStopped: isStopped($0))
    }
  }

  /// `find`'s pid alone: one read of `/proc/locks`, which stalls every file lock on the
  /// machine while it lasts (the kernel takes its lock table for writing): never in a loop.
  static func pid(file: String, range: ClosedRange<Int64>?) -> Int32? {
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
      return pid
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

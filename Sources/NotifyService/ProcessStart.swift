import Foundation

/// When processes started, and which process a pidfd holds: read from `/proc`.
enum ProcessStart {
  /// Nanoseconds since boot (`CLOCK_BOOTTIME`) at which the process `pid` started, to the
  /// kernel's clock tick (`/proc/PID/stat`, field 22, rounded down); nil when it is gone.
  static func bootNanoseconds(pid: Int32) -> UInt64? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return nil }
    // After the name in parentheses (which may hold anything): state is field 3, start 22.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 19, let ticks = UInt64(fields[19]) else { return nil }
    let hertz = UInt64(max(1, sysconf(Int32(_SC_CLK_TCK))))
    return ticks * (1_000_000_000 / hertz)
  }

  /// Nanoseconds of `CLOCK_BOOTTIME` now.
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_BOOTTIME, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  /// The pid of the process the pidfd `fd` holds (`Pid:` of its fdinfo); nil when it has
  /// exited and been reaped, or the descriptor is no pidfd.
  static func pid(ofPidfd fd: Int32) -> Int32? {
    guard let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(fd)", encoding: .utf8) else {
      return nil
    }
    for line in info.split(separator: "\n") where line.hasPrefix("Pid:") {
      guard let pid = Int32(line.dropFirst(4).trimmingCharacters(in: .whitespaces)), pid > 0 else {
        return nil
      }
      return pid
    }
    return nil
  }
}

import Foundation
import NotifyCore

extension FirerIdentity {
  /// This process: its pid, its start time from `/proc/self/stat` and the boot id.
  public static var current: FirerIdentity {
    let pid = getpid()
    // Read once: a firer asks on every wake-up. (A forked child has another pid.)
    if pid == cachedCurrent.pid { return cachedCurrent }
    return FirerIdentity(pid: pid, startTime: startTime(of: pid) ?? 0, bootID: currentBootID)
  }

  private static let cachedCurrent: FirerIdentity = {
    let pid = getpid()
    return FirerIdentity(pid: pid, startTime: startTime(of: pid) ?? 0, bootID: currentBootID)
  }()

  /// The kernel's id for this boot (`/proc/sys/kernel/random/boot_id`); it cannot change
  /// while a process runs, so it is read once.
  public static let currentBootID: String =
    (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
    .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown-boot"

  /// Whether the firer that wrote this identity still runs: same boot, its pid exists,
  /// and that pid started at the same time (so it is not a later process reusing it).
  public var isAlive: Bool {
    guard bootID == FirerIdentity.currentBootID, pid > 0 else { return false }
    if self == FirerIdentity.current { return true }
    guard let start = FirerIdentity.startTime(of: pid) else { return false }
    return start == startTime
  }

  /// Field 22 of `/proc/PID/stat` (start time in clock ticks since boot), or nil when
  /// the process does not exist or has already died (a zombie not yet reaped: `Z`, `X`).
  /// The command name (field 2) may hold spaces and parentheses, so fields are counted
  /// after its last `)`.
  static func startTime(of pid: Int32) -> UInt64? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // After ")": state is field 3, so field 22 is at offset 19.
    guard fields.count > 19, fields[0] != "Z", fields[0] != "X" else { return nil }
    return UInt64(fields[19])
  }
}

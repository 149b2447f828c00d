import Foundation

/// What /proc says about a process.
public enum ProcessStats {
  /// Voluntary plus involuntary context switches over all threads of `pid`: every time one
  /// of its threads was scheduled off a CPU, which an idle process never is.
  public static func contextSwitches(_ pid: Int32) -> Int? {
    guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else {
      return nil
    }
    var total = 0
    for thread in threads {
      guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/status", encoding: .utf8)
      else { continue }
      for line in status.split(separator: "\n") where line.contains("ctxt_switches") {
        total += Int(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) ?? 0
      }
    }
    return total
  }

  /// A `kB` field of /proc/PID/status (`VmRSS`, `VmHWM`), in KiB.
  public static func statusField(_ pid: Int32, _ name: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
      return Int(
        line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
    }
    return nil
  }

  /// Resident memory now, in KiB.
  public static func residentKiB(_ pid: Int32) -> Int? { statusField(pid, "VmRSS") }
}

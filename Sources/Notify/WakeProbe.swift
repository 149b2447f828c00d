import CSystemd
import Foundation
import Glibc
import NotifyCore
import NotifyFiring

/// Gathers what this process can do to wake the machine (`WakeFacts`): it tries an alarm
/// timer, reads its capabilities and `no_new_privs` from `/proc/self/status`, the unit it
/// runs in under the user's systemd manager and whether that manager has
/// `CAP_WAKE_ALARM` (`MANAGERPID`'s status), and whether its program file carries the
/// capability. `WakeDiagnosis` decides from it.
package enum WakeProbe {
  /// `CAP_WAKE_ALARM`'s bit in the capability masks.
  static let capabilityBit = 35

  /// The facts of this process; `environment` is where `MANAGERPID` and `INVOCATION_ID` are.
  package static func facts(environment: [String: String] = ProcessInfo.processInfo.environment) -> WakeFacts
  {
    let status = fields(ofStatus: "/proc/self/status")
    let program = link("/proc/self/exe") ?? "notify"
    var manager: Bool?
    if let pid = environment["MANAGERPID"].flatMap(Int32.init), pid > 0 {
      manager = hasCapability(fields(ofStatus: "/proc/\(pid)/status")["CapPrm"])
    }
    return WakeFacts(
      alarmClock: WakeAlarmKeeper.probe(),
      // (`NOTIFY_WAKE_CLOCK=present`: tests on a machine without a real-time clock alarm
      // take one as there, to see the user manager's waking timers made)
      wakeClock: WakeAlarmKeeper.wakeClockPresent() || environment["NOTIFY_WAKE_CLOCK"] == "present",
      hasCapability: hasCapability(status["CapEff"]) ?? false,
      noNewPrivileges: status["NoNewPrivs"] == "1",
      unit: environment["INVOCATION_ID"] == nil ? nil : unitName(),
      managerHasCapability: manager, program: program,
      programHasFileCapability: fileCapability(program))
  }

  /// Where the link at `path` leads (plain `readlink`: this runs in every firer's start,
  /// whose memory counts).
  static func link(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink(path, &buffer, buffer.count - 1)
    guard length > 0 else { return nil }
    return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The text of a small file under `/proc` (plain `read`).
  static func text(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(fd, &chunk, chunk.count)
      guard count > 0 else { break }
      bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `Name:\tvalue` lines of a `/proc/PID/status`.
  static func fields(ofStatus path: String) -> [String: String] {
    guard let text = text(path) else { return [:] }
    var fields: [String: String] = [:]
    for line in text.split(separator: "\n") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      fields[String(line[..<colon])] = String(
        line[line.index(after: colon)...].drop { $0 == "\t" || $0 == " " })
    }
    return fields
  }

  /// Whether a hex capability mask has `CAP_WAKE_ALARM`; nil for no mask.
  static func hasCapability(_ mask: String?) -> Bool? {
    guard let mask, let value = UInt64(mask, radix: 16) else { return nil }
    return value & (1 << UInt64(capabilityBit)) != 0
  }

  /// The innermost `.service` of this process's cgroup (`notify.service`), nil when none.
  static func unitName() -> String? {
    guard let text = text("/proc/self/cgroup") else { return nil }
    let lines = text.split(separator: "\n")
    let line = lines.first { $0.hasPrefix("0::") } ?? lines.first { $0.contains(":name=systemd:") }
    return line?.split(separator: "/").last { $0.hasSuffix(".service") }.map(String.init)
  }

  /// Whether `program`'s `security.capability` attribute (a `vfs_cap_data`: magic, then
  /// permitted and inheritable masks, low 32 bits then high) permits `CAP_WAKE_ALARM`.
  static func fileCapability(_ program: String) -> Bool {
    var data = [UInt8](repeating: 0, count: 24)
    let size = getxattr(program, "security.capability", &data, data.count)
    guard size >= 20 else { return false }
    let word = { (offset: Int) -> UInt32 in
      UInt32(data[offset]) | UInt32(data[offset + 1]) << 8 | UInt32(data[offset + 2]) << 16
        | UInt32(data[offset + 3]) << 24
    }
    // data[0] at 4 (permitted low, inheritable low), data[1] at 12 (permitted high, ...).
    return word(12) & (1 << UInt32(capabilityBit - 32)) != 0
  }
}

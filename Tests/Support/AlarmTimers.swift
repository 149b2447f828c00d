import Foundation
import Testing

/// The timers a process holds, as `/proc/PID/fdinfo` shows each `timerfd`: its clock
/// (`clockid`: 0 `CLOCK_REALTIME`, 1 `CLOCK_MONOTONIC`, 8 `CLOCK_REALTIME_ALARM`, 9
/// `CLOCK_BOOTTIME_ALARM`) and how long until it expires (`it_value`; zero: disarmed).
public struct TimerDescriptor: Hashable, Sendable {
  /// The descriptor number.
  public var fd: Int32
  public var clockID: Int
  /// Seconds until it expires; 0 when disarmed.
  public var remaining: TimeInterval

  /// Whether it is a wake-capable clock (`CLOCK_REALTIME_ALARM` or `CLOCK_BOOTTIME_ALARM`).
  public var isAlarm: Bool { clockID == 8 || clockID == 9 }
  /// Whether it is armed.
  public var isArmed: Bool { remaining > 0 }

  /// The timerfds of process `pid` (empty when it is gone).
  public static func of(_ pid: pid_t) -> [TimerDescriptor] {
    let folder = "/proc/\(pid)/fdinfo"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
    return names.compactMap { name -> TimerDescriptor? in
      guard let fd = Int32(name),
        let text = try? String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8),
        let clock = field("clockid", in: text).flatMap(Int.init)
      else { return nil }
      // it_value: (SECONDS, NANOSECONDS)
      var remaining: TimeInterval = 0
      if let value = field("it_value", in: text) {
        let numbers = value.split(whereSeparator: { !$0.isNumber }).compactMap { Double($0) }
        if numbers.count == 2 { remaining = numbers[0] + numbers[1] / 1e9 }
      }
      return TimerDescriptor(fd: fd, clockID: clock, remaining: remaining)
    }.sorted { $0.fd < $1.fd }
  }

  /// The armed wake-capable timers of `pid`.
  public static func armedAlarms(of pid: pid_t) -> [TimerDescriptor] {
    of(pid).filter { $0.isAlarm && $0.isArmed }
  }

  private static func field(_ name: String, in text: String) -> String? {
    for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
      return line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
    }
    return nil
  }
}

/// Whether this process (and the children it starts, as root does) has `CAP_WAKE_ALARM`:
/// nil when it has, else why not.
public let wakeAlarmUnavailable: String? = {
  guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
    let line = text.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
    let mask = UInt64(line.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16)
  else { return "cannot read this process's capabilities" }
  return mask & (1 << 35) != 0
    ? nil
    : "needs CAP_WAKE_ALARM (root) to arm a CLOCK_REALTIME_ALARM timer; the user-session tests cover the rest"
}()

extension Trait where Self == ConditionTrait {
  /// Runs the test only where this process has `CAP_WAKE_ALARM`; skips it saying why.
  public static var needsWakeAlarm: Self {
    .enabled(if: wakeAlarmUnavailable == nil, Comment(rawValue: wakeAlarmUnavailable ?? ""))
  }
}

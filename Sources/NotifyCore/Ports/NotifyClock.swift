import Foundation

/// The source of `now` and of the system time zone. Injected so that the rules can be
/// tested with literal instants.
public protocol NotifyClock: Sendable {
  /// The current wall-clock instant.
  func now() -> Date
  /// The zone `local` wall-clock notifications follow right now.
  var localZone: TimeZone { get }
}

/// The real clock: `Date()` and the system time zone.
public struct SystemClock: NotifyClock {
  public init() {}
  public func now() -> Date { Date() }
  public var localZone: TimeZone { SystemClock.readSystemZone() }

  /// `TimeZone.current` is cached for the life of the process; a daemon must follow the
  /// user moving zones (SPEC.md §2), so read `TZ` and `/etc/localtime` afresh.
  public static func readSystemZone() -> TimeZone {
    if let tz = ProcessInfo.processInfo.environment["TZ"], !tz.isEmpty {
      let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
      if let zone = TimeZone(identifier: name) { return zone }
    }
    if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
      let range = target.range(of: "zoneinfo/"),
      let zone = TimeZone(identifier: String(target[range.upperBound...]))
    {
      return zone
    }
    if let name = try? String(contentsOfFile: "/etc/timezone", encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines),
      let zone = TimeZone(identifier: name)
    {
      return zone
    }
    return TimeZone.current
  }
}

/// A clock that only moves when told to, for tests.
public final class ManualClock: NotifyClock, @unchecked Sendable {
  // Safe: `current` and `zone` are only touched with `lock` held.
  private let lock = NSLock()
  private var current: Date
  private var zone: TimeZone

  /// Creates a clock standing at `now` in `localZone`.
  public init(now: Date, localZone: TimeZone = TimeZone(identifier: "UTC")!) {
    self.current = now
    self.zone = localZone
  }

  public func now() -> Date { lock.withLock { current } }
  public var localZone: TimeZone { lock.withLock { zone } }

  /// Moves the clock by `seconds` (negative to set it back).
  public func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }
  /// Sets the clock to `date`.
  public func set(_ date: Date) { lock.withLock { current = date } }
  /// Moves the "system" zone, as a user travelling would.
  public func setLocalZone(_ zone: TimeZone) { lock.withLock { self.zone = zone } }
}

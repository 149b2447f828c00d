import Foundation

/// The source of `now` and of the zones (the system zone and the zone database).
/// Injected so that the rules can be tested with literal instants and zones. The real
/// one, `SystemClock`, lives in NotifyZones, which reads the tz database.
public protocol NotifyClock: Sendable {
  /// The current wall-clock instant.
  func now() -> Date
  /// The zone `local` wall-clock notifications follow right now, and where named zones
  /// are read from.
  var zones: Zones { get }
}

/// A clock that only moves when told to, for tests.
public final class ManualClock: NotifyClock, @unchecked Sendable {
  // Safe: `current` and `zoneState` are only touched with `lock` held.
  private let lock = NSLock()
  private var current: Date
  private var zoneState: Zones

  /// Creates a clock standing at `now` in `localZone`, with named zones from `database`.
  public init(now: Date, localZone: Zone = .utc, database: any ZoneDatabase = ZoneTable()) {
    self.current = now
    self.zoneState = Zones(local: localZone, database: database)
  }

  public func now() -> Date { lock.withLock { current } }
  public var zones: Zones { lock.withLock { zoneState } }

  /// Moves the clock by `seconds` (negative to set it back).
  public func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }
  /// Sets the clock to `date`.
  public func set(_ date: Date) { lock.withLock { current = date } }
  /// Moves the "system" zone, as a user travelling would.
  public func setLocalZone(_ zone: Zone) { lock.withLock { zoneState.local = zone } }
}

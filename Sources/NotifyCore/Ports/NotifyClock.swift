import Foundation
import Synchronization

/// The source of `now` and of the zones (the system zone and the zone database).
/// Injected so that the rules can be tested with literal instants and zones. The real
/// one, `SystemClock`, lives in NotifyZones, which reads the tz database.
public protocol NotifyClock: Sendable {
  /// The current wall-clock instant.
  func now() -> Date
  /// The zone `local` wall-clock notifications follow right now, and where named zones
  /// are read from.
  var zones: Zones { get }
  /// Returns at `instant` or at once when it has passed: the real clock sleeps the calling
  /// thread until then (`DeliveryGate`); a clock of tests returns at once.
  func sleep(until instant: Date)
}

extension NotifyClock {
  /// Returns at once: time does not pass by itself on a clock of tests.
  public func sleep(until instant: Date) {}
}

/// A clock that only moves when told to, for tests.
public final class ManualClock: NotifyClock, Sendable {
  /// Shared by design: a test moves it while a loop's thread reads it.
  private let state: Mutex<(now: Date, zones: Zones)>

  /// Creates a clock standing at `now` in `localZone`, with named zones from `database`.
  public init(now: Date, localZone: Zone = .utc, database: any ZoneDatabase = ZoneTable()) {
    state = Mutex((now, Zones(local: localZone, database: database)))
  }

  public func now() -> Date { state.withLock { $0.now } }
  public var zones: Zones { state.withLock { $0.zones } }

  /// Moves the clock by `seconds` (negative to set it back).
  public func advance(by seconds: TimeInterval) { state.withLock { $0.now += seconds } }
  /// Sets the clock to `date`.
  public func set(_ date: Date) { state.withLock { $0.now = date } }
  /// Moves the "system" zone, as a user travelling would.
  public func setLocalZone(_ zone: Zone) { state.withLock { $0.zones.local = zone } }
}

import Foundation
import NotifyCore
import NotifyZones
import Synchronization

/// A clock whose `zones` are read once and again only after `zoneChanged()`.
///
/// `SystemClock` reads `TZ` and `/etc/localtime` on every call so that a long-running
/// process follows the user's moves; the daemon asks on every wake-up, and it is told by
/// its `/etc/localtime` watch when the zone changes, so it caches it in between.
public final class ZoneCachingClock: NotifyClock, Sendable {
  private let base: any NotifyClock
  /// Shared by design: the loop's thread and the app's read the clock.
  private let cached = Mutex<Zones?>(nil)

  /// Wraps `base` (the system clock by default).
  public init(_ base: any NotifyClock = SystemClock()) {
    self.base = base
  }

  /// `base.now()`.
  public func now() -> Date { base.now() }

  /// `base.sleep(until:)`.
  public func sleep(until instant: Date) { base.sleep(until: instant) }

  /// `base.zones` as last read.
  public var zones: Zones {
    if let zones = cached.withLock({ $0 }) { return zones }
    let fresh = base.zones
    cached.withLock { $0 = fresh }
    return fresh
  }

  /// Forgets the cached zones; the next `zones` reads them afresh.
  public func zoneChanged() {
    cached.withLock { $0 = nil }
  }
}

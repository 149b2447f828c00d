import Foundation
import NotifyCore
import NotifyZones

/// A clock whose `zones` are read once and again only after `zoneChanged()`.
///
/// `SystemClock` reads `TZ` and `/etc/localtime` on every call so that a long-running
/// process follows the user's moves; the daemon asks on every wake-up, and it is told by
/// its `/etc/localtime` watch when the zone changes, so it caches it in between.
public final class ZoneCachingClock: NotifyClock, @unchecked Sendable {
  // Safe: `cached` is only touched with `lock` held; `base` is Sendable.
  private let base: any NotifyClock
  private let lock = NSLock()
  private var cached: Zones?

  /// Wraps `base` (the system clock by default).
  public init(_ base: any NotifyClock = SystemClock()) {
    self.base = base
  }

  /// `base.now()`.
  public func now() -> Date { base.now() }

  /// `base.zones` as last read.
  public var zones: Zones {
    if let zones = lock.withLock({ cached }) { return zones }
    let fresh = base.zones
    lock.withLock { cached = fresh }
    return fresh
  }

  /// Forgets the cached zones; the next `zones` reads them afresh.
  public func zoneChanged() {
    lock.withLock { cached = nil }
  }
}

import Foundation
import NotifyCore

/// A clock whose `localZone` is read once and again only after `zoneChanged()`.
///
/// `SystemClock` reads `TZ` and `/etc/localtime` on every call so that a long-running
/// process follows the user's moves; the daemon asks on every wake-up, and it is told by
/// its `/etc/localtime` watch when the zone changes, so it caches it in between.
public final class ZoneCachingClock: NotifyClock, @unchecked Sendable {
  // Safe: `zone` is only touched with `lock` held; `base` is Sendable.
  private let base: any NotifyClock
  private let lock = NSLock()
  private var zone: TimeZone?

  /// Wraps `base` (the system clock by default).
  public init(_ base: any NotifyClock = SystemClock()) {
    self.base = base
  }

  /// `base.now()`.
  public func now() -> Date { base.now() }

  /// `base.localZone` as last read.
  public var localZone: TimeZone {
    if let zone = lock.withLock({ zone }) { return zone }
    let fresh = base.localZone
    lock.withLock { zone = fresh }
    return fresh
  }

  /// Forgets the cached zone; the next `localZone` reads it afresh.
  public func zoneChanged() {
    lock.withLock { zone = nil }
  }
}

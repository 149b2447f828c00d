import Foundation
import NotifyCore

/// The real clock: `Date()`, the system zone read afresh on every call (so a long-running
/// process follows the user's moves, SPEC.md §2), and named zones from the tz database.
public struct SystemClock: NotifyClock {
  private let database: TZDatabase

  /// The clock over `database` (the process's `TZDatabase.shared` by default).
  public init(database: TZDatabase = .shared) {
    self.database = database
  }

  public func now() -> Date { Date() }

  /// Sleeps until the wall clock reads `instant` (`clock_nanosleep`, `TIMER_ABSTIME` on
  /// `CLOCK_REALTIME`: a clock set meanwhile is followed); returns at once when it has passed.
  public func sleep(until instant: Date) {
    let seconds = instant.timeIntervalSince1970
    guard seconds > Date().timeIntervalSince1970 else { return }
    var whole = seconds.rounded(.down)
    var nanoseconds = ((seconds - whole) * 1e9).rounded(.up)
    if nanoseconds >= 1e9 {
      whole += 1
      nanoseconds -= 1e9
    }
    var target = timespec(tv_sec: Int(whole), tv_nsec: Int(nanoseconds))
    while clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &target, nil) == EINTR {}
  }

  public var zones: Zones { Zones(local: SystemZone.read(database: database), database: database) }

  /// The system zone now.
  public static func readSystemZone() -> Zone { SystemZone.read() }
}

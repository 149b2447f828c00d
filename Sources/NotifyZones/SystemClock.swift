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

  public var zones: Zones { Zones(local: SystemZone.read(database: database), database: database) }

  /// The system zone now.
  public static func readSystemZone() -> Zone { SystemZone.read() }
}

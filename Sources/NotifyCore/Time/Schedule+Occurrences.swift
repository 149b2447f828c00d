import Foundation

extension Schedule {
  /// The instant of occurrence `index` (0-based; 0 is the anchor), or nil when the
  /// schedule has no such occurrence (not repeating, past `repeatCount` or `until`).
  /// `localZone` is what the `local` zone stands for now.
  public func occurrence(_ index: Int, localZone: TimeZone) -> Date? {
    fatalError("implemented by the time-math work")
  }

  /// The first occurrence at or after `instant`, starting the search at `index`.
  public func firstOccurrence(atOrAfter instant: Date, from index: Int = 0, localZone: TimeZone)
    -> (index: Int, date: Date)?
  {
    fatalError("implemented by the time-math work")
  }

  /// The latest occurrence at or before `instant`, not earlier than `index`.
  public func latestOccurrence(atOrBefore instant: Date, from index: Int = 0, localZone: TimeZone)
    -> (index: Int, date: Date)?
  {
    fatalError("implemented by the time-math work")
  }

  /// Up to `count` occurrence instants starting at occurrence `index`.
  public func upcoming(_ count: Int, from index: Int = 0, localZone: TimeZone) -> [Date] {
    fatalError("implemented by the time-math work")
  }
}

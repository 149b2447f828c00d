import Foundation

extension Zone {
  /// `2026-11-22 09:00:00 CET`: `date` as people read it in this zone, with the
  /// abbreviation the zone data gives (`+0530` where tzdata has no letters for it).
  public func readableText(for date: Date) -> String {
    let seconds = Zone.unixSeconds(date)
    let type = localTimeType(at: seconds)
    let wall = WallClock(localSeconds: seconds + Int64(type.utcOffset))
    return wall.iso8601.replacingOccurrences(of: "T", with: " ") + " " + type.abbreviation
  }

  /// `09:00:00`: the time of day of `date` in this zone.
  public func timeOfDayText(for date: Date) -> String {
    let seconds = Zone.unixSeconds(date)
    let wall = WallClock(localSeconds: seconds + utcOffset(at: seconds))
    return String(wall.iso8601.suffix(8))
  }
}

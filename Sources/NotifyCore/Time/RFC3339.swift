import Foundation

/// RFC 3339 UTC timestamps, the only way instants are written out.
public enum RFC3339 {
  /// `2026-11-22T08:00:00Z`, with `.123` milliseconds when `milliseconds` is true, or
  /// when it is nil and the instant has a fraction of a second (so an instant written out
  /// and read back is the same to the millisecond).
  public static func string(from date: Date, milliseconds: Bool? = nil) -> String {
    let totalMillis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    var seconds = time_t(totalMillis.floorDiv(1000))
    let millis = Int(totalMillis - Int64(seconds) * 1000)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    let wall = WallClock(
      year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
      hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    guard milliseconds ?? (millis != 0) else { return wall.iso8601 + "Z" }
    let m = String(millis)
    return wall.iso8601 + "." + String(repeating: "0", count: 3 - m.count) + m + "Z"
  }

  /// Parses an RFC 3339 timestamp with `Z` or an offset (`2026-11-22T09:00:00+01:00`,
  /// fractions allowed, second 60 counts as the next minute's first second); nil for
  /// anything else, including wall-clock times without an offset.
  public static func date(from text: String) -> Date? {
    (try? TimeText(text, option: "timestamp"))?.instant
  }
}

extension Int64 {
  /// Division rounding toward negative infinity.
  func floorDiv(_ d: Int64) -> Int64 {
    let q = self / d
    return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
  }
}

import Foundation

/// RFC 3339 UTC timestamps, the only way instants are written out.
public enum RFC3339 {
  /// Whole milliseconds since 1970, rounded down: the resolution the store keeps and
  /// timestamps show. Rounded to the microsecond first: `Date` counts from 2001, so an
  /// instant given as `…09:00:00.228` comes back a few hundred nanoseconds short, and
  /// rounding that down would move it a millisecond early.
  public static func millisecondsSince1970(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1_000_000).rounded()).floorDiv(1000)
  }

  /// `2026-11-22T08:00:00Z`, with `.123` milliseconds when `milliseconds` is true, or
  /// when it is nil and the instant has a fraction of a second (so an instant written out
  /// and read back is the same to the millisecond).
  public static func string(from date: Date, milliseconds: Bool? = nil) -> String {
    let totalMillis = millisecondsSince1970(date)
    var seconds = time_t(totalMillis.floorDiv(1000))
    let millis = Int(totalMillis - Int64(seconds) * 1000)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    let withMillis = milliseconds ?? (millis != 0)
    let year = Int(parts.tm_year) + 1900
    guard (0...9999).contains(year) else {
      let wall = WallClock(
        year: year, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
        hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
      let fraction = String(1000 + millis).dropFirst()  // 7 -> "007"
      return wall.iso8601 + (withMillis ? "." + fraction : "") + "Z"
    }
    // Written byte by byte into a fixed buffer: this is on the delivery hot path.
    return String(unsafeUninitializedCapacity: 24) { buffer in
      var i = 0
      func put(_ value: Int, digits: Int) {
        var v = value
        for k in stride(from: digits - 1, through: 0, by: -1) {
          buffer[i + k] = UInt8(ascii: "0") + UInt8(v % 10)
          v /= 10
        }
        i += digits
      }
      func put(_ ascii: Unicode.Scalar) {
        buffer[i] = UInt8(ascii: ascii)
        i += 1
      }
      put(year, digits: 4)
      put("-")
      put(Int(parts.tm_mon) + 1, digits: 2)
      put("-")
      put(Int(parts.tm_mday), digits: 2)
      put("T")
      put(Int(parts.tm_hour), digits: 2)
      put(":")
      put(Int(parts.tm_min), digits: 2)
      put(":")
      put(Int(parts.tm_sec), digits: 2)
      if withMillis {
        put(".")
        put(millis, digits: 3)
      }
      put("Z")
      return i
    }
  }

  /// Parses an RFC 3339 timestamp with `Z` or an offset (`2026-11-22T09:00:00+01:00`,
  /// fractions allowed, second 60 counts as the next minute's first second); nil for
  /// anything else, including wall-clock times without an offset.
  public static func date(from text: String) -> Date? {
    (try? TimeText(text, option: .fireDate))?.instant
  }
}

extension Int64 {
  /// Division rounding toward negative infinity.
  func floorDiv(_ d: Int64) -> Int64 {
    let q = self / d
    return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
  }
}

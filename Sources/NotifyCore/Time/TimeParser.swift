import Foundation

/// Parses the command line's time syntax (SPEC.md §2).
public enum TimeParser {
  /// Parses `--in`: `90s`, `10m`, `2h`, `1d`, `1w` and sums such as `1h30m`; must be > 0.
  public static func duration(_ text: String) throws(NotifyError) -> TimeInterval {
    fatalError("implemented by the time-math work")
  }

  /// Parses `--at`. With an RFC 3339 offset or `Z` the result is `.instant` and a
  /// `timeZone` is a usage error; otherwise it is `.wallClock` in `timeZone` (an IANA
  /// name, validated) or `.local`. `HH:MM[:SS]` means the next such time, today or
  /// tomorrow, in that zone, after `now`.
  public static func fireDate(_ text: String, timeZone: String?, now: Date, localZone: TimeZone)
    throws(NotifyError) -> FireDate
  {
    fatalError("implemented by the time-math work")
  }

  /// Parses an instant for `--until`: RFC 3339, or wall-clock resolved in `zone`.
  public static func instant(_ text: String, zone: TimeZone, now: Date) throws(NotifyError) -> Date {
    fatalError("implemented by the time-math work")
  }
}

import Foundation

/// Turns wall-clock components into instants in a zone, with iOS's rules for DST:
/// a time inside a gap moves forward by the gap (02:30 becomes 03:30), a time in a
/// repeated hour resolves to its first instance.
public enum ZoneResolver {
  /// The instant `wall` stands for in `zone`.
  public static func instant(for wall: WallClock, in zone: TimeZone) -> Date {
    fatalError("implemented by the time-math work")
  }

  /// The wall-clock components of `instant` in `zone`.
  public static func wallClock(for instant: Date, in zone: TimeZone) -> WallClock {
    fatalError("implemented by the time-math work")
  }
}

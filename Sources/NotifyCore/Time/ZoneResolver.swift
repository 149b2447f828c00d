import Foundation

/// Turns wall-clock components into instants in a zone, with iOS's rules for DST:
/// a time inside a gap moves forward by the gap (02:30 becomes 03:30), a time in a
/// repeated hour resolves to its first instance.
public enum ZoneResolver {
  /// The instant `wall` stands for in `zone`.
  ///
  /// The components are read as if they were UTC (`L`); the offsets in force a day
  /// before and a day after are the candidates. `L - offset` is a real instance of the
  /// wall time when the zone has that offset at that instant; the earliest real instance
  /// wins (first instance of a repeated hour). When neither is real the time lies in a
  /// gap and the offset from before the transition is used, which moves it forward by
  /// the gap. This is Python zoneinfo's reading with `fold=0`, which the tests check against.
  public static func instant(for wall: WallClock, in zone: Zone) -> Date {
    Date(timeIntervalSince1970: TimeInterval(unixSeconds(for: wall, in: zone)))
  }

  /// The wall-clock components of `instant` in `zone` (sub-second parts are dropped).
  public static func wallClock(for instant: Date, in zone: Zone) -> WallClock {
    let seconds = Zone.unixSeconds(instant)
    return WallClock(localSeconds: seconds + zone.utcOffset(at: seconds))
  }

  /// `instant(for:in:)` in whole Unix seconds.
  package static func unixSeconds(for wall: WallClock, in zone: Zone) -> Int64 {
    let local = wall.localSeconds
    let before = offset(of: zone, at: local - CivilCalendar.secondsPerDay)
    let after = offset(of: zone, at: local + CivilCalendar.secondsPerDay)
    let candidates = before == after ? [before] : [before, after]
    var earliest: Int64?
    for candidate in candidates where offset(of: zone, at: local - candidate) == candidate {
      earliest = min(earliest ?? .max, local - candidate)
    }
    return earliest ?? local - before
  }

  private static func offset(of zone: Zone, at unixSeconds: Int64) -> Int64 {
    zone.utcOffset(at: unixSeconds)
  }
}

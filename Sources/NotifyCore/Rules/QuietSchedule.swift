import Foundation

/// A weekly quiet period in the user's wall-clock time: `from` to `to` on `days`
/// (`notify quiet --from 22:00 --to 07:00 --days mon-fri`).
///
/// A period starts on each of `days` at `from` and ends at the next `to`: the same day when
/// `to` is later than `from`, the day after when it is earlier or equal (22:00–07:00 crosses
/// midnight, 00:00–00:00 lasts a whole day). A Friday 22:00–07:00 period ends on Saturday
/// 07:00 even when Saturday is not one of `days`. Both ends follow SPEC.md §2: a time inside
/// a DST gap moves forward by the gap, a time in a repeated hour is its first instance (a
/// period whose ends thereby cross is empty that day).
public struct QuietSchedule: Hashable, Sendable {
  /// When a period starts, on each of `days`.
  public var from: TimeOfDay
  /// When a period ends: later the same day, or the next day when not after `from`.
  public var to: TimeOfDay
  /// The days a period starts on.
  public var days: Set<Weekday>

  /// Creates a schedule; `days` defaults to every day.
  public init(from: TimeOfDay, to: TimeOfDay, days: Set<Weekday> = Set(Weekday.allCases)) {
    self.from = from
    self.to = to
    self.days = days
  }

  /// A wall-clock time of day, to the minute.
  public struct TimeOfDay: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// 0...23.
    public let hour: Int
    /// 0...59.
    public let minute: Int

    /// Creates a time of day; `hour` must be 0...23 and `minute` 0...59.
    public init(hour: Int, minute: Int) {
      precondition((0...23).contains(hour) && (0...59).contains(minute), "no time of day \(hour):\(minute)")
      self.hour = hour
      self.minute = minute
    }

    /// Minutes since midnight.
    var minuteOfDay: Int { hour * 60 + minute }

    /// `HH:MM`, as the command line and JSON write it.
    public var description: String {
      (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { a.minuteOfDay < b.minuteOfDay }
  }

  /// A day of the week, numbered as ISO 8601 does (Monday is 1).
  public enum Weekday: Int, CaseIterable, Hashable, Sendable, Comparable {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    /// `mon`, `tue`, ...: how the command line and JSON write it.
    public var shortName: String { String(String(describing: self).prefix(3)) }

    /// The weekday of day number `day` (days since 1970-01-01, a Thursday).
    init(dayNumber day: Int64) {
      let daysSinceMonday = day + 3  // day -3, 1969-12-29, was a Monday
      self.init(rawValue: Int(daysSinceMonday - daysSinceMonday.floorDiv(7) * 7) + 1)!
    }

    public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }
  }
}

extension QuietSchedule {
  /// Whether a period is in force at `instant`.
  func isQuiet(at instant: Date, in zone: Zone) -> Bool {
    period(containing: instant, in: zone) != nil
  }

  /// The period in force at `instant`, or nil. When periods overlap (possible only around a
  /// DST change) it is the one that ends last.
  func period(containing instant: Date, in zone: Zone) -> Range<Date>? {
    // A period lasts at most a day and a DST shift, so only those starting from two days
    // before the local date to the day after can hold `instant`.
    let today = Self.dayNumber(of: instant, in: zone)
    return (today - 2...today + 1).compactMap { period(startingOn: $0, in: zone) }
      .filter { $0.contains(instant) }
      .max { $0.upperBound < $1.upperBound }
  }

  /// The first start of a period strictly after `instant`, or nil when there is none.
  func nextStart(after instant: Date, in zone: Zone) -> Date? {
    guard !days.isEmpty else { return nil }
    // Two weeks: one to meet every weekday, one more in case a DST change empties a period.
    let today = Self.dayNumber(of: instant, in: zone)
    return (today - 1...today + 14).lazy.compactMap { self.period(startingOn: $0, in: zone)?.lowerBound }
      .first { $0 > instant }
  }

  /// The period that starts on day number `day`, or nil when `day` is not one of `days` or
  /// a DST change leaves the period empty.
  func period(startingOn day: Int64, in zone: Zone) -> Range<Date>? {
    guard days.contains(Weekday(dayNumber: day)) else { return nil }
    let start = Self.instant(day: day, time: from, in: zone)
    let end = Self.instant(day: to > from ? day : day + 1, time: to, in: zone)
    return start < end ? start..<end : nil
  }

  /// The day number of `instant`'s local date in `zone`.
  static func dayNumber(of instant: Date, in zone: Zone) -> Int64 {
    let wall = ZoneResolver.wallClock(for: instant, in: zone)
    return CivilCalendar.dayNumber(year: wall.year, month: wall.month, day: wall.day)
  }

  /// `time` on day number `day` in `zone`, resolved as SPEC.md §2 says.
  static func instant(day: Int64, time: TimeOfDay, in zone: Zone) -> Date {
    let date = CivilCalendar.date(dayNumber: day)
    let wall = WallClock(
      year: date.year, month: date.month, day: date.day, hour: time.hour, minute: time.minute)
    return ZoneResolver.instant(for: wall, in: zone)
  }
}

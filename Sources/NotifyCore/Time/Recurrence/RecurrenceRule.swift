import Foundation

/// A calendar rule a notification repeats by: RFC 5545's RRULE, with excluded dates
/// (EXDATE). The rule speaks in wall-clock times of the notification's zone; its start
/// (DTSTART) is the notification's fire date.
///
/// ```swift
/// let rule = try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE")
/// rule.text   // "FREQ=WEEKLY;BYDAY=MO,WE", the canonical form
/// ```
///
/// The supported parts are FREQ (MINUTELY to YEARLY), INTERVAL, BYSECOND, BYMINUTE,
/// BYHOUR, BYDAY (with ordinals for MONTHLY and YEARLY), BYMONTHDAY (negative counts
/// from the month's end), BYMONTH, BYSETPOS, COUNT, UNTIL and WKST. A rule is checked
/// when it is made: see `RecurrenceRuleError`.
public struct RecurrenceRule: Hashable, Sendable {
  /// How often the rule's periods come (FREQ).
  public enum Frequency: String, CaseIterable, Hashable, Sendable, Comparable {
    case minutely = "MINUTELY"
    case hourly = "HOURLY"
    case daily = "DAILY"
    case weekly = "WEEKLY"
    case monthly = "MONTHLY"
    case yearly = "YEARLY"

    /// Finer frequencies sort first.
    public static func < (a: Frequency, b: Frequency) -> Bool {
      allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
  }

  /// A day of the week; the raw value counts from Monday (0) as ISO 8601 does.
  public enum Weekday: Int, CaseIterable, Hashable, Sendable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The RFC 5545 code: `MO`, `TU`, ...
    public var code: String { ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][rawValue] }

    /// The weekday of day number `day` (days since 1970-01-01, a Thursday).
    static func of(dayNumber day: Int64) -> Weekday {
      Weekday(rawValue: Int((day + 3).floorMod(7)))!
    }
  }

  /// One BYDAY entry: a weekday, optionally the nth (or nth from last, when negative)
  /// of the month or year.
  public struct WeekdayEntry: Hashable, Sendable, Comparable {
    /// `nil` for every such weekday; otherwise ±1...53.
    public var ordinal: Int?
    /// The weekday.
    public var weekday: Weekday

    /// Creates an entry: `.init(ordinal: -1, weekday: .friday)` is the last Friday.
    public init(ordinal: Int? = nil, weekday: Weekday) {
      self.ordinal = ordinal
      self.weekday = weekday
    }

    /// `MO`, `2TU`, `-1FR`.
    public var text: String { (ordinal.map(String.init) ?? "") + weekday.code }

    public static func < (a: WeekdayEntry, b: WeekdayEntry) -> Bool {
      (a.ordinal ?? 0, a.weekday.rawValue) < (b.ordinal ?? 0, b.weekday.rawValue)
    }
  }

  /// A calendar day with no time (a DATE value).
  public struct Day: Hashable, Sendable, Comparable {
    public var year: Int
    public var month: Int
    public var day: Int

    /// Creates a day; `isValid` tells whether it exists.
    public init(year: Int, month: Int, day: Int) {
      self.year = year
      self.month = month
      self.day = day
    }

    /// Whether the day exists in the proleptic Gregorian calendar.
    public var isValid: Bool {
      (1...9999).contains(year) && (1...12).contains(month) && day >= 1
        && day <= CivilCalendar.daysInMonth(month, of: year)
    }

    public static func < (a: Day, b: Day) -> Bool {
      (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }
  }

  /// The end of a rule (UNTIL), inclusive.
  public enum Until: Hashable, Sendable {
    /// An instant (`UNTIL=20261231T230000Z`): occurrences after it do not happen.
    case instant(Date)
    /// A wall-clock time in the notification's zone (`UNTIL=20261231T090000`).
    case wallClock(WallClock)
    /// A whole day in the notification's zone (`UNTIL=20261231`): occurrences on it
    /// still happen.
    case day(Day)
  }

  /// An excluded date (EXDATE).
  public enum Exclusion: Hashable, Sendable, Comparable {
    /// The occurrence at exactly this wall-clock time (as the rule makes it, before a
    /// DST gap moves it) does not happen.
    case wallClock(WallClock)
    /// No occurrence on this day happens.
    case day(Day)

    var sortKey: WallClock {
      switch self {
      case .wallClock(let wall): wall
      case .day(let day): WallClock(year: day.year, month: day.month, day: day.day, hour: -1)
      }
    }

    public static func < (a: Exclusion, b: Exclusion) -> Bool { a.sortKey < b.sortKey }
  }

  /// FREQ.
  public var frequency: Frequency
  /// INTERVAL, 1 or more: every `interval` periods.
  public var interval: Int
  /// BYSECOND, 0...59.
  public var bySecond: [Int]
  /// BYMINUTE, 0...59.
  public var byMinute: [Int]
  /// BYHOUR, 0...23.
  public var byHour: [Int]
  /// BYDAY.
  public var byDay: [WeekdayEntry]
  /// BYMONTHDAY, ±1...31 (negative from the month's end: -1 is the last day).
  public var byMonthDay: [Int]
  /// BYMONTH, 1...12.
  public var byMonth: [Int]
  /// BYSETPOS, ±1...366: which of each period's occurrences to keep.
  public var bySetPosition: [Int]
  /// COUNT: the number of occurrences the rule makes, from its start.
  public var count: Int?
  /// UNTIL, inclusive.
  public var until: Until?
  /// WKST: the day weeks start on, for WEEKLY rules with an INTERVAL above 1.
  public var weekStart: Weekday
  /// EXDATE: occurrences left out (they still count toward COUNT, as RFC 5545 says).
  public var exclusions: [Exclusion]

  /// Creates a rule and checks it (`RecurrenceRuleError` names the part that is wrong).
  /// Lists are sorted and their duplicates dropped, as the canonical text has them.
  public init(
    frequency: Frequency, interval: Int = 1, bySecond: [Int] = [], byMinute: [Int] = [], byHour: [Int] = [],
    byDay: [WeekdayEntry] = [], byMonthDay: [Int] = [], byMonth: [Int] = [], bySetPosition: [Int] = [],
    count: Int? = nil, until: Until? = nil, weekStart: Weekday = .monday, exclusions: [Exclusion] = []
  ) throws(RecurrenceRuleError) {
    self.frequency = frequency
    self.interval = interval
    self.bySecond = Array(Set(bySecond)).sorted()
    self.byMinute = Array(Set(byMinute)).sorted()
    self.byHour = Array(Set(byHour)).sorted()
    self.byDay = Array(Set(byDay)).sorted()
    self.byMonthDay = Array(Set(byMonthDay)).sorted()
    self.byMonth = Array(Set(byMonth)).sorted()
    self.bySetPosition = Array(Set(bySetPosition)).sorted()
    self.count = count
    self.until = until
    self.weekStart = weekStart
    self.exclusions = Array(Set(exclusions)).sorted()
    try validate()
  }
}

extension BinaryInteger {
  /// The remainder that is never negative (floor modulo).
  func floorMod(_ divisor: Self) -> Self {
    let r = self % divisor
    return r < 0 ? r + divisor : r
  }
}

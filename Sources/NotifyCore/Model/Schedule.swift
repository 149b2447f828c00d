import Foundation

/// When a notification fires and how it repeats. See SPEC.md §2.
public struct Schedule: Hashable, Sendable {
  /// The anchor: the first fire date. Repeats are computed from it, never from the
  /// previous occurrence, so they do not drift.
  public var fireDate: FireDate
  /// The repeat unit, or `nil` for a notification that fires once or repeats by `rule`.
  public var repeatInterval: RepeatInterval?
  /// The calendar rule the notification repeats by (RFC 5545 RRULE), with the fire date
  /// as its start; `nil` when it fires once or repeats by `repeatInterval`. A schedule
  /// has at most one of the two.
  public var rule: RecurrenceRule?
  /// The total number of occurrences, or `nil` for no limit.
  public var repeatCount: Int?
  /// The last instant an occurrence may fall on, or `nil` for no limit.
  public var until: Date?

  /// Creates a schedule.
  public init(
    fireDate: FireDate, repeatInterval: RepeatInterval? = nil, repeatCount: Int? = nil,
    until: Date? = nil
  ) {
    self.fireDate = fireDate
    self.repeatInterval = repeatInterval
    self.repeatCount = repeatCount
    self.until = until
  }

  /// Creates a schedule that repeats by `rule` from `fireDate`. `repeatCount` and `until`
  /// are the rule's COUNT and UNTIL: they are written into the rule (which must not have
  /// its own), so the rule alone says where it ends.
  public init(fireDate: FireDate, rule: RecurrenceRule, repeatCount: Int? = nil, until: Date? = nil)
    throws(RecurrenceRuleError)
  {
    var rule = rule
    if let repeatCount {
      guard rule.count == nil, rule.until == nil else {
        throw RecurrenceRuleError(
          part: rule.count.map { "COUNT=\($0)" } ?? "UNTIL",
          "the rule has its own end and a repeat count was given too",
          fix: "give the end once: in the rule or as the repeat count")
      }
      rule.count = repeatCount
    }
    if let until {
      guard rule.count == nil, rule.until == nil else {
        throw RecurrenceRuleError(
          part: rule.count.map { "COUNT=\($0)" } ?? "UNTIL",
          "the rule has its own end and an until instant was given too",
          fix: "give the end once: in the rule or as the until instant")
      }
      rule.until = .instant(until)
    }
    try rule.validate()
    self.init(fireDate: fireDate)
    self.rule = rule
  }
}

/// The anchor of a schedule: an absolute instant, or wall-clock components in a zone.
public enum FireDate: Hashable, Sendable {
  /// An absolute instant (iOS `timeZone = nil`).
  case instant(Date)
  /// A wall-clock time, resolved in `zone` at fire time.
  case wallClock(WallClock, ZoneRule)
}

/// The zone a wall-clock fire date is resolved in.
public enum ZoneRule: Hashable, Sendable {
  /// Follows the system time zone at fire time (iOS `defaultTimeZone`).
  case local
  /// A fixed IANA zone such as `Europe/Berlin`.
  case named(String)

  /// The JSON / store spelling: `"local"` or the IANA identifier.
  public var identifier: String {
    switch self {
    case .local: "local"
    case .named(let name): name
    }
  }

  /// Parses the store spelling back.
  public init(identifier: String) {
    self = identifier == "local" ? .local : .named(identifier)
  }

  /// The concrete zone, given the system zone that `local` stands for right now and the
  /// database names are read from. An unknown name (a zone removed from tzdata since
  /// scheduling) falls back to UTC.
  public func resolve(zones: Zones) -> Zone {
    zones.resolve(self)
  }
}

/// Calendar components of a wall-clock time, with no zone attached.
public struct WallClock: Hashable, Sendable, Comparable {
  public var year: Int
  public var month: Int
  public var day: Int
  public var hour: Int
  public var minute: Int
  public var second: Int

  /// Creates wall-clock components; no validation is done here.
  public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
    self.second = second
  }

  /// `YYYY-MM-DDTHH:MM:SS`, the JSON spelling of `wallClock`.
  public var iso8601: String {
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    let y = String(year)
    let year4 = String(repeating: "0", count: max(0, 4 - y.count)) + y
    return "\(year4)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))"
  }

  public static func < (a: WallClock, b: WallClock) -> Bool {
    (a.year, a.month, a.day, a.hour, a.minute, a.second)
      < (b.year, b.month, b.day, b.hour, b.minute, b.second)
  }
}

/// The unit a notification repeats by (`NSCalendarUnit` in iOS terms).
public enum RepeatInterval: String, CaseIterable, Hashable, Sendable {
  case minute, hour, day, week, month, year
}

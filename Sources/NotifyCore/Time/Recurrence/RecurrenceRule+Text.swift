import Foundation

extension RecurrenceRule {
  /// The canonical RRULE value: parts in a fixed order, lists sorted, defaults
  /// (INTERVAL=1, WKST=MO) left out, no EXDATE. Parsing it gives the same rule back.
  public var ruleText: String {
    var parts = ["FREQ=\(frequency.rawValue)"]
    if interval != 1 { parts.append("INTERVAL=\(interval)") }
    func list(_ name: String, _ values: [Int]) {
      if !values.isEmpty { parts.append("\(name)=\(values.map(String.init).joined(separator: ","))") }
    }
    list("BYMONTH", byMonth)
    list("BYMONTHDAY", byMonthDay)
    if !byDay.isEmpty { parts.append("BYDAY=\(byDay.map(\.text).joined(separator: ","))") }
    list("BYHOUR", byHour)
    list("BYMINUTE", byMinute)
    list("BYSECOND", bySecond)
    list("BYSETPOS", bySetPosition)
    if weekStart != .monday { parts.append("WKST=\(weekStart.code)") }
    if let count { parts.append("COUNT=\(count)") }
    switch until {
    case .instant(let date)?: parts.append("UNTIL=\(Self.utcText(date))")
    case .wallClock(let wall)?: parts.append("UNTIL=\(wall.ruleText)")
    case .day(let day)?: parts.append("UNTIL=\(day.text)")
    case nil: break
    }
    return parts.joined(separator: ";")
  }

  /// The canonical text with the excluded dates: the RRULE value, then
  /// `\nEXDATE:` and the dates when there are any. This is what the store keeps.
  public var text: String {
    exclusions.isEmpty ? ruleText : ruleText + "\nEXDATE:" + exclusions.map(\.text).joined(separator: ",")
  }

  /// `YYYYMMDDTHHMMSSZ` (whole seconds, rounded down).
  static func utcText(_ date: Date) -> String {
    WallClock(localSeconds: Int64(date.timeIntervalSince1970.rounded(.down))).ruleText + "Z"
  }
}

extension RecurrenceRule.Exclusion {
  /// `YYYYMMDDTHHMMSS` or `YYYYMMDD`.
  public var text: String {
    switch self {
    case .wallClock(let wall): wall.ruleText
    case .day(let day): day.text
    }
  }

  /// The JSON spelling: `YYYY-MM-DDTHH:MM:SS` or `YYYY-MM-DD`.
  public var isoText: String {
    switch self {
    case .wallClock(let wall): wall.iso8601
    case .day(let day): String(format: "%04d-%02d-%02d", day.year, day.month, day.day)
    }
  }
}

extension RecurrenceRule.Day {
  /// `YYYYMMDD`.
  public var text: String { String(format: "%04d%02d%02d", year, month, day) }
}

extension WallClock {
  /// `YYYYMMDDTHHMMSS`, RFC 5545's local DATE-TIME.
  var ruleText: String { String(format: "%04d%02d%02dT%02d%02d%02d", year, month, day, hour, minute, second) }
}

/// The short forms `notify schedule` takes for a rule: `--every 2w` and `--on mon,wed`.
extension RecurrenceRule {
  /// A rule from `every` (`2w`: a count and a unit, `m h d w mo y` or their names,
  /// `week`, `2weeks`) and `on` (weekdays `mon,wed` or `mon-fri`, month days `1,15` or
  /// `-1`/`last`, nth weekdays `last-fri`, `-1fri`, `2nd-tue`, `first-mon`). Without
  /// `every`, weekdays repeat weekly and month days or nth weekdays monthly.
  ///
  /// Errors name the flag (`--every`, `--on`) in `part`.
  public static func shortForm(every: String?, on: String?, exclusions: [Exclusion] = [])
    throws(RecurrenceRuleError) -> RecurrenceRule
  {
    var frequency: Frequency?
    var interval = 1
    if let every {
      (frequency, interval) = try parseEvery(every)
    }
    var byDay: [WeekdayEntry] = []
    var byMonthDay: [Int] = []
    // The items as written, by kind, for the message that refuses mixing them.
    var weekdayItems: [String] = []
    var monthDayItems: [String] = []
    if let on {
      for item in on.lowercased().split(separator: ",", omittingEmptySubsequences: false) {
        let text = String(item).trimmingCharacters(in: .whitespaces)
        if let days = weekdayRange(text) {
          byDay += days.map { WeekdayEntry(weekday: $0) }
          weekdayItems.append(text)
        } else if text == "last" {
          byMonthDay.append(-1)
          monthDayItems.append(text)
        } else if let day = Int(text), day != 0, abs(day) <= 31 {
          byMonthDay.append(day)
          monthDayItems.append(text)
        } else if let entry = nthWeekday(text) {
          byDay.append(entry)
          weekdayItems.append(text)
        } else {
          throw RecurrenceRuleError(
            part: "--on \(visible(text))", "not a weekday, a month day or an nth weekday",
            fix: "use e.g. mon,wed or mon-fri, 1,15 or last, last-fri, -1fri or 2nd-tue")
        }
      }
    }
    if !byDay.isEmpty, !byMonthDay.isEmpty {
      throw mixedKinds(
        on: on ?? "", weekdays: weekdayItems, monthDays: monthDayItems, frequency: frequency,
        interval: interval,
        byDay: byDay, byMonthDay: byMonthDay)
    }
    let hasNth = byDay.contains { $0.ordinal != nil }
    let resolved = frequency ?? (hasNth || !byMonthDay.isEmpty ? .monthly : .weekly)
    if hasNth, resolved != .monthly, resolved != .yearly {
      throw RecurrenceRuleError(
        part: "--on \(visible(on ?? ""))", "an nth weekday needs a monthly or yearly repeat",
        fix: "use --every 1mo (or leave --every out)")
    }
    if !byMonthDay.isEmpty, resolved == .weekly {
      throw RecurrenceRuleError(
        part: "--on \(visible(on ?? ""))", "month days do not go with a weekly repeat",
        fix: "use --every 1mo (or leave --every out)")
    }
    return try RecurrenceRule(
      frequency: resolved, interval: interval, byDay: byDay, byMonthDay: byMonthDay, exclusions: exclusions)
  }

  /// Weekdays and month days in one `--on` list: as RFC 5545 parts they intersect
  /// (`mon,15` would be a Monday the 15th), while a list reads as "either". A rule cannot
  /// say "either", so the list is refused (64) with both ways to say what was meant.
  private static func mixedKinds(
    on: String, weekdays: [String], monthDays: [String], frequency: Frequency?, interval: Int,
    byDay: [WeekdayEntry], byMonthDay: [Int]
  ) -> RecurrenceRuleError {
    let days = visible(weekdays.joined(separator: ","))
    let dates = visible(monthDays.joined(separator: ","))
    // Month days need a monthly (or yearly) rule; another unit's interval would not carry over.
    let keepsUnit = frequency == .monthly || frequency == .yearly
    let intersection = try? RecurrenceRule(
      frequency: frequency == .yearly ? .yearly : .monthly, interval: keepsUnit ? interval : 1, byDay: byDay,
      byMonthDay: byMonthDay)
    let rrule = intersection.map { " (or, for days that are both, --rrule '\($0.ruleText)')" } ?? ""
    return RecurrenceRuleError(
      part: "--on \(visible(on))",
      "mixes weekdays (\(days)) and days of the month (\(dates)), and a rule cannot mean 'either'",
      fix: "schedule two notifications, one --on \(days) and one --on \(dates)\(rrule)", kind: .usage)
  }

  private static func parseEvery(_ text: String) throws(RecurrenceRuleError) -> (Frequency, Int) {
    let lower = text.lowercased()
    let digits = lower.prefix(while: { $0.isASCII && $0.isNumber })
    let unit = lower.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
    let units: [String: Frequency] = [
      "m": .minutely, "min": .minutely, "minute": .minutely, "minutes": .minutely,
      "h": .hourly, "hour": .hourly, "hours": .hourly,
      "d": .daily, "day": .daily, "days": .daily,
      "w": .weekly, "week": .weekly, "weeks": .weekly,
      "mo": .monthly, "month": .monthly, "months": .monthly,
      "y": .yearly, "year": .yearly, "years": .yearly,
    ]
    guard let frequency = units[unit], digits.count <= 6, let count = digits.isEmpty ? 1 : Int(digits),
      (1...maxInterval).contains(count)
    else {
      throw RecurrenceRuleError(
        part: "--every \(visible(text))", "not a count and a unit",
        fix: "use e.g. 2w, 3d, 90m, 1mo or 1y (units m h d w mo y)")
    }
    return (frequency, count)
  }

  private static let weekdayNames: [(short: String, long: String)] = [
    ("mon", "monday"), ("tue", "tuesday"), ("wed", "wednesday"), ("thu", "thursday"), ("fri", "friday"),
    ("sat", "saturday"), ("sun", "sunday"),
  ]

  private static func weekday(_ text: String) -> Weekday? {
    weekdayNames.firstIndex {
      $0.short == text || $0.long == text || ($0.short.prefix(2) == text && text.count == 2)
    }
    .flatMap { Weekday(rawValue: $0) }
  }

  /// `mon`, `monday`, or a range `mon-fri` (wrapping: `fri-mon`).
  private static func weekdayRange(_ text: String) -> [Weekday]? {
    if let day = weekday(text) { return [day] }
    let ends = text.split(separator: "-", omittingEmptySubsequences: false)
    guard ends.count == 2, let first = weekday(String(ends[0])), let last = weekday(String(ends[1])) else {
      return nil
    }
    let length = (last.rawValue - first.rawValue).floorMod(7) + 1
    return (0..<length).map { Weekday(rawValue: (first.rawValue + $0) % 7)! }
  }

  /// `last-fri`, `first-mon`, `2nd-tue`, `-1fri`, `2tue`.
  private static func nthWeekday(_ text: String) -> WeekdayEntry? {
    let words = [
      "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1, "1st": 1, "2nd": 2,
      "3rd": 3, "4th": 4, "5th": 5,
    ]
    let parts = text.split(separator: "-", maxSplits: 1).map(String.init)
    if parts.count == 2, let ordinal = words[parts[0]], let day = weekday(parts[1]) {
      return WeekdayEntry(ordinal: ordinal, weekday: day)
    }
    let sign = text.hasPrefix("-") ? -1 : 1
    let body = text.drop(while: { $0 == "-" || $0 == "+" })
    guard text.count - body.count <= 1 else { return nil }
    let digits = body.prefix(while: { $0.isASCII && $0.isNumber })
    guard (1...2).contains(digits.count), let number = Int(digits), (1...5).contains(number),
      let day = weekday(String(body.dropFirst(digits.count)))
    else { return nil }
    return WeekdayEntry(ordinal: sign * number, weekday: day)
  }
}

extension RecurrenceRule {
  /// The largest INTERVAL and COUNT accepted: far beyond any use, far from overflow.
  static let maxInterval = 100_000
  static let maxCount = 1_000_000_000

  /// Checks the parts against each other (RFC 5545 §3.3.10, and what notify supports).
  func validate() throws(RecurrenceRuleError) {
    func fail(_ part: String, _ problem: String, _ fix: String) -> RecurrenceRuleError {
      RecurrenceRuleError(part: part, problem, fix: fix)
    }
    guard (1...Self.maxInterval).contains(interval) else {
      throw fail(
        "INTERVAL=\(interval)", "the interval is 1 to \(Self.maxInterval)", "give a positive INTERVAL")
    }
    if let count, !(1...Self.maxCount).contains(count) {
      throw fail(
        "COUNT=\(count)", "COUNT is 1 to \(Self.maxCount)", "give the number of occurrences, 1 or more")
    }
    if count != nil, until != nil {
      throw fail(
        "COUNT", "COUNT and UNTIL were both given (RFC 5545 allows one end)", "keep COUNT or UNTIL, not both")
    }
    for (name, values, range) in [
      ("BYSECOND", bySecond, 0...59), ("BYMINUTE", byMinute, 0...59), ("BYHOUR", byHour, 0...23),
      ("BYMONTH", byMonth, 1...12),
    ] {
      if let bad = values.first(where: { !range.contains($0) }) {
        let note = name == "BYSECOND" && bad == 60 ? " (Unix time has no leap seconds)" : ""
        throw fail(
          "\(name)=\(bad)", "\(name) takes \(range.lowerBound) to \(range.upperBound)\(note)",
          "use values from \(range.lowerBound) to \(range.upperBound)")
      }
    }
    if bySecond.count > 1 {
      // Two seconds would fire twice a minute: refused as SECONDLY is.
      throw fail(
        "BYSECOND=\(bySecond.map(String.init).joined(separator: ","))",
        "more than one second a minute",
        "notify repeats at most once a minute: give one BYSECOND, or leave it out")
    }
    if let bad = byMonthDay.first(where: { $0 == 0 || abs($0) > 31 }) {
      throw fail(
        "BYMONTHDAY=\(bad)", "a month day is 1 to 31, or -31 to -1 counted from the month's end",
        "use e.g. BYMONTHDAY=1,15 or BYMONTHDAY=-1 for the last day")
    }
    if let bad = bySetPosition.first(where: { $0 == 0 || abs($0) > 366 }) {
      throw fail(
        "BYSETPOS=\(bad)", "a set position is 1 to 366, or -366 to -1 counted from the end",
        "use e.g. BYSETPOS=1 for the first or BYSETPOS=-1 for the last")
    }
    for entry in byDay {
      guard let ordinal = entry.ordinal else { continue }
      guard ordinal != 0, abs(ordinal) <= 53 else {
        throw fail(
          "BYDAY=\(entry.text)", "a weekday's ordinal is 1 to 53 or -53 to -1",
          "use e.g. 1MO for the first Monday or -1FR for the last Friday")
      }
      guard frequency == .monthly || frequency == .yearly else {
        throw fail(
          "BYDAY=\(entry.text)",
          "an ordinal weekday (the nth of a month or year) needs FREQ=MONTHLY or YEARLY",
          "drop the number (BYDAY=\(entry.weekday.code)) or use FREQ=MONTHLY")
      }
      if frequency == .monthly || !byMonth.isEmpty, abs(ordinal) > 5 {
        throw fail(
          "BYDAY=\(entry.text)", "a month has at most 5 of each weekday, so this never happens",
          "use 1 to 5, or -5 to -1 from the month's end")
      }
    }
    if frequency == .weekly, !byMonthDay.isEmpty {
      throw fail(
        "BYMONTHDAY=\(byMonthDay.map(String.init).joined(separator: ","))",
        "BYMONTHDAY does not apply to FREQ=WEEKLY (RFC 5545)", "use FREQ=MONTHLY for days of the month")
    }
    if !bySetPosition.isEmpty,
      bySecond.isEmpty && byMinute.isEmpty && byHour.isEmpty && byDay.isEmpty && byMonthDay.isEmpty
        && byMonth.isEmpty
    {
      throw fail(
        "BYSETPOS=\(bySetPosition.map(String.init).joined(separator: ","))",
        "BYSETPOS picks among the occurrences other BY parts make, and there are none",
        "add e.g. BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1 (the last weekday)")
    }
    if let bad = exclusions.first(where: { !$0.isValid }) {
      throw fail("EXDATE:\(bad.text)", "the date does not exist", "give a real date and time")
    }
    if case .day(let day)? = until, !day.isValid {
      throw fail("UNTIL=\(day.text)", "the date does not exist", "give a real date")
    }
    if case .wallClock(let wall)? = until, !wall.isValid {
      throw fail("UNTIL=\(wall.ruleText)", "the date-time does not exist", "give a real date and time")
    }
  }
}

extension RecurrenceRule.Exclusion {
  /// Whether the date (and time) exists, in years 1 to 9999.
  public var isValid: Bool {
    switch self {
    case .wallClock(let wall): wall.isValid && (1...9999).contains(wall.year)
    case .day(let day): day.isValid
    }
  }
}

extension Schedule {
  /// The schedule with `repeatCount` and `until` written into its rule as COUNT and
  /// UNTIL, so that the rule alone says where it ends (what the store keeps). Unchanged
  /// without a rule. Throws when both the rule and the schedule give an end.
  public func withRuleEnds() throws(NotifyError) -> Schedule {
    guard let rule, repeatCount != nil || until != nil else { return self }
    do {
      return try Schedule(fireDate: fireDate, rule: rule, repeatCount: repeatCount, until: until)
    } catch {
      throw error.notifyError
    }
  }

  /// The error for a rule schedule with no occurrence: the contradicting parts when they
  /// can be named, else the rule as a whole.
  public var neverFiresError: NotifyError {
    guard let rule else {
      return NotifyError(.invalidData, "the schedule has no occurrence", fix: "check its fire date and end")
    }
    if let contradiction = rule.contradiction { return contradiction.notifyError }
    let start: WallClock
    switch fireDate {
    case .instant(let date): start = WallClock(localSeconds: Int64(date.timeIntervalSince1970.rounded(.down)))
    case .wallClock(let wall, _): start = wall
    }
    if let unreachable = RuleExpansion(rule: rule, start: start).unreachableTimes {
      return unreachable.notifyError
    }
    return RecurrenceRuleError(
      part: RecurrenceRule.visible(rule.ruleText),
      "the rule has no occurrence at or after the fire date (within its COUNT, UNTIL and the next 10,000 years)",
      fix: "check that its BY parts can meet on a real date and that UNTIL is after the fire date"
    ).notifyError
  }
}

extension RecurrenceRule {
  /// BY parts that can never meet whatever the start: month days that none of the months
  /// has (`BYMONTH=2;BYMONTHDAY=30`), or an nth weekday no month has.
  var contradiction: RecurrenceRuleError? {
    let months = byMonth.isEmpty ? Array(1...12) : byMonth
    // February counts 29 days: a leap year has them.
    let longest = { (month: Int) in month == 2 ? 29 : CivilCalendar.daysInMonth(month, of: 2001) }
    if !byMonthDay.isEmpty,
      !months.contains(where: { month in byMonthDay.contains { abs($0) <= longest(month) } })
    {
      let monthPart = byMonth.isEmpty ? "" : "BYMONTH=\(byMonth.map(String.init).joined(separator: ","));"
      return RecurrenceRuleError(
        part: "\(monthPart)BYMONTHDAY=\(byMonthDay.map(String.init).joined(separator: ","))",
        "no month of the rule has such a day, so the rule never fires",
        fix: "use days the months have (February has 28 or 29, April, June, September and November 30)")
    }
    return nil
  }
}

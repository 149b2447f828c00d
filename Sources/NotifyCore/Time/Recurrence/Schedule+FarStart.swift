import Foundation

extension RuleContext {
  /// The most periods a rule is walked to number its occurrences: what a firer may spend on
  /// one rule whose times cannot be counted by period arithmetic
  /// (`RuleExpansion.fixedCountPerPeriod` is nil), from its start to now.
  static let walkBound = 100_000
}

extension Schedule {
  /// The error for a rule that starts so long before `now` that numbering its occurrences
  /// up to now (SPEC.md §5) would cost a firer more than `RuleContext.walkBound` periods:
  /// its BY parts make a number of times that varies from period to period, so no
  /// arithmetic jumps over them. Nil when the rule's times are counted (any start is then
  /// as cheap as last week's) or the walk to now stays within the bound.
  ///
  /// The check walks at most the bound itself, once, when the rule is scheduled.
  public func farStartError(now: Date, zones: Zones) -> NotifyError? {
    guard let rule else { return nil }
    let start: WallClock
    let zone: Zone?
    switch fireDate {
    case .instant(let date):
      start = WallClock(localSeconds: Int64(date.timeIntervalSince1970.rounded(.down)))
      zone = nil
    case .wallClock(let wall, let zoneRule):
      start = wall
      zone = zoneRule.resolve(zones: zones)
    }
    let context = RuleContext(rule: rule, start: start, zone: zone)
    guard !context.isCounted else { return nil }
    let limit = Int64(now.timeIntervalSince1970.rounded(.down))
    var cursor = RuleCursor(context: context)
    while cursor.steps <= RuleContext.walkBound {
      guard let (_, item) = cursor.next(), item.instant < limit else { return nil }
    }
    let periods = context.expansion.period(containing: limit) + 1
    // The day filters make a DAILY or finer rule's times vary; a coarser one's cycle is
    // too long to count when any of its BY parts do.
    let varying =
      rule.frequency <= .daily
      ? ["BYMONTH=", "BYDAY=", "BYMONTHDAY="] : ["BYMONTH=", "BYDAY=", "BYMONTHDAY=", "BYHOUR=", "BYMINUTE="]
    let parts = rule.ruleText.split(separator: ";").filter { part in varying.contains { part.hasPrefix($0) } }
    let frequency = rule.frequency.rawValue.lowercased()
    return RecurrenceRuleError(
      part: parts.isEmpty ? "DTSTART=\(start.iso8601)" : parts.joined(separator: ";"),
      "the start \(start.iso8601) is \(Self.roughly(periods)) \(frequency) periods before now, and these parts keep a number of times that varies from period to period, so numbering the occurrences walks every period from the start; a rule may be walked at most \(Self.grouped(Int64(RuleContext.walkBound))) periods",
      fix:
        "start it later (within \(Self.grouped(Int64(RuleContext.walkBound))) \(frequency) periods of now), or drop these parts"
    ).notifyError
  }

  /// `535 million`, `1,234,567`.
  private static func roughly(_ number: Int64) -> String {
    number >= 10_000_000 ? "\(number / 1_000_000) million" : grouped(number)
  }

  /// `100,000`, whatever the locale.
  private static func grouped(_ number: Int64) -> String {
    var digits = String(number)
    var groups: [Substring] = []
    while digits.count > 3 {
      groups.insert(Substring(digits.suffix(3)), at: 0)
      digits.removeLast(3)
    }
    return ([Substring(digits)] + groups).joined(separator: ",")
  }
}

import Foundation

extension Schedule {
  /// The zone a `local` wall-clock schedule's next instant is computed in right now
  /// (`zones.local`'s name); nil for schedules that do not follow the system zone.
  public func resolvedZone(zones: Zones) -> String? {
    if case .wallClock(_, .local) = fireDate { return zones.local.identifier }
    return nil
  }

  /// The instant of occurrence `index` (0-based; 0 is the anchor), or nil when the
  /// schedule has no such occurrence (not repeating, past `repeatCount` or `until`).
  /// `zones.local` is what the `local` zone stands for now.
  ///
  /// `minute` and `hour` add elapsed time to the anchor's instant; `day`, `week`, `month`
  /// and `year` add calendar units to the anchor's wall-clock components in the
  /// notification's zone (UTC for absolute anchors), clamp a missing day to the month's
  /// last day, and resolve DST with `ZoneResolver`. Leap seconds do not exist (Unix time).
  public func occurrence(_ index: Int, zones: Zones) -> Date? {
    if let bounded = ruleSequence(zones: zones) { return bounded.occurrence(index) }
    return OccurrenceSequence(self, zones: zones).occurrence(index)
  }

  /// The first occurrence at or after `instant`, starting the search at `index`.
  ///
  /// Cost is logarithmic in the distance from a direct estimate, so a minute repeat
  /// anchored years ago is as cheap as a fresh one.
  public func firstOccurrence(atOrAfter instant: Date, from index: Int = 0, zones: Zones)
    -> (index: Int, date: Date)?
  {
    if let bounded = ruleSequence(zones: zones) {
      return bounded.first(atOrAfter: instant, from: index)
    }
    return OccurrenceSequence(self, zones: zones).first(atOrAfter: instant, from: index)
  }

  /// The latest occurrence at or before `instant`, not earlier than `index`.
  ///
  /// Occurrences past `repeatCount` or `until` are never returned; the search is as cheap
  /// as `firstOccurrence(atOrAfter:from:zones:)`.
  public func latestOccurrence(atOrBefore instant: Date, from index: Int = 0, zones: Zones)
    -> (index: Int, date: Date)?
  {
    if let bounded = ruleSequence(zones: zones) {
      return bounded.latest(atOrBefore: instant, from: index)
    }
    return OccurrenceSequence(self, zones: zones).latest(atOrBefore: instant, from: index)
  }

  /// Up to `count` occurrence instants starting at occurrence `index`.
  public func upcoming(_ count: Int, from index: Int = 0, zones: Zones) -> [Date] {
    let sequence = OccurrenceSequence(self, zones: zones)
    let bounded = ruleSequence(zones: zones)
    let occurrence = { (index: Int) in bounded.map { $0.occurrence(index) } ?? sequence.occurrence(index) }
    var dates: [Date] = []
    var next = max(index, 0)
    while dates.count < count, let date = occurrence(next) {
      dates.append(date)
      next += 1
    }
    return dates
  }
}

extension Schedule {
  /// The rule's occurrences in the zone `zones` resolves it to, with the schedule's own
  /// `repeatCount` and `until` applied on top of the rule's COUNT and UNTIL (the
  /// earlier end wins); nil for schedules without a rule.
  fileprivate func ruleSequence(zones: Zones) -> BoundedRuleSequence? {
    guard let rule else { return nil }
    let sequence: RuleSequence
    switch fireDate {
    case .instant(let date):
      let whole = date.timeIntervalSince1970.rounded(.down)
      sequence = RuleSequenceCache.shared.sequence(
        for: self, rule: rule, start: WallClock(localSeconds: Int64(whole)), zone: nil,
        fraction: date.timeIntervalSince1970 - whole)
    case .wallClock(let wall, let zoneRule):
      sequence = RuleSequenceCache.shared.sequence(
        for: self, rule: rule, start: wall, zone: zoneRule.resolve(zones: zones), fraction: 0)
    }
    return BoundedRuleSequence(sequence: sequence, count: repeatCount, until: until)
  }
}

/// A rule sequence cut off by a schedule's `repeatCount` and `until`.
private struct BoundedRuleSequence {
  let sequence: RuleSequence
  let count: Int?
  let until: Date?

  func occurrence(_ index: Int) -> Date? {
    if let count, index >= count { return nil }
    guard let date = sequence.occurrence(index) else { return nil }
    if let until, date > until { return nil }
    return date
  }

  func first(atOrAfter instant: Date, from lower: Int) -> (index: Int, date: Date)? {
    guard let found = sequence.first(atOrAfter: instant, from: lower), occurrence(found.index) != nil else {
      return nil
    }
    return found
  }

  func latest(atOrBefore instant: Date, from lower: Int) -> (index: Int, date: Date)? {
    let limit = min(instant, until ?? instant)
    guard let found = sequence.latest(atOrBefore: limit, from: lower) else { return nil }
    if let count, found.index >= count {
      guard count - 1 >= lower, let date = occurrence(count - 1) else { return nil }
      return (count - 1, date)
    }
    return found
  }
}

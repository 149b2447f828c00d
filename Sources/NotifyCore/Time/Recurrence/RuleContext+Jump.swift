import Foundation

/// Jumps over a rule's whole periods: a rule started in year 1000 is
/// asked about now at the cost of one started last week.
///
/// When every period makes the same number of times (`RuleExpansion.fixedCountPerPeriod`),
/// the times before period `p` are `firstCount + (p - 1) × fixedCount`: what COUNT counts.
/// An occurrence's number (SPEC.md §5) counts what is left of them: less the excluded
/// times (EXDATE, a finite list) and less the times a DST gap moved onto another time of
/// the rule (two wall-clock times, one instant: they fire once), found by visiting the
/// zone's gaps between the start and `p`, a few per year.
extension RuleContext {
  /// Where a jumping cursor starts: a period, and the counts a walk would have reached.
  struct Position: Sendable {
    /// The period the cursor expands first.
    var period: Int64
    /// Times made before it, at or after the start (what COUNT counts).
    var rawCount: Int
    /// Occurrences before it: the number the cursor gives its first one.
    var ordinal: Int
  }

  /// The most zone changes a jump visits to count merged times; past it, it walks.
  static let transitionBudget = 100_000

  /// The first period worth jumping to for a query about instant `unixSeconds`: its
  /// times all lie two days and more before it (zone offsets stay within ±26 hours).
  func period(before unixSeconds: Int64) -> Int64 {
    expansion.period(containing: unixSeconds - 2 * CivilCalendar.secondsPerDay) - 1
  }

  /// Whether the times before any period are counted rather than walked.
  var isCounted: Bool { fixedCount != nil || cycle != nil }

  /// The last period whose number of times before it is at most `index`, so that a
  /// cursor there is not past occurrence `index`; nil when times are not counted.
  func period(forIndex index: Int) -> Int64? {
    lastPeriod(withRawCountAtMost: Int64(index))
  }

  /// The times made before period `period` (1 or more), at or after the start: what
  /// COUNT counts; nil when they are not counted.
  func rawCount(before period: Int64) -> Int64? {
    let first = Int64(firstCount)
    if let fixedCount { return first + (period - 1) * Int64(fixedCount) }
    guard let cycle else { return nil }
    let (whole, rest) = (period - 1).quotientAndRemainder(dividingBy: cycle.periods)
    return first + whole * cycle.total + cycle.prefix[Int(rest)]
  }

  /// The last period (1 or more) before which at most `limit` times are made; nil when
  /// period 0 alone makes more, or times are not counted.
  func lastPeriod(withRawCountAtMost limit: Int64) -> Int64? {
    let first = Int64(firstCount)
    guard limit >= first else { return nil }
    let rest = limit - first
    if let fixedCount { return 1 + rest / Int64(fixedCount) }
    guard let cycle, cycle.total > 0 else { return nil }
    let whole = rest / cycle.total
    let left = rest - whole * cycle.total
    // The last r with prefix[r] <= left (prefix[periods] = total > left).
    var low = 0
    var high = Int(cycle.periods)
    while low < high {
      let middle = (low + high + 1) / 2
      if cycle.prefix[middle] <= left { low = middle } else { high = middle - 1 }
    }
    return 1 + whole * cycle.periods + Int64(low)
  }

  /// A position at period `wanted` or earlier, or nil when the rule's times cannot be
  /// counted there (no fixed count per period, too close to the start, or too many zone
  /// changes to visit). Earlier when COUNT or UNTIL end the rule before `wanted` (the
  /// position stays before its last time) or when a zone change lies within a week of
  /// `wanted` (a time moved out of a gap there could straddle it).
  func position(before wanted: Int64) -> Position? {
    guard isCounted else { return nil }
    var period = wanted
    if let count = expansion.rule.count {
      guard let last = lastPeriod(withRawCountAtMost: Int64(count) - 1) else { return nil }
      period = min(period, last)
    }
    if let until = untilLowerBound {
      period = min(period, expansion.period(containing: until) - 1)
    }
    let week = 7 * CivilCalendar.secondsPerDay
    var isSteady = zone == nil
    for _ in 0..<8 where !isSteady {
      let boundary = expansion.periodStart(period)
      guard let change = zone?.nextTransition(after: boundary - week), change < boundary + week else {
        isSteady = true
        break
      }
      period = min(period - 1, expansion.period(containing: change - 2 * week))
    }
    guard isSteady, period > 1, let rawCount = rawCount(before: period) else { return nil }
    let boundary = expansion.periodStart(period)
    guard let skipped = skippedTimes(before: boundary) else { return nil }
    return Position(period: period, rawCount: Int(rawCount), ordinal: Int(rawCount) - skipped)
  }

  /// Times made before local seconds `boundary` that are not occurrences of their own:
  /// excluded, or moved by a gap onto another time the rule makes.
  private func skippedTimes(before boundary: Int64) -> Int? {
    var excluded = Set(excludedTimes.filter { $0 < boundary && expansion.makes($0) })
    for day in excludedDays {
      let dayStart = day * CivilCalendar.secondsPerDay
      excluded.formUnion(
        expansion.times(from: dayStart, to: min(dayStart + CivilCalendar.secondsPerDay, boundary)))
    }
    guard let zone else { return excluded.count }
    var merged = 0
    var instant = expansion.start - 2 * CivilCalendar.secondsPerDay
    let end = boundary - 2 * CivilCalendar.secondsPerDay
    for _ in 0..<Self.transitionBudget {
      guard let change = zone.nextTransition(after: instant), change < end else {
        return excluded.count + merged
      }
      instant = change
      let before = zone.utcOffset(at: change - 1)
      let after = zone.utcOffset(at: change)
      guard after > before else { continue }
      // The gap's wall-clock times: each moves forward by the gap, onto a time after it.
      for wall in expansion.times(from: change + before, to: change + after) where !excluded.contains(wall) {
        let (moved, isMoved) = resolve(wall)
        guard isMoved else { continue }
        let partner = moved + zone.utcOffset(at: moved)
        if partner < boundary, !excluded.contains(partner), expansion.makes(partner),
          resolve(partner).instant == moved
        {
          merged += 1
        }
      }
    }
    return nil
  }

  /// Local seconds at or before which every time is within UNTIL.
  private var untilLowerBound: Int64? {
    switch expansion.rule.until {
    case nil: nil
    case .instant(let date)?:
      Int64(date.timeIntervalSince1970.rounded(.down)) - 2 * CivilCalendar.secondsPerDay
    case .wallClock(let limit)?: limit.localSeconds
    case .day(let day)?: CivilCalendar.dayNumber(year: day.year, month: day.month, day: day.day) * 86_400
    }
  }
}

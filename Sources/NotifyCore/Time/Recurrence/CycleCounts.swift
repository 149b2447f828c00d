/// The times each period of one calendar cycle makes (`RuleExpansion.cyclePeriods`: the
/// Gregorian calendar repeats every 400 years, so period p + cycle makes what period p
/// makes), summed from period 1: a rule whose times per period vary (a MONTHLY BYDAY=MO
/// has four or five Mondays) is counted from any start by whole cycles plus a lookup.
/// HOURLY and MINUTELY rules that filter no days repeat with the day instead
/// (`RuleExpansion.dayCyclePeriods`: at most 1,440 periods).
/// Made for cycles of at most `maximumPeriods` (WEEKLY and coarser; a DAILY cycle is
/// 146,097 periods), once per rule and process.
final class CycleCounts: Sendable {
  static let maximumPeriods: Int64 = 21_000
  /// The most times a cycle may make, roughly (its first period's times × its periods),
  /// for its counts to be made: a bound on the one walk they cost.
  static let maximumTimes: Int64 = 2_000_000

  /// Periods in a cycle.
  let periods: Int64
  /// `prefix[r]`: the times periods 1 to r make; `prefix[periods]` is the cycle's.
  let prefix: [Int64]
  /// The times one cycle makes.
  var total: Int64 { prefix[Int(periods)] }

  init?(_ expansion: RuleExpansion) {
    let cycle = expansion.dayCyclePeriods ?? expansion.cyclePeriods
    guard expansion.unreachableTimes == nil, cycle <= Self.maximumPeriods else { return nil }
    periods = cycle
    guard Int64(max(expansion.occurrences(inPeriod: 1).count, 1)) * periods <= Self.maximumTimes else {
      return nil
    }
    var sums: [Int64] = [0]
    sums.reserveCapacity(Int(periods) + 1)
    for period in 1...periods {
      sums.append(sums[sums.count - 1] + Int64(expansion.occurrences(inPeriod: period).count))
    }
    prefix = sums
  }
}

import Foundation

/// Walks a rule's occurrences in time order, as instants (SPEC.md §2): each wall-clock
/// time the rule makes is resolved in the zone (a time in a DST gap moves forward by the
/// gap, a repeated hour is its first instance), and two that land on one instant fire
/// once. A value: a copy is a checkpoint to resume from.
///
/// COUNT counts the wall-clock times the rule makes from its start, before excluded
/// dates are taken out and before duplicates merge (RFC 5545; dateutil does the same).
/// Time order and wall-clock order differ only for times moved out of a gap, which come
/// out up to the gap's length later than times after the gap: they wait in `pending`
/// until a later time passes them.
struct RuleCursor: Sendable {
  /// One occurrence: its wall-clock time (local seconds) and instant (Unix seconds).
  struct Item: Hashable, Sendable {
    var wall: Int64
    var instant: Int64
  }

  let context: RuleContext
  private var period: Int64 = 0
  private var lastProductivePeriod: Int64 = 0
  private var raw: [Int64] = []
  private var rawPosition = 0
  private var rawCount = 0
  private var rawDone = false
  private var pending: [Item] = []
  private var ready: [Item] = []
  private var readyPosition = 0
  /// The 0-based index the next item gets.
  private(set) var ordinal = 0
  /// Periods expanded so far: the cost of the walk, which tests bound.
  private(set) var steps = 0
  /// Empty periods walked since the last occurrence, bounded by `RuleContext.searchBudget`.
  private var emptyWalk = 0
  /// Where the zone's offset is known to hold, from the last time resolved through it.
  private var steady: SteadyOffset?

  init(context: RuleContext) {
    self.context = context
    rawDone = context.expansion.unreachableTimes != nil
  }

  /// A cursor about to expand the period of `position`, numbered as a walk from the
  /// start would have numbered it (`RuleContext.position(before:)`).
  init(context: RuleContext, at position: RuleContext.Position) {
    self.context = context
    period = position.period
    lastProductivePeriod = position.period
    rawCount = position.rawCount
    ordinal = position.ordinal
  }

  /// The period this cursor expands next (its position in the rule).
  var periodIndex: Int64 { period }

  /// The next occurrence and its index, or nil when the rule has no more.
  mutating func next() -> (index: Int, item: Item)? {
    while readyPosition == ready.count {
      ready.removeAll(keepingCapacity: true)
      readyPosition = 0
      guard let wall = nextRaw() else {
        guard !pending.isEmpty else { return nil }
        ready = pending
        pending.removeAll()
        break
      }
      if context.isExcluded(wall) { continue }
      let (instant, moved) = resolve(wall)
      let item = Item(wall: wall, instant: instant)
      if moved {
        if !pending.contains(where: { $0.instant == instant }) {
          pending.insert(item, at: pending.firstIndex(where: { $0.instant > instant }) ?? pending.endIndex)
        }
        continue
      }
      if !pending.isEmpty {
        let passed = pending.prefix(while: { $0.instant <= instant })
        ready.append(contentsOf: passed.filter { $0.instant < instant })
        pending.removeFirst(passed.count)
      }
      ready.append(item)
    }
    let item = ready[readyPosition]
    readyPosition += 1
    defer { ordinal += 1 }
    return (ordinal, item)
  }

  /// `context.resolve(wall)`, by subtraction while the zone's offset is known to hold:
  /// the same answer without the lookups.
  private mutating func resolve(_ wall: Int64) -> (instant: Int64, moved: Bool) {
    guard let zone = context.zone else { return (wall, false) }
    if let instant = steady?.instant(of: wall) { return (instant, false) }
    let resolved = context.resolve(wall)
    if steady.map({ wall + CivilCalendar.secondsPerDay >= $0.until }) ?? true {
      steady = SteadyOffset(zone: zone, at: resolved.instant)
    }
    return resolved
  }

  /// The next wall-clock time the rule makes at or after its start, within COUNT and
  /// UNTIL; nil once there are no more (or none within the search budget).
  private mutating func nextRaw() -> Int64? {
    let expansion = context.expansion
    while true {
      if rawDone { return nil }
      if rawPosition < raw.count {
        let wall = raw[rawPosition]
        rawPosition += 1
        if context.isPastUntil(wall) {
          rawDone = true
          return nil
        }
        guard wall >= expansion.start else { continue }
        if let count = expansion.rule.count, rawCount >= count {
          rawDone = true
          return nil
        }
        rawCount += 1
        return wall
      }
      let start = expansion.periodStart(period)
      if start > context.horizon || context.isBeyondUntil(periodStart: start)
        || period - lastProductivePeriod > context.cyclePeriods || emptyWalk > RuleContext.searchBudget
      {
        rawDone = true
        return nil
      }
      raw = expansion.occurrences(inPeriod: period)
      rawPosition = 0
      steps += 1
      if raw.isEmpty {
        emptyWalk += 1
      } else {
        emptyWalk = 0
        lastProductivePeriod = period
      }
      period = expansion.nextPeriod(after: period)
    }
  }
}

/// What every cursor of one rule shares: the expansion, the zone, the bounds.
final class RuleContext: Sendable {
  /// Periods walked without an occurrence before a rule is taken to have no more. A
  /// whole calendar cycle (`RuleExpansion.cyclePeriods`) proves it; this bounds the walk
  /// for fine rules whose cycle is long (MINUTELY rules that filter most minutes out).
  static let searchBudget = 1_000_000
  /// How far a rule reaches: 10,000 years past its start, as `OccurrenceSequence`.
  static let horizonYears = 10_000

  let expansion: RuleExpansion
  let cyclePeriods: Int64
  let horizon: Int64
  /// The zone, or nil when wall-clock times are UTC (absolute anchors).
  let zone: Zone?
  let excludedTimes: Set<Int64>
  let excludedDays: Set<Int64>
  /// `RuleExpansion.fixedCountPerPeriod`: when set, a cursor can jump to any period.
  let fixedCount: Int?
  /// The times period 0 makes at or after the start.
  let firstCount: Int
  /// For a rule without a fixed count whose periods repeat with the calendar in a short
  /// cycle (WEEKLY and coarser): the times of a cycle's periods, summed.
  let cycle: CycleCounts?

  init(rule: RecurrenceRule, start: WallClock, zone: Zone?) {
    expansion = RuleExpansion(rule: rule, start: start)
    cyclePeriods = expansion.cyclePeriods
    var end = start
    end.year += Self.horizonYears
    horizon = end.localSeconds
    self.zone = zone
    var times = Set<Int64>()
    var days = Set<Int64>()
    for exclusion in rule.exclusions {
      switch exclusion {
      case .wallClock(let wall): times.insert(wall.localSeconds)
      case .day(let day): days.insert(CivilCalendar.dayNumber(year: day.year, month: day.month, day: day.day))
      }
    }
    excludedTimes = times
    excludedDays = days
    fixedCount = expansion.fixedCountPerPeriod
    let startSeconds = expansion.start
    firstCount = expansion.occurrences(inPeriod: 0).count(where: { $0 >= startSeconds })
    cycle = fixedCount == nil ? CycleCounts(expansion) : nil
  }

  /// The instant of wall-clock time `wall` (local seconds), and whether a DST gap moved
  /// it. The one place a rule's times meet the zone (`ZoneResolver`).
  func resolve(_ wall: Int64) -> (instant: Int64, moved: Bool) {
    guard let zone else { return (wall, false) }
    let clock = WallClock(localSeconds: wall)
    let instant = ZoneResolver.unixSeconds(for: clock, in: zone)
    let back = ZoneResolver.wallClock(for: Date(timeIntervalSince1970: TimeInterval(instant)), in: zone)
    return (instant, back != clock)
  }

  func isExcluded(_ wall: Int64) -> Bool {
    excludedTimes.contains(wall) || (!excludedDays.isEmpty && excludedDays.contains(wall.floorDiv(86_400)))
  }

  /// Whether a time is past UNTIL: an instant UNTIL compares instants, a wall-clock or
  /// day UNTIL compares wall-clock times.
  func isPastUntil(_ wall: Int64) -> Bool {
    switch expansion.rule.until {
    case nil: false
    case .instant(let date)?: Double(resolve(wall).instant) > date.timeIntervalSince1970
    case .wallClock(let limit)?: wall > limit.localSeconds
    case .day(let day)?:
      wall.floorDiv(86_400) > CivilCalendar.dayNumber(year: day.year, month: day.month, day: day.day)
    }
  }

  /// Whether every time from `periodStart` on is past UNTIL (zone offsets stay within
  /// ±26 hours, so an instant UNTIL is passed a day and more after it, as local seconds).
  func isBeyondUntil(periodStart: Int64) -> Bool {
    switch expansion.rule.until {
    case nil: false
    case .instant(let date)?: Double(periodStart - 26 * 3600) > date.timeIntervalSince1970
    case .wallClock(let limit)?: periodStart > limit.localSeconds
    case .day(let day)?:
      periodStart.floorDiv(86_400) > CivilCalendar.dayNumber(year: day.year, month: day.month, day: day.day)
    }
  }
}

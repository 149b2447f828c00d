import Foundation

/// A rule schedule's occurrences with their indexes, for the queries the firer asks on
/// every wake-up: occurrence k, the first at or after an instant, the latest at or
/// before one.
///
/// Cost: an occurrence's index is its count from the anchor. When the rule's times are
/// counted (`RuleContext.isCounted`), a query jumps to a period just before its answer
/// with the count computed (`RuleContext.position(before:)`), whatever the start; other
/// rules are walked from the anchor, O(periods from the anchor to the instant asked)
/// (sub-daily rules skip the days and hours their filters exclude in one step), which
/// scheduling bounds (`RuleContext.walkBound`). A walk leaves a checkpoint every
/// `checkpointSpacing` occurrences, and sequences are kept per process
/// (`RuleSequenceCache`), so later queries start from the nearest checkpoint or the last
/// walk's end.
final class RuleSequence: @unchecked Sendable {
  // @unchecked: `checkpoints` is only touched while `lock` is held.
  static let checkpointSpacing = 512

  private let lock = NSLock()
  private let initial: RuleCursor
  /// Cursors about to return index 0, spacing, 2 × spacing, ..., with that
  /// occurrence's instant: in index and in time order.
  private var checkpoints: [(cursor: RuleCursor, instant: Int64)] = []
  /// Where the last walk stopped, as a checkpoint: a query for what follows (occurrence
  /// k + 1 after occurrence k, the next wake-up's) goes on from there.
  private var hot: (cursor: RuleCursor, instant: Int64)?
  /// Once a walk reached the rule's end: how many occurrences it has.
  private var end: Int?
  private let fraction: TimeInterval
  /// Periods expanded by all walks so far (tests read it to bound the cost of a query).
  private(set) var steps = 0
  /// Stops a walk after this many periods (tests set it so that a walk too long fails
  /// rather than hangs); nil: no limit.
  private let stepLimit: Int?

  init(rule: RecurrenceRule, start: WallClock, zone: Zone?, fraction: TimeInterval, stepLimit: Int? = nil) {
    initial = RuleCursor(context: RuleContext(rule: rule, start: start, zone: zone))
    self.fraction = fraction
    self.stepLimit = stepLimit
  }

  /// Occurrence `index`, or nil when the rule has fewer.
  func occurrence(_ index: Int) -> Date? {
    guard index >= 0, index < knownCount else { return nil }
    var found: Date?
    walk(toward: .index(index), startingWhere: { $0.cursor.ordinal <= index }) { i, instant in
      if i == index { found = date(instant) }
      return i < index
    }
    return found
  }

  /// The first occurrence at or after `instant` whose index is at least `lower`.
  func first(atOrAfter instant: Date, from lower: Int) -> (index: Int, date: Date)? {
    let limit = seconds(instant)
    guard lower < knownCount else { return nil }
    var found: (Int, Date)?
    walk(toward: .atOrAfter(limit), startingWhere: { $0.cursor.ordinal <= lower || $0.instant < limit }) {
      i, at in
      if i >= lower, date(at) >= instant {
        found = (i, date(at))
        return false
      }
      return true
    }
    return found
  }

  /// The latest occurrence at or before `instant` whose index is at least `lower`.
  func latest(atOrBefore instant: Date, from lower: Int) -> (index: Int, date: Date)? {
    let limit = seconds(instant)
    var found: (Int, Date)?
    walk(toward: .atOrBefore(limit), startingWhere: { $0.instant < limit }) { i, at in
      guard date(at) <= instant else { return false }
      if i >= lower { found = (i, date(at)) }
      return true
    }
    return found
  }

  /// The number of occurrences, once a walk has found the end; Int.max before.
  private var knownCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return end ?? .max
  }

  private func date(_ instant: Int64) -> Date {
    Date(timeIntervalSince1970: TimeInterval(instant) + fraction)
  }

  private func seconds(_ date: Date) -> Int64 {
    let value = date.timeIntervalSince1970.rounded(.down)
    return Int64(max(min(value, 1e15), -1e15))
  }

  /// Walks from the furthest checkpoint that satisfies `usable` (the usable ones are a
  /// prefix of the list), calling `visit` with each index and instant until it returns
  /// false or the rule ends, and records the checkpoints it passes.
  private func walk(
    toward target: Target, startingWhere usable: ((cursor: RuleCursor, instant: Int64)) -> Bool,
    _ visit: (Int, Int64) -> Bool
  ) {
    lock.lock()
    defer { lock.unlock() }
    if end == 0 { return }
    var low = 0
    var high = checkpoints.count
    while low < high {
      let middle = (low + high) / 2
      if usable(checkpoints[middle]) { low = middle + 1 } else { high = middle }
    }
    var cursor = low == 0 ? initial : checkpoints[low - 1].cursor
    if let hot, hot.cursor.ordinal > cursor.ordinal, usable(hot) { cursor = hot.cursor }
    if let jump = jump(toward: target, from: cursor, usable: usable) { cursor = jump }
    let firstSteps = cursor.steps
    defer { steps += cursor.steps - firstSteps }
    while true {
      if let stepLimit, cursor.steps - firstSteps > stepLimit { return }
      let before = cursor
      guard let (index, item) = cursor.next() else {
        hot = (cursor, .max)
        end = cursor.ordinal
        return
      }
      if before.ordinal % Self.checkpointSpacing == 0,
        before.ordinal / Self.checkpointSpacing == checkpoints.count
      {
        checkpoints.append((before, item.instant))
      }
      if !visit(index, item.instant) {
        hot = (before, item.instant)
        return
      }
    }
  }
}

extension RuleSequence {
  /// What a query looks for: an occurrence by number, or the ones around an instant.
  enum Target {
    case index(Int)
    case atOrAfter(Int64)
    case atOrBefore(Int64)
  }

  /// A cursor further toward `target` than `cursor`, by jumping over whole periods; nil
  /// when the rule's times are not counted or the jump would not save a few periods.
  fileprivate func jump(
    toward target: Target, from cursor: RuleCursor, usable: ((cursor: RuleCursor, instant: Int64)) -> Bool
  ) -> RuleCursor? {
    let context = initial.context
    guard context.isCounted else { return nil }
    var wanted: Int64
    switch target {
    case .index(let index):
      guard let period = context.period(forIndex: index) else { return nil }
      wanted = period
    case .atOrAfter(let seconds), .atOrBefore(let seconds):
      wanted = context.period(before: seconds)
    }
    // The latest at or before an instant may lie before the period jumped to (a sparse
    // rule's period makes nothing before the instant): step back, doubling the step.
    var back: Int64 = 1
    for _ in 0..<48 {
      guard wanted > cursor.periodIndex + 2, let position = context.position(before: wanted),
        position.period > cursor.periodIndex, position.ordinal > cursor.ordinal
      else { return nil }
      let jumped = RuleCursor(context: context, at: position)
      // Every time before a jump for an instant lies before it; one for an index is
      // numbered at most that index.
      guard case .atOrBefore = target else { return jumped }
      var peek = jumped
      if usable((jumped, peek.next()?.item.instant ?? .max)) { return jumped }
      wanted = position.period - back
      back *= 2
    }
    return nil
  }
}

/// The rule sequences of this process, so that a firer's repeated queries about one
/// notification resume where the last walk left off. Keyed by schedule and zone; keeps
/// the `capacity` most recently used.
final class RuleSequenceCache: @unchecked Sendable {
  // @unchecked: `entries` and `tick` are only touched while `lock` is held.
  static let shared = RuleSequenceCache()
  static let capacity = 256

  private struct Key: Hashable {
    var schedule: Schedule
    var zone: Zone?
  }

  private let lock = NSLock()
  private var entries: [Key: (sequence: RuleSequence, used: UInt64)] = [:]
  private var tick: UInt64 = 0

  /// The sequence of `schedule`'s rule started at `start` in `zone` (nil: UTC).
  func sequence(
    for schedule: Schedule, rule: RecurrenceRule, start: WallClock, zone: Zone?, fraction: TimeInterval
  ) -> RuleSequence {
    let key = Key(schedule: schedule, zone: zone)
    lock.lock()
    defer { lock.unlock() }
    tick += 1
    if let hit = entries[key] {
      entries[key] = (hit.sequence, tick)
      return hit.sequence
    }
    if entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.used < $1.value.used })?.key {
      entries[oldest] = nil
    }
    let sequence = RuleSequence(rule: rule, start: start, zone: zone, fraction: fraction)
    entries[key] = (sequence, tick)
    return sequence
  }
}

import Foundation

/// A schedule with its zone and anchor resolved once, so that many occurrences can be
/// computed cheaply. Occurrence k is always derived from the anchor (SPEC.md §2).
struct OccurrenceSequence {
  /// How far a repeat reaches at most: occurrences 10,000 years past the anchor are
  /// treated as never happening, which keeps all arithmetic far from overflow.
  static let horizonYears = 10_000

  private let unit: RepeatInterval?
  /// One past the last index that may exist: 1 for a one-shot, `repeatCount`, or the
  /// horizon.
  private let end: Int
  private let until: Date?
  private let zone: Zone
  /// Whether wall-clock components are read in UTC, where no resolution is needed.
  private let isUTC: Bool
  private let anchorWall: WallClock
  /// The sub-second part of an absolute anchor, kept by calendar repeats.
  private let fraction: TimeInterval
  private let anchorInstant: Date

  init(_ schedule: Schedule, zones: Zones) {
    unit = schedule.repeatInterval
    let horizon = Self.horizon(of: schedule.repeatInterval)
    end = min(max(schedule.repeatCount ?? horizon, 0), horizon)
    until = schedule.until
    switch schedule.fireDate {
    case .instant(let date):
      let whole = date.timeIntervalSince1970.rounded(.down)
      zone = .utc
      isUTC = true
      anchorWall = WallClock(localSeconds: Int64(whole))
      fraction = date.timeIntervalSince1970 - whole
      anchorInstant = date
    case .wallClock(let wall, let rule):
      zone = rule.resolve(zones: zones)
      isUTC = false
      anchorWall = wall
      fraction = 0
      anchorInstant = ZoneResolver.instant(for: wall, in: zone)
    }
  }

  /// Occurrence `index`, or nil when it does not exist (past `end` or `until`).
  func occurrence(_ index: Int) -> Date? {
    guard index >= 0, index < end else { return nil }
    let date = unbounded(index)
    if let until, date > until { return nil }
    return date
  }

  /// The first occurrence at or after `instant`, with index at least `lower`.
  func first(atOrAfter instant: Date, from lower: Int) -> (index: Int, date: Date)? {
    let start = max(lower, 0)
    let index = firstIndex(from: start, estimate: estimate(for: instant)) { $0 >= instant }
    guard let date = occurrence(index) else { return nil }
    return (index, date)
  }

  /// The latest occurrence at or before `instant`, with index at least `lower`.
  func latest(atOrBefore instant: Date, from lower: Int) -> (index: Int, date: Date)? {
    let start = max(lower, 0)
    let limit = min(instant, until ?? instant)
    let index = firstIndex(from: start, estimate: estimate(for: limit)) { $0 > limit } - 1
    guard index >= start, let date = occurrence(index) else { return nil }
    return (index, date)
  }

  /// Occurrence `index` ignoring `end` and `until`; non-decreasing in `index`.
  private func unbounded(_ index: Int) -> Date {
    switch unit {
    case nil: anchorInstant
    case .minute: anchorInstant + TimeInterval(index) * 60
    case .hour: anchorInstant + TimeInterval(index) * 3600
    case .day: resolve(anchorWall.addingDays(index))
    case .week: resolve(anchorWall.addingDays(index * 7))
    case .month: resolve(anchorWall.addingMonths(index))
    case .year: resolve(anchorWall.addingMonths(index * 12))
    }
  }

  private func resolve(_ wall: WallClock) -> Date {
    let seconds = isUTC ? wall.localSeconds : ZoneResolver.unixSeconds(for: wall, in: zone)
    return Date(timeIntervalSince1970: TimeInterval(seconds) + fraction)
  }

  /// An index whose occurrence is close to `instant`: by division for fixed-length units,
  /// from the calendar difference for months and years. Searches correct the error.
  private func estimate(for instant: Date) -> Int {
    let elapsed = instant.timeIntervalSince(anchorInstant)
    let units: Double
    switch unit {
    case nil: return 0
    case .minute: units = elapsed / 60
    case .hour: units = elapsed / 3600
    case .day: units = elapsed / 86_400
    case .week: units = elapsed / 604_800
    case .month, .year:
      // Beyond the horizon the calendar is not worth asking.
      guard abs(elapsed) < Double(Self.horizonYears) * 366 * 86_400 else { return clamp(elapsed) }
      let wall = ZoneResolver.wallClock(for: instant, in: zone)
      let months = (wall.year - anchorWall.year) * 12 + (wall.month - anchorWall.month)
      return unit == .month ? months : months.floorDiv(12)
    }
    return clamp(units.rounded(.down))
  }

  private func clamp(_ value: Double) -> Int {
    guard value.isFinite else { return value > 0 ? end : 0 }
    return Int(min(max(value, 0), Double(end)))
  }

  /// The number of occurrences within the horizon; 1 for a one-shot.
  private static func horizon(of unit: RepeatInterval?) -> Int {
    let days = horizonYears * 366
    return switch unit {
    case nil: 1
    case .minute: days * 1440
    case .hour: days * 24
    case .day: days
    case .week: days / 7
    case .month: horizonYears * 12
    case .year: horizonYears
    }
  }

  /// The smallest index at or after `lower` whose unbounded occurrence satisfies
  /// `isPast`, which must be monotone (false, then true). Gallops from `estimate`, then
  /// bisects, so a poor estimate costs only a logarithm. Returns `end` when no index
  /// before it qualifies.
  private func firstIndex(from lower: Int, estimate: Int, where isPast: (Date) -> Bool) -> Int {
    guard lower < end else { return lower }
    func holds(_ index: Int) -> Bool { index >= end || isPast(unbounded(index)) }
    let start = min(max(estimate, lower), end)
    // Invariant once set: `!holds(low)` and `holds(high)`.
    var low: Int
    var high: Int
    if holds(start) {
      high = start
      var step = 1
      while true {
        let probe = high - step
        if probe <= lower {
          if holds(lower) { return lower }
          low = lower
          break
        }
        if !holds(probe) {
          low = probe
          break
        }
        high = probe
        step *= 2
      }
    } else {
      low = start
      var step = 1
      while true {
        let probe = min(low + step, end)
        if holds(probe) {
          high = probe
          break
        }
        low = probe
        step *= 2
      }
    }
    while high - low > 1 {
      let middle = low + (high - low) / 2
      if holds(middle) { high = middle } else { low = middle }
    }
    return high
  }
}

extension Int {
  /// Division rounding toward negative infinity.
  fileprivate func floorDiv(_ divisor: Int) -> Int {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }
}

import Foundation

/// What a firer does with one notification when it wakes up (SPEC.md §6): deliver the
/// due occurrence, or record it as missed, and where the schedule goes next.
///
/// Pure: the schedule, the index of its next undelivered occurrence and `now` go in, a
/// decision comes out. Downtime never causes a burst: every occurrence that fell due
/// while no firer ran is coalesced into the latest one, which is delivered late (or,
/// past the misfire grace, recorded as missed), and the schedule moves on to its next
/// future occurrence. Indexes only move forward, so a clock set backwards never
/// delivers an occurrence twice.
///
/// ```swift
/// let plan = DuePlanner.plan(schedule, nextIndex: 0, now: now, zones: zones, misfireGrace: nil)
/// // plan?.action == .deliver(...) ; plan?.next == nil when the schedule is finished
/// ```
public enum DuePlanner {
  /// The occurrence chosen to act on.
  public struct DueOccurrence: Hashable, Sendable {
    /// 0-based occurrence index.
    public var index: Int
    /// The instant the occurrence was due.
    public var fireDate: Date
    /// Delivered more than `Delivery.lateTolerance` after it was due, or standing for
    /// earlier occurrences that were never delivered.
    public var late: Bool
    /// How many earlier, undelivered occurrences this one stands for.
    public var coalesced: Int

    /// Creates a due occurrence.
    public init(index: Int, fireDate: Date, late: Bool, coalesced: Int) {
      self.index = index
      self.fireDate = fireDate
      self.late = late
      self.coalesced = coalesced
    }
  }

  /// What to do with the due occurrence.
  public enum Action: Hashable, Sendable {
    /// Hand it to the sink.
    case deliver(DueOccurrence)
    /// Record it as `missed`: it is later than the misfire grace allows.
    case miss(DueOccurrence)

    /// The occurrence acted on, whatever the action.
    public var occurrence: DueOccurrence {
      switch self {
      case .deliver(let occurrence), .miss(let occurrence): occurrence
      }
    }
  }

  /// An occurrence that is not due yet.
  public struct Upcoming: Hashable, Sendable {
    /// 0-based occurrence index.
    public var index: Int
    /// Its fire instant.
    public var fireDate: Date

    /// Creates an upcoming occurrence.
    public init(index: Int, fireDate: Date) {
      self.index = index
      self.fireDate = fireDate
    }
  }

  /// The decision for one due notification.
  public struct Plan: Hashable, Sendable {
    /// Deliver or miss.
    public var action: Action
    /// The next occurrence after the one acted on, or nil when the schedule is finished
    /// and the notification leaves the pending list.
    public var next: Upcoming?

    /// Creates a plan.
    public init(action: Action, next: Upcoming?) {
      self.action = action
      self.next = next
    }
  }

  /// The plan for `schedule` whose next undelivered occurrence is `nextIndex`, or nil when
  /// that occurrence is not due at `now` (or does not exist).
  public static func plan(
    _ schedule: Schedule, nextIndex: Int, now: Date, zones: Zones, misfireGrace: TimeInterval?
  ) -> Plan? {
    guard schedule.rule != nil else {
      return plan(nextIndex: nextIndex, now: now, misfireGrace: misfireGrace) {
        schedule.occurrence($0, zones: zones)
      }
    }
    // A rule's occurrence k is found by walking to it, so the latest due one is asked
    // for directly rather than galloped to by index.
    guard nextIndex >= 0, let first = schedule.occurrence(nextIndex, zones: zones), first <= now,
      let latest = schedule.latestOccurrence(atOrBefore: now, from: nextIndex, zones: zones)
    else { return nil }
    return plan(
      latest: Upcoming(index: latest.index, fireDate: latest.date), nextIndex: nextIndex, now: now,
      misfireGrace: misfireGrace, next: schedule.occurrence(latest.index + 1, zones: zones))
  }

  /// The plan given the schedule as a function from index to instant (nil past its end).
  /// `occurrence` must be increasing in the index; it is called O(log n) times for n
  /// occurrences missed, so a year of minutely repeats costs about forty calls.
  public static func plan(
    nextIndex: Int, now: Date, misfireGrace: TimeInterval?, occurrence: (Int) -> Date?
  ) -> Plan? {
    guard nextIndex >= 0, let first = occurrence(nextIndex), first <= now else { return nil }
    let latest = latestDue(from: nextIndex, firstDate: first, now: now, occurrence: occurrence)
    return plan(
      latest: latest, nextIndex: nextIndex, now: now, misfireGrace: misfireGrace,
      next: occurrence(latest.index + 1))
  }

  /// The plan once the latest due occurrence and the one after it are known.
  private static func plan(
    latest: Upcoming, nextIndex: Int, now: Date, misfireGrace: TimeInterval?, next nextDate: Date?
  ) -> Plan {
    let coalesced = latest.index - nextIndex
    let lateness = now.timeIntervalSince(latest.fireDate)
    let due = DueOccurrence(
      index: latest.index, fireDate: latest.fireDate,
      late: lateness > Delivery.lateTolerance || coalesced > 0, coalesced: coalesced)
    let action: Action =
      if let misfireGrace, lateness > misfireGrace { .miss(due) } else { .deliver(due) }
    let next = nextDate.map { Upcoming(index: latest.index + 1, fireDate: $0) }
    return Plan(action: action, next: next)
  }

  /// The latest occurrence at or before `now`, given that `start` is one: doubling steps
  /// find an upper bound, then bisection finds the edge.
  private static func latestDue(
    from start: Int, firstDate: Date, now: Date, occurrence: (Int) -> Date?
  ) -> Upcoming {
    var low = Upcoming(index: start, fireDate: firstDate)
    var step = 1
    var high: Int? = nil
    while high == nil {
      let (probe, overflow) = low.index.addingReportingOverflow(step)
      guard !overflow else { high = Int.max; break }
      if let date = occurrence(probe), date <= now {
        low = Upcoming(index: probe, fireDate: date)
        step = step < Int.max / 2 ? step * 2 : step
      } else {
        high = probe
      }
    }
    var upper = high!
    while upper - low.index > 1 {
      let middle = low.index + (upper - low.index) / 2
      if let date = occurrence(middle), date <= now {
        low = Upcoming(index: middle, fireDate: date)
      } else {
        upper = middle
      }
    }
    return low
  }
}

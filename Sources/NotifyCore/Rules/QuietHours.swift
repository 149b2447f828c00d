import Foundation

/// Quiet hours ("Do Not Disturb"): while quiet, notifications are held instead of shown.
///
/// The user decides, by hand (`notify quiet on [--for D | --until WHEN]`, `notify quiet off`)
/// and with a weekly `schedule`. It is quiet while manual quiet is on, or while a scheduled
/// period is in force, unless the user turned quiet off during that period: then the rest
/// of it is skipped, as KDE and GNOME users expect when they switch Do Not Disturb off at
/// night. The next scheduled period is quiet again.
///
/// A value with pure rules: every question takes the instant and the user's zone (the
/// system zone, in which the schedule's wall-clock times are read).
///
/// ```swift
/// var quiet = QuietHours(schedule: QuietSchedule(from: .init(hour: 22, minute: 0), to: .init(hour: 7, minute: 0)))
/// quiet.isQuiet(at: fridayAt23, in: zone)                        // true
/// quiet = quiet.turnedOff(at: fridayAt23, in: zone)
/// quiet.isQuiet(at: fridayAt23 + 60, in: zone)                   // false until Saturday 07:00
/// quiet.nextChange(after: fridayAt23, in: zone)                  // Saturday 22:00
/// ```
public struct QuietHours: Hashable, Sendable {
  /// Quiet turned on by hand, or nil.
  public var manual: Manual?
  /// Scheduled quiet does not count before this instant: the user turned quiet off during
  /// the scheduled period that ends then.
  public var scheduleSkippedUntil: Date?
  /// The weekly schedule, or nil.
  public var schedule: QuietSchedule?

  /// How long quiet turned on by hand lasts.
  public enum Manual: Hashable, Sendable {
    /// Until the user turns quiet off (`notify quiet on`).
    case untilTurnedOff
    /// Until this instant (`--for`, `--until`), after which the schedule alone decides.
    case until(Date)
  }

  /// Creates quiet hours; the default is never quiet.
  public init(manual: Manual? = nil, scheduleSkippedUntil: Date? = nil, schedule: QuietSchedule? = nil) {
    self.manual = manual
    self.scheduleSkippedUntil = scheduleSkippedUntil
    self.schedule = schedule
  }

  /// The longest run of back-to-back quiet periods `currentPeriodEnd` follows: a manual one
  /// and a week of scheduled ones, with room to spare. A longer run means every day is quiet
  /// (00:00 to 00:00 on all seven days), which has no end.
  private static let longestChain = 16

  /// Whether notifications are held at `instant`.
  public func isQuiet(at instant: Date, in zone: Zone) -> Bool {
    manualEnd(at: instant) != nil || scheduledPeriod(containing: instant, in: zone) != nil
  }

  /// When the quiet in force at `now` ends: the first later instant that is not quiet, past
  /// back-to-back periods (manual quiet until 23:00 inside a 22:00–07:00 period ends at 07:00).
  /// Nil when it is not quiet at `now`, or when the quiet has no end (manual quiet until
  /// turned off, or a schedule that covers every minute of the week).
  public func currentPeriodEnd(after now: Date, in zone: Zone) -> Date? {
    guard isQuiet(at: now, in: zone) else { return nil }
    var instant = now
    for _ in 0..<Self.longestChain {
      let manual = manualEnd(at: instant)
      if manual == .distantFuture { return nil }
      let scheduled = scheduledPeriod(containing: instant, in: zone)?.upperBound
      guard let end = [manual, scheduled].compactMap({ $0 }).max() else { return instant }
      instant = end
    }
    return nil
  }

  /// The next instant after `now` at which `isQuiet` flips, for arming a timer; nil when it
  /// never does by itself. The answer holds for the zone given: re-ask when the system zone or
  /// the wall clock changes.
  public func nextChange(after now: Date, in zone: Zone) -> Date? {
    if isQuiet(at: now, in: zone) { return currentPeriodEnd(after: now, in: zone) }
    // Manual quiet only starts by hand, so only the schedule can make it quiet.
    guard let schedule else { return nil }
    if let skippedUntil = scheduleSkippedUntil, skippedUntil > now {
      if schedule.isQuiet(at: skippedUntil, in: zone) { return skippedUntil }
      return schedule.nextStart(after: skippedUntil, in: zone)
    }
    return schedule.nextStart(after: now, in: zone)
  }

  /// Quiet turned on by hand at `now` (`notify quiet on`), until `end` or, when nil, until
  /// turned off.
  ///
  /// A scheduled period the user skipped stays skipped: `--for 10m` late in a night they
  /// switched off is quiet for ten minutes, not until the morning. An `end` at or before
  /// `now` turns nothing on.
  public func turnedOn(until end: Date?, at now: Date) -> QuietHours {
    var result = self
    result.manual = end.map(Manual.until) ?? .untilTurnedOff
    return result.settled(at: now)
  }

  /// Quiet turned off by hand at `now` (`notify quiet off`): manual quiet ends, and the
  /// scheduled period in force, if any, is skipped until it ends.
  public func turnedOff(at now: Date, in zone: Zone) -> QuietHours {
    var result = self
    result.manual = nil
    result.scheduleSkippedUntil = schedule?.period(containing: now, in: zone)?.upperBound
    return result
  }

  /// The same quiet hours without the manual state that is over at `now` (manual quiet or a
  /// skip that has ended), so that what is stored and shown is current. `isQuiet` at `now`
  /// and later is unchanged.
  public func settled(at now: Date) -> QuietHours {
    var result = self
    if case .until(let end) = manual, end <= now { result.manual = nil }
    if let skippedUntil = scheduleSkippedUntil, skippedUntil <= now { result.scheduleSkippedUntil = nil }
    return result
  }

  /// When manual quiet in force at `instant` ends (`distantFuture` for until turned off), or
  /// nil when there is none.
  private func manualEnd(at instant: Date) -> Date? {
    switch manual {
    case nil: nil
    case .untilTurnedOff: .distantFuture
    case .until(let end): instant < end ? end : nil
    }
  }

  /// The scheduled period in force at `instant` that the user has not skipped.
  private func scheduledPeriod(containing instant: Date, in zone: Zone) -> Range<Date>? {
    if let skippedUntil = scheduleSkippedUntil, instant < skippedUntil { return nil }
    return schedule?.period(containing: instant, in: zone)
  }
}

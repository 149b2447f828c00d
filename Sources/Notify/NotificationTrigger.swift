import Foundation
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// When a scheduled notification fires, and how it repeats.
///
/// ```swift
/// .after(.seconds(600))                                   // ten minutes from now
/// .at(flightDate)                                         // an absolute instant
/// .wallClock(WallClock(year: 2026, month: 11, day: 23, hour: 9), in: .named("Europe/Berlin"))
/// .wallClock(nineAM).repeating(every: .day)               // 09:00 every day, wherever the user is
/// .calendar(try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE"), from: nineAM)  // Mondays and Wednesdays
/// ```
public struct NotificationTrigger: Hashable, Sendable {
  /// Where the schedule starts.
  enum Start: Hashable, Sendable {
    case after(TimeInterval)
    case at(Date)
    case wallClock(WallClock, ZoneRule)
  }

  var start: Start
  /// The repeat unit, or nil to fire once.
  public var repeatInterval: RepeatInterval?
  /// The total number of deliveries, or nil for no limit.
  public var repeatCount: Int?
  /// The last instant an occurrence may fall on, or nil for no limit.
  public var until: Date?
  /// The calendar rule the trigger repeats by, or nil (then `repeatInterval` applies).
  public var rule: RecurrenceRule?

  /// Fires `delay` from the moment it is scheduled (`notify schedule --in`).
  public static func after(_ delay: Duration) -> NotificationTrigger {
    let parts = delay.components
    return NotificationTrigger(start: .after(Double(parts.seconds) + Double(parts.attoseconds) / 1e18))
  }

  /// Fires at an absolute instant; a past instant fires at once.
  public static func at(_ date: Date) -> NotificationTrigger {
    NotificationTrigger(start: .at(date))
  }

  /// Fires at a wall-clock time in `zone`; `.local` follows the system zone at fire time,
  /// so 09:00 stays 09:00 after the user moves zones.
  public static func wallClock(_ time: WallClock, in zone: ZoneRule = .local) -> NotificationTrigger {
    NotificationTrigger(start: .wallClock(time, zone))
  }

  /// Fires as soon as a firer runs (the daemon, or the app's own firing service).
  public static var immediately: NotificationTrigger { NotificationTrigger(start: .after(0)) }

  /// The same trigger repeating every `unit`, computed from the first fire date so it
  /// never drifts; `count` limits the total deliveries, `until` the last instant.
  public func repeating(every unit: RepeatInterval, count: Int? = nil, until: Date? = nil)
    -> NotificationTrigger
  {
    var copy = self
    copy.repeatInterval = unit
    copy.rule = nil
    copy.repeatCount = count
    copy.until = until
    return copy
  }

  /// Fires on the occurrences of a calendar rule (RFC 5545 RRULE), starting at `time` in
  /// `zone`, as `UNCalendarNotificationTrigger` with `repeats: true` does for its date
  /// components: the first occurrence is the first the rule makes at or after `time`.
  /// Every occurrence keeps SPEC §2's wall-clock rules (a time a DST gap skips moves forward
  /// by the gap; a repeated hour fires once).
  public static func calendar(_ rule: RecurrenceRule, from time: WallClock, in zone: ZoneRule = .local)
    -> NotificationTrigger
  {
    wallClock(time, in: zone).repeating(by: rule)
  }

  /// The same trigger repeating by a calendar rule, its fire date the rule's start;
  /// `count` and `until` become the rule's COUNT and UNTIL (a rule that has its own end
  /// then fails to schedule).
  public func repeating(by rule: RecurrenceRule, count: Int? = nil, until: Date? = nil) -> NotificationTrigger
  {
    var copy = self
    copy.repeatInterval = nil
    copy.rule = rule
    copy.repeatCount = count
    copy.until = until
    return copy
  }

  /// The stored schedule this trigger stands for when scheduled at `now`. Not public:
  /// `Schedule` is the store's type, which `import Notify` does not name; an app's trigger
  /// is checked by `add(_:)`.
  package func schedule(now: Date) throws(NotificationError) -> Schedule {
    do { return try schedule(now: now, database: TZDatabase.shared) } catch { throw NotificationError(error) }
  }

  /// `schedule(now:)` with zones from `database`, and the inner layers' error.
  package func schedule(now: Date, database: any ZoneDatabase) throws(NotifyError) -> Schedule {
    let fireDate: FireDate
    switch start {
    case .after(let delay):
      guard delay >= 0, delay.isFinite else {
        throw NotifyError(
          .invalidData, "the delay \(delay) s is negative",
          fix: "pass a delay of zero or more, e.g. .after(.seconds(600))")
      }
      fireDate = .instant(now + delay)
    case .at(let date):
      fireDate = .instant(date)
    case .wallClock(let time, let zone):
      if case .named(let name) = zone {
        do {
          _ = try database.zone(named: name)
        } catch {
          throw NotifyError(.invalidData, error.description, fix: error.fix + " (or .local)")
        }
      }
      fireDate = .wallClock(time, zone)
    }
    if let repeatCount, repeatCount < 1 {
      throw NotifyError(
        .invalid(.repeatCount, .belowMinimum(repeatCount, minimum: 1)),
        "repeat count \(repeatCount) is less than 1",
        fix: "pass a positive count or nil")
    }
    if let rule {
      do {
        return try Schedule(fireDate: fireDate, rule: rule, repeatCount: repeatCount, until: until)
      } catch {
        throw error.notifyError
      }
    }
    return Schedule(
      fireDate: fireDate, repeatInterval: repeatInterval, repeatCount: repeatCount, until: until)
  }
}

extension NotificationTrigger {
  /// The trigger a stored schedule stands for: an instant as `.at` (a relative trigger was
  /// resolved to its instant when added), a wall-clock time as `.wallClock` in its zone, with
  /// its rule or repeat unit and its end.
  init(_ schedule: Schedule) {
    switch schedule.fireDate {
    case .instant(let date): start = .at(date)
    case .wallClock(let time, let zone): start = .wallClock(time, zone)
    }
    repeatInterval = schedule.repeatInterval
    repeatCount = schedule.repeatCount
    until = schedule.until
    rule = schedule.rule
  }
}

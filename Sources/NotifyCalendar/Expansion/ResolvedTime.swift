import Foundation
import NotifyCore

/// A date or date-time tied to its zone: the instant, and the wall clock and zone it is
/// read in, for arithmetic that RFC 5545 does on the wall clock (days and weeks).
struct ResolvedTime: Hashable, Sendable {
  var instant: Date
  var wall: WallClock
  var zone: Zone
  var isDate: Bool

  /// `value` read in `zones`; a floating value in `floatingZone` when given (RDATE and
  /// EXDATE follow a zoned DTSTART), else the system zone.
  init(_ value: CalendarDateTime, zones: CalendarZones, floatingZone: Zone? = nil) {
    let zone =
      value.reference == .floating ? (floatingZone ?? zones.system.local) : zones.zone(for: value.reference)
    self.init(wall: value.wall, zone: zone, isDate: value.isDate)
  }

  init(wall: WallClock, zone: Zone, isDate: Bool) {
    self.wall = wall
    self.zone = zone
    self.isDate = isDate
    instant = Date(timeIntervalSince1970: TimeInterval(ZoneResolver.unixSeconds(for: wall, in: zone)))
  }

  /// The occurrence of a rule at `instant`, read in `zone`.
  init(instant: Date, zone: Zone, isDate: Bool) {
    self.instant = instant
    self.zone = zone
    self.isDate = isDate
    wall = ZoneResolver.wallClock(for: instant, in: zone)
  }

  /// RFC 5545 §3.3.6: days and weeks on the wall clock (the same time on another date),
  /// then hours, minutes and seconds exactly.
  func adding(_ duration: CalendarDuration) -> Date {
    var base = instant
    if duration.days != 0 {
      base = Date(
        timeIntervalSince1970: TimeInterval(
          ZoneResolver.unixSeconds(for: wall.addingDays(duration.days), in: zone)))
    }
    return base + TimeInterval(duration.seconds)
  }

  /// The same, as a resolved time in the same zone.
  func added(_ duration: CalendarDuration) -> ResolvedTime {
    ResolvedTime(instant: adding(duration), zone: zone, isDate: isDate && duration.seconds == 0)
  }

  /// Moved by whole seconds, in the same zone.
  func moved(by seconds: TimeInterval) -> ResolvedTime {
    ResolvedTime(instant: instant + seconds, zone: zone, isDate: isDate)
  }

  /// What identifies the occurrence it starts: RFC 3339 UTC, or `YYYY-MM-DD` for a date.
  var recurrenceText: String {
    if isDate {
      func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
      }
      return "\(pad(wall.year, 4))-\(pad(wall.month, 2))-\(pad(wall.day, 2))"
    }
    return RFC3339.string(from: instant, milliseconds: false)
  }
}

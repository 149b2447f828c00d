import Foundation
import NotifyCore

/// Pending notifications as an iCalendar file (`notify export --ics`): one VEVENT per
/// notification, starting at its anchor (a wall-clock time with its zone's TZID, floating
/// for `local`, UTC for an instant), its repeat as an RRULE (a calendar rule as it is, with
/// its EXDATEs; `--repeat` units as FREQ with COUNT and UNTIL, a month day that some months
/// lack as the last day then, as notify clamps it), and a VALARM going off at the start:
/// DISPLAY, or AUDIO when it has a sound. Lines are folded at 75 octets (RFC 5545 §3.1).
///
/// An anchor the rule itself does not make (a rule's first occurrence is the first it
/// makes from the anchor, while iCalendar counts DTSTART always) is written as an EXDATE
/// too, so that readers list the same occurrences. TZIDs name tz database zones, which
/// Thunderbird, Evolution, khal and Google read without a VTIMEZONE.
public enum CalendarExport {
  /// The file for `notifications`, stamped `now`.
  public static func ics(_ notifications: [StoredNotification], now: Date, zones: Zones, product: String)
    -> String
  {
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notify//\(product)//EN", "CALSCALE:GREGORIAN"]
    for stored in notifications where stored.snoozedOccurrence == nil {
      lines += event(stored.notification, now: now, zones: zones)
    }
    lines.append("END:VCALENDAR")
    return lines.map(fold).joined(separator: "\r\n") + "\r\n"
  }

  static func event(_ n: LocalNotification, now: Date, zones: Zones) -> [String] {
    var lines = ["BEGIN:VEVENT", "UID:\(n.id)@\(n.app).notify", "DTSTAMP:\(utc(now))"]
    let schedule = n.schedule
    var zone = Zone.utc
    var tzParameter = ""
    let startText: String
    switch schedule.fireDate {
    case .instant(let date):
      startText = utc(date)
    case .wallClock(let wall, .local):
      zone = zones.local
      startText = CalendarDateTime(wall: wall, reference: .floating).text
    case .wallClock(let wall, .named(let name)):
      zone = zones.resolve(.named(name))
      tzParameter = ";TZID=\(name)"
      startText = CalendarDateTime(wall: wall, reference: .zone(name)).text
    }
    lines.append("DTSTART\(tzParameter):\(startText)")
    let title = n.title ?? n.body ?? n.id
    lines.append("SUMMARY:" + CalendarText.escaped(title))
    if let body = n.body, n.title != nil { lines.append("DESCRIPTION:" + CalendarText.escaped(body)) }
    if let rule = schedule.rule {
      lines.append("RRULE:" + ruleText(rule, zone: zone, fireDate: schedule.fireDate))
      var excluded = rule.exclusions.map(\.text)
      if let first = schedule.occurrence(0, zones: zones), first != anchor(schedule.fireDate, zone: zone) {
        excluded.append(startText)
      }
      if !excluded.isEmpty { lines.append("EXDATE\(tzParameter):" + excluded.joined(separator: ",")) }
    } else if let unit = schedule.repeatInterval {
      lines.append("RRULE:" + unitRule(unit, schedule: schedule))
    }
    lines += [
      "BEGIN:VALARM", "ACTION:\(n.sound == .none ? "DISPLAY" : "AUDIO")",
      "DESCRIPTION:" + CalendarText.escaped(title), "TRIGGER;RELATED=START:PT0S", "END:VALARM", "END:VEVENT",
    ]
    return lines
  }

  /// The anchor's instant.
  static func anchor(_ fireDate: FireDate, zone: Zone) -> Date {
    switch fireDate {
    case .instant(let date): date
    case .wallClock(let wall, _): ZoneResolver.instant(for: wall, in: zone)
    }
  }

  /// The rule with UNTIL as iCalendar wants it beside a zoned DTSTART: UTC.
  static func ruleText(_ rule: RecurrenceRule, zone: Zone, fireDate: FireDate) -> String {
    var copy = rule
    copy.exclusions = []
    switch (rule.until, fireDate) {
    case (.wallClock(let wall)?, .wallClock(_, .named)):
      copy.until = .instant(ZoneResolver.instant(for: wall, in: zone))
    case (.day(let day)?, .wallClock(_, .named)):
      copy.until = .instant(
        ZoneResolver.instant(
          for: WallClock(year: day.year, month: day.month, day: day.day, hour: 23, minute: 59, second: 59),
          in: zone))
    default: break
    }
    return copy.ruleText
  }

  /// `--repeat` as an RRULE: notify keeps a month day some months lack as their last day.
  static func unitRule(_ unit: RepeatInterval, schedule: Schedule) -> String {
    var parts: [String]
    let day: Int? = {
      if case .wallClock(let wall, _) = schedule.fireDate { return wall.day }
      if case .instant(let date) = schedule.fireDate {
        return WallClock(localSeconds: Int64(date.timeIntervalSince1970.rounded(.down))).day
      }
      return nil
    }()
    switch unit {
    case .minute: parts = ["FREQ=MINUTELY"]
    case .hour: parts = ["FREQ=HOURLY"]
    case .day: parts = ["FREQ=DAILY"]
    case .week: parts = ["FREQ=WEEKLY"]
    case .month:
      parts = ["FREQ=MONTHLY"]
      if let day, day > 28 {
        parts += ["BYMONTHDAY=" + (28...day).map(String.init).joined(separator: ","), "BYSETPOS=-1"]
      }
    case .year:
      parts = ["FREQ=YEARLY"]
      if let day, day == 29 { parts += ["BYMONTHDAY=28,29", "BYSETPOS=-1"] }
    }
    if let count = schedule.repeatCount { parts.append("COUNT=\(count)") }
    if let until = schedule.until { parts.append("UNTIL=" + utc(until)) }
    return parts.joined(separator: ";")
  }

  static func utc(_ date: Date) -> String {
    CalendarDateTime(
      wall: WallClock(localSeconds: Int64(date.timeIntervalSince1970.rounded(.down))), reference: .utc
    ).text
  }

  /// A content line folded at 75 octets, never inside a UTF-8 sequence.
  static func fold(_ line: String) -> String {
    let bytes = Array(line.utf8)
    guard bytes.count > 75 else { return line }
    var result: [UInt8] = []
    var start = 0
    var width = 75
    while start < bytes.count {
      var end = min(start + width, bytes.count)
      while end < bytes.count && end > start && bytes[end] & 0xC0 == 0x80 { end -= 1 }
      if start > 0 { result += [0x0D, 0x0A, 0x20] }
      result += bytes[start..<end]
      start = end
      width = 74
    }
    return String(decoding: result, as: UTF8.self)
  }
}

import Foundation
import NotifyCore

/// Reads VEVENT and VTODO components into `CalendarItem`s. A property it cannot read is
/// skipped with a warning naming its line; an item without what it needs (a VEVENT without
/// DTSTART) is skipped whole, with a warning.
struct ItemReader {
  /// RDATE and EXDATE values per item at most: a list longer than this is cut, with a warning.
  static let maxDates = 10_000
  /// Alarms per item at most.
  static let maxAlarms = 100

  var warnings: [CalendarWarning] = []

  private mutating func warn(_ line: ContentLine, _ problem: String) {
    warnings.append(CalendarWarning(line: line.line, property: line.name, problem))
  }

  mutating func item(from component: CalendarComponent) -> CalendarItem? {
    let kind = CalendarItem.Kind(rawValue: component.name)!
    var uid = component.property("UID")?.value ?? ""
    if uid.isEmpty {
      uid = "line-\(component.line)"
      warnings.append(
        CalendarWarning(
          line: component.line, property: component.name,
          "has no UID: its alarms are known by the line it starts on, which an edit may change"))
    }
    var item = CalendarItem(kind: kind, uid: uid, line: component.line, byteRange: component.byteRange)
    for line in component.properties {
      switch line.name {
      case "DTSTART": item.start = dateTime(line)
      case "DTEND": item.end = dateTime(line)
      case "DUE": item.due = dateTime(line)
      case "DURATION":
        if let duration = CalendarDuration(parsing: line.value.trimmingCharacters(in: .whitespaces)) {
          item.duration = duration
        } else {
          warn(line, "skipped: '\(Escaper.visible(line.value, limit: 40))' is not a duration (such as PT1H)")
        }
      case "RECURRENCE-ID":
        item.recurrenceID = dateTime(line)
        item.thisAndFuture = line.parameter("RANGE")?.uppercased() == "THISANDFUTURE"
      case "RRULE": item.rules.append((line.value, line.line))
      case "SEQUENCE": item.sequence = Int(line.value.trimmingCharacters(in: .whitespaces)) ?? 0
      case "RDATE":
        for value in dateList(line, periods: true) where item.recurrenceDates.count < Self.maxDates {
          item.recurrenceDates.append(value)
        }
      case "EXDATE":
        for value in dateList(line, periods: false) where item.exceptionDates.count < Self.maxDates {
          item.exceptionDates.append(value.start)
        }
      case "STATUS": item.isCancelled = line.value.uppercased() == "CANCELLED"
      case "SUMMARY": item.summary = CalendarText.unescaped(line.value)
      case "DESCRIPTION": item.description = CalendarText.unescaped(line.value)
      case "X-MOZ-LASTACK": item.lastAcknowledged = instant(line)
      default:
        if line.name == "X-MOZ-SNOOZE-TIME" {
          if let date = instant(line) { item.snoozedUntil[""] = date }
        } else if line.name.hasPrefix("X-MOZ-SNOOZE-TIME-") {
          if let date = instant(line) { item.snoozedUntil[String(line.name.dropFirst(18))] = date }
        }
      }
    }
    if kind == .event && item.start == nil {
      warnings.append(
        CalendarWarning(line: component.line, property: "VEVENT", "skipped: it has no (readable) DTSTART"))
      return nil
    }
    var contents: Set<[ContentLine]> = []
    var keys: [String: Int] = [:]
    for alarmComponent in component.components("VALARM") {
      guard item.alarms.count < Self.maxAlarms else {
        warnings.append(
          CalendarWarning(
            line: alarmComponent.line, property: "VALARM",
            "skipped: the item has more than \(Self.maxAlarms) alarms"))
        break
      }
      // The same alarm written twice is one alarm (as recurring-ical-events counts them).
      let content = alarmComponent.properties.map {
        ContentLine(name: $0.name, parameters: $0.parameters, value: $0.value, line: 0, byteRange: 0..<0)
      }
      guard contents.insert(content).inserted, var alarm = alarm(from: alarmComponent) else { continue }
      keys[alarm.key, default: 0] += 1
      if let n = keys[alarm.key], n > 1 { alarm.key += "#\(n)" }
      item.alarms.append(alarm)
    }
    return item
  }

  private mutating func dateTime(_ line: ContentLine) -> CalendarDateTime? {
    guard let value = CalendarDateTime(line: line) else {
      warn(line, "skipped: '\(Escaper.visible(line.value, limit: 40))' is not a date or date-time")
      return nil
    }
    return value
  }

  /// A UTC date-time such as ACKNOWLEDGED's (RFC 5545 requires UTC there; a floating one is read as UTC).
  private mutating func instant(_ line: ContentLine) -> Date? {
    guard let value = CalendarDateTime(parsing: line.value.trimmingCharacters(in: .whitespaces), tzid: nil),
      !value.isDate
    else {
      warn(line, "skipped: '\(Escaper.visible(line.value, limit: 40))' is not a UTC date-time")
      return nil
    }
    return Date(timeIntervalSince1970: TimeInterval(value.wall.localSeconds))
  }

  /// The values of an RDATE or EXDATE line: dates, date-times, or (RDATE) periods.
  private mutating func dateList(_ line: ContentLine, periods: Bool) -> [(
    start: CalendarDateTime, end: CalendarDateTime?
  )] {
    let tzid = line.parameter("TZID")
    let kind = line.parameter("VALUE")?.uppercased()
    var result: [(CalendarDateTime, CalendarDateTime?)] = []
    for text in line.value.split(separator: ",") {
      let piece = text.trimmingCharacters(in: .whitespaces)
      if let slash = piece.firstIndex(of: "/") {
        guard periods, let start = CalendarDateTime(parsing: String(piece[..<slash]), tzid: tzid),
          !start.isDate
        else {
          warn(line, "skipped the value '\(Escaper.visible(piece, limit: 40))': not a period")
          continue
        }
        let rest = String(piece[piece.index(after: slash)...])
        if let end = CalendarDateTime(parsing: rest, tzid: tzid), !end.isDate {
          result.append((start, end))
        } else if let length = CalendarDuration(parsing: rest) {
          result.append((start, Self.adding(length, to: start)))
        } else {
          warn(
            line, "skipped the value '\(Escaper.visible(piece, limit: 40))': the period's end is not readable"
          )
        }
        continue
      }
      guard let value = CalendarDateTime(parsing: piece, tzid: tzid), kind != "DATE" || value.isDate else {
        warn(line, "skipped the value '\(Escaper.visible(piece, limit: 40))': not a date or date-time")
        continue
      }
      result.append((value, nil))
    }
    return result
  }

  /// A period's end from its start and duration, as wall-clock arithmetic on the start's
  /// components (the expansion resolves it in the start's zone).
  static func adding(_ duration: CalendarDuration, to time: CalendarDateTime) -> CalendarDateTime {
    var copy = time
    copy.wall = WallClock(
      localSeconds: time.wall.addingDays(duration.days).localSeconds + Int64(duration.seconds))
    return copy
  }

  private mutating func alarm(from component: CalendarComponent) -> CalendarAlarm? {
    func skip(_ problem: String) -> CalendarAlarm? {
      warnings.append(CalendarWarning(line: component.line, property: "VALARM", "skipped: \(problem)"))
      return nil
    }
    guard let actionLine = component.property("ACTION") else { return skip("it has no ACTION") }
    let action: CalendarAlarm.Action
    switch actionLine.value.uppercased() {
    case "DISPLAY": action = .display
    case "AUDIO": action = .audio
    default: action = .other(actionLine.value.uppercased())
    }
    guard let triggerLine = component.property("TRIGGER") else { return skip("it has no TRIGGER") }
    let trigger: CalendarAlarm.Trigger
    let text = triggerLine.value.trimmingCharacters(in: .whitespaces)
    if triggerLine.parameter("VALUE")?.uppercased() == "DATE-TIME" {
      guard let at = CalendarDateTime(parsing: text, tzid: triggerLine.parameter("TZID")), !at.isDate else {
        warn(triggerLine, "skipped with its VALARM: '\(Escaper.visible(text, limit: 40))' is not a date-time")
        return nil
      }
      trigger = .absolute(at)
    } else if let offset = CalendarDuration(parsing: text) {
      trigger = .relative(offset, toEnd: triggerLine.parameter("RELATED")?.uppercased() == "END")
    } else if let at = CalendarDateTime(parsing: text, tzid: nil), !at.isDate {
      // A date-time without VALUE=DATE-TIME: written so by some tools; taken as meant.
      trigger = .absolute(at)
    } else {
      warn(
        triggerLine,
        "skipped with its VALARM: '\(Escaper.visible(text, limit: 40))' is not a duration or date-time")
      return nil
    }
    var alarm = CalendarAlarm(
      action: action, trigger: trigger, line: component.line, byteRange: component.byteRange)
    let repeatLine = component.property("REPEAT")
    let durationLine = component.property("DURATION")
    if let repeatLine {
      let count = Int(repeatLine.value.trimmingCharacters(in: .whitespaces)) ?? -1
      if !(0...1000).contains(count) {
        warn(repeatLine, "skipped: REPEAT is a count from 0 to 1000")
      } else if let durationLine, let interval = CalendarDuration(parsing: durationLine.value),
        interval.approximateSeconds > 0
      {
        alarm.repeatCount = count
        alarm.repeatInterval = interval
      } else {
        warn(repeatLine, "skipped: REPEAT needs a DURATION above zero beside it")
      }
    } else if let durationLine {
      warn(durationLine, "skipped: DURATION needs REPEAT beside it")
    }
    for line in component.properties {
      switch line.name {
      case "ATTACH": if alarm.attachment == nil { alarm.attachment = line.value }
      case "DESCRIPTION": alarm.description = CalendarText.unescaped(line.value)
      case "UID": alarm.uid = line.value
      case "ACKNOWLEDGED": alarm.acknowledged = instant(line)
      case "RELATED-TO":
        if line.parameter("RELTYPE")?.uppercased() == "SNOOZE" { alarm.snoozes = line.value }
      default: break
      }
    }
    // Its UID, read only now, is what identifies it when it has one.
    alarm.key = alarm.baseKey
    return alarm
  }
}

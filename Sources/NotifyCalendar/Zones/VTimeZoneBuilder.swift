import Foundation
import NotifyCore

/// A zone made from a file's VTIMEZONE (RFC 5545 §3.6.5), for a TZID the tz database does
/// not know (`W. Europe Standard Time`, a custom name).
///
/// Each STANDARD and DAYLIGHT sub-component contributes its onsets: DTSTART, the times its
/// RRULE makes (through notify's recurrence engine, in local time) and its RDATEs, each
/// read in the offset it changes from (TZOFFSETFROM). Bounded for a hostile file: at most
/// `maxSubcomponents` sub-components, `maxOnsets` onsets each and none past
/// `lastYear`; past the last onset its offset holds.
enum VTimeZoneBuilder {
  static let maxSubcomponents = 64
  static let maxOnsets = 500
  static let lastYear = 2200

  static func zone(tzid: String, component: CalendarComponent) -> Zone? {
    var transitions: [(at: Int64, type: LocalTimeType)] = []
    var earliest: (at: Int64, from: Int)?
    let limit = WallClock(year: lastYear, month: 12, day: 31, hour: 23, minute: 59, second: 59).localSeconds
    for sub in component.components.prefix(maxSubcomponents)
    where sub.name == "STANDARD" || sub.name == "DAYLIGHT" {
      guard let startLine = sub.property("DTSTART"),
        let start = CalendarDateTime(
          parsing: startLine.value.trimmingCharacters(in: .whitespaces), tzid: nil),
        let from = sub.property("TZOFFSETFROM").flatMap({ offset($0.value) }),
        let to = sub.property("TZOFFSETTO").flatMap({ offset($0.value) })
      else { continue }
      let name = sub.property("TZNAME").map { CalendarText.unescaped($0.value) } ?? ""
      let type = LocalTimeType(
        utcOffset: to, isDaylightSavingTime: sub.name == "DAYLIGHT",
        abbreviation: name.isEmpty ? Self.numeric(to) : String(name.prefix(16)))
      var onsets: [Int64] = [start.wall.localSeconds]
      if let ruleLine = sub.property("RRULE"), let rule = try? RecurrenceRule(parsing: ruleLine.value) {
        var schedule = Schedule(
          fireDate: .instant(Date(timeIntervalSince1970: TimeInterval(start.wall.localSeconds))))
        schedule.rule = rule
        var index = 0
        while onsets.count < maxOnsets, let date = schedule.occurrence(index, zones: .utc) {
          let local = Int64(date.timeIntervalSince1970)
          if local > limit { break }
          onsets.append(local)
          index += 1
        }
      }
      for line in sub.properties("RDATE") {
        for text in line.value.split(separator: ",").prefix(maxOnsets) {
          if let date = CalendarDateTime(
            parsing: String(text).trimmingCharacters(in: .whitespaces), tzid: nil)
          {
            onsets.append(date.wall.localSeconds)
          }
        }
      }
      for local in Set(onsets) where local <= limit {
        // An onset is a local time in the offset before it (TZOFFSETFROM).
        let at = local - Int64(from)
        transitions.append((at, type))
        if earliest.map({ at < $0.at }) ?? true { earliest = (at, from) }
      }
    }
    guard let earliest else { return nil }
    transitions.sort { $0.at < $1.at }
    let initial = LocalTimeType(
      utcOffset: earliest.from, isDaylightSavingTime: false, abbreviation: numeric(earliest.from))
    return Zone(identifier: tzid, initial: initial, transitions: transitions, footer: nil)
  }

  /// `+0100`, `-0530`, `+013045` as seconds east of UTC.
  static func offset(_ text: String) -> Int? {
    let chars = Array(text.trimmingCharacters(in: .whitespaces).utf8)
    guard chars.count == 5 || chars.count == 7, chars[0] == UInt8(ascii: "+") || chars[0] == UInt8(ascii: "-")
    else {
      return nil
    }
    var parts: [Int] = []
    var index = 1
    while index + 1 < chars.count + 1 && index < chars.count {
      let a = chars[index], b = chars[index + 1]
      guard (48...57).contains(a), (48...57).contains(b) else { return nil }
      parts.append(Int(a - 48) * 10 + Int(b - 48))
      index += 2
    }
    guard parts.count >= 2, parts[0] <= 23, parts[1] <= 59, parts.count < 3 || parts[2] <= 59 else {
      return nil
    }
    let seconds = parts[0] * 3600 + parts[1] * 60 + (parts.count > 2 ? parts[2] : 0)
    return chars[0] == UInt8(ascii: "-") ? -seconds : seconds
  }

  /// `+0530` for an offset without a name.
  static func numeric(_ offset: Int) -> String {
    let sign = offset < 0 ? "-" : "+"
    let minutes = abs(offset) / 60
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return sign + two(minutes / 60) + two(minutes % 60)
  }
}

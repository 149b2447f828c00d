import Foundation
import NotifyCore

/// A DATE or DATE-TIME value (RFC 5545 §3.3.4, §3.3.5) with where its wall-clock time is
/// read: UTC (`Z`), a named zone (`TZID=`), or floating (the system zone's wall clock).
public struct CalendarDateTime: Hashable, Sendable {
  /// How the wall-clock components are tied to an instant.
  public enum Reference: Hashable, Sendable {
    /// `...Z`: UTC.
    case utc
    /// `TZID=NAME`: a zone the calendar's zones resolve (the tz database, or the file's VTIMEZONE).
    case zone(String)
    /// No zone: the wall clock wherever the user is (the system zone).
    case floating
  }

  /// The wall-clock components (00:00:00 for a DATE).
  public var wall: WallClock
  /// Whether it is a DATE (a whole day, `VALUE=DATE`).
  public var isDate: Bool
  /// How the components become an instant.
  public var reference: Reference

  /// Creates a value.
  public init(wall: WallClock, isDate: Bool = false, reference: Reference) {
    self.wall = wall
    self.isDate = isDate
    self.reference = reference
  }

  /// Parses `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `YYYYMMDDTHHMMSSZ`; `tzid` applies to a
  /// DATE-TIME without `Z` (a DATE is floating whatever the parameter says). Nil when the
  /// text is none of these or names no real date and time.
  public init?(parsing text: String, tzid: String?) {
    let chars = Array(text.utf8)
    func digits(_ range: Range<Int>) -> Int? { ASCIIDigits.value(chars, range) }
    guard let year = digits(0..<4), let month = digits(4..<6), let day = digits(6..<8) else { return nil }
    if chars.count == 8 {
      let wall = WallClock(year: year, month: month, day: day)
      guard wall.isValid, year >= 1 else { return nil }
      self.init(wall: wall, isDate: true, reference: .floating)
      return
    }
    guard chars.count == 15 || chars.count == 16,
      chars[8] == UInt8(ascii: "T") || chars[8] == UInt8(ascii: "t"),
      let hour = digits(9..<11), let minute = digits(11..<13), var second = digits(13..<15)
    else { return nil }
    // A leap second is read as the second before it: Unix time has none.
    if second == 60 { second = 59 }
    let wall = WallClock(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    guard wall.isValid, year >= 1 else { return nil }
    if chars.count == 16 {
      guard chars[15] == UInt8(ascii: "Z") || chars[15] == UInt8(ascii: "z") else { return nil }
      self.init(wall: wall, reference: .utc)
    } else if let tzid, !tzid.isEmpty {
      self.init(wall: wall, reference: .zone(tzid))
    } else {
      self.init(wall: wall, reference: .floating)
    }
  }

  /// `DTSTART;TZID=...:value` and the like: the value of `line` with its TZID, checking
  /// `VALUE=DATE` against the text.
  public init?(line: ContentLine) {
    let text = line.value.trimmingCharacters(in: .whitespaces)
    self.init(parsing: text, tzid: line.parameter("TZID"))
    if let kind = line.parameter("VALUE")?.uppercased() {
      if kind == "DATE" && !isDate { return nil }
      if kind == "DATE-TIME" && isDate { return nil }
    }
  }

  /// The same value as a DATE-TIME at midnight when it is a DATE.
  var asDateTime: CalendarDateTime {
    var copy = self
    copy.isDate = false
    return copy
  }

  /// `20261210T090000Z`, `20261210T090000`, `20261210`: the value's text as iCalendar writes it.
  public var text: String {
    func pad(_ value: Int, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    let date = pad(wall.year, 4) + pad(wall.month, 2) + pad(wall.day, 2)
    if isDate { return date }
    let time = "T" + pad(wall.hour, 2) + pad(wall.minute, 2) + pad(wall.second, 2)
    return date + time + (reference == .utc ? "Z" : "")
  }
}

extension CalendarDateTime.Reference {
  /// The TZID of a zoned value, nil otherwise.
  public var zoneName: String? {
    if case .zone(let name) = self { return name }
    return nil
  }
}

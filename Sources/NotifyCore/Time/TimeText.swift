import Foundation

/// The pieces of an `--at` / `--until` text, checked for syntax and ranges but not yet
/// given a meaning. Grammar (no surrounding whitespace):
///
///     [YYYY-MM-DD(T|t| )]HH:MM[:SS[.fraction]][Z|z|(+|-)HH:MM]
///
/// An offset or a fraction is only allowed with a date; second 60 only with an offset.
struct TimeText {
  /// `YYYY-MM-DD`, when given.
  var date: (year: Int, month: Int, day: Int)?
  var hour: Int
  var minute: Int
  var second: Int
  /// The sub-second part, when given.
  var fraction: TimeInterval
  /// The UTC offset in seconds, when given (`Z` is 0).
  var offset: Int?
  /// Whether a fraction was written (even `.000`).
  private var hasFraction = false

  /// The forms accepted, for error messages.
  static let forms =
    "use 2026-11-22T09:00:00+01:00 (or Z) for an instant, 2026-11-22T09:00[:SS] or 09:00[:SS] for a wall-clock time"

  /// Parses and range-checks `text`; `option` is what messages call it.
  init(_ text: String, option: Term) throws(NotifyError) {
    var scanner = Scanner(bytes: Array(text.utf8))
    let shown = Escaper.visible(text, limit: 60)
    let syntax = NotifyError(
      .invalidData, "\(term: option) '\(shown)' is not a time", fix: ErrorText(Self.forms))

    if scanner.looksLikeDate {
      guard let year = scanner.number(digits: 4), scanner.skip("-"),
        let month = scanner.number(digits: 2), scanner.skip("-"),
        let day = scanner.number(digits: 2)
      else { throw syntax }
      guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" ") else {
        if scanner.isAtEnd {
          throw NotifyError(
            .invalidData, "\(term: option) '\(shown)' has a date but no time",
            fix: "add the time, as in \(text)T09:00")
        }
        throw syntax
      }
      date = (year, month, day)
    }
    guard let hour = scanner.number(digits: 2), scanner.skip(":"),
      let minute = scanner.number(digits: 2)
    else { throw syntax }
    self.hour = hour
    self.minute = minute
    second = 0
    fraction = 0
    if scanner.skip(":") {
      guard let second = scanner.number(digits: 2) else { throw syntax }
      self.second = second
      if scanner.skip(".") {
        let digits = scanner.digits()
        guard !digits.isEmpty else { throw syntax }
        fraction = Double("0." + digits) ?? 0
        hasFraction = true
      }
    }
    if scanner.skip("Z") || scanner.skip("z") {
      offset = 0
    } else if let sign = scanner.sign() {
      guard let hours = scanner.number(digits: 2), scanner.skip(":"),
        let minutes = scanner.number(digits: 2)
      else { throw syntax }
      guard hours <= 23, minutes <= 59 else {
        throw NotifyError(
          .invalidData, "\(term: option) '\(shown)' has the out-of-range offset \(text.suffix(6))",
          fix: "use an offset from -23:59 to +23:59")
      }
      offset = sign * (hours * 3600 + minutes * 60)
    }
    guard scanner.isAtEnd else { throw syntax }
    try checkRanges(option: option, shown: shown)
  }

  private func checkRanges(option: Term, shown: String) throws(NotifyError) {
    func outOfRange(_ what: String, fix: ErrorText) -> NotifyError {
      NotifyError(.invalidData, "\(term: option) '\(shown)': \(what)", fix: fix)
    }
    if let date {
      guard (1...12).contains(date.month) else {
        throw outOfRange("month \(date.month) does not exist", fix: "use a month from 01 to 12")
      }
      let days = CivilCalendar.daysInMonth(date.month, of: date.year)
      guard (1...days).contains(date.day) else {
        throw outOfRange(
          "day \(date.day) does not exist in \(Self.monthNames[date.month - 1]) \(date.year)",
          fix: "use a day from 01 to \(days)")
      }
    } else {
      if offset != nil {
        throw outOfRange(
          "a time of day cannot carry an offset",
          fix: "give the full date, as in 2026-11-22T09:00:00Z, or drop the offset and use \(term: .timeZone)"
        )
      }
    }
    guard hour <= 23 else {
      throw outOfRange("hour \(hour) does not exist", fix: "use an hour from 00 to 23 (midnight is 00:00)")
    }
    guard minute <= 59 else {
      throw outOfRange("minute \(minute) does not exist", fix: "use a minute from 00 to 59")
    }
    if second == 60 && offset == nil {
      throw outOfRange(
        "second 60 (a leap second) needs an offset",
        fix: "use :59, or give an RFC 3339 instant such as 2016-12-31T23:59:60Z")
    }
    guard second <= 60 else {
      throw outOfRange("second \(second) does not exist", fix: "use a second from 00 to 59")
    }
    if hasFraction && offset == nil {
      throw outOfRange(
        "fractional seconds need an offset",
        fix: "drop the fraction, or add Z or an offset such as +01:00 for an instant")
    }
  }

  /// The wall-clock components; only meaningful when `date` is set.
  var wallClock: WallClock? {
    guard let date else { return nil }
    return WallClock(
      year: date.year, month: date.month, day: date.day, hour: hour, minute: minute, second: second)
  }

  /// The instant, when the text carries a date and an offset. Second 60 counts as the
  /// first second of the next minute, as in Unix time.
  var instant: Date? {
    guard let offset, let wall = wallClock else { return nil }
    return Date(timeIntervalSince1970: TimeInterval(wall.localSeconds - Int64(offset)) + fraction)
  }

  private static let monthNames = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]
}

/// A cursor over ASCII bytes.
private struct Scanner {
  let bytes: [UInt8]
  var position = 0

  var isAtEnd: Bool { position == bytes.count }

  /// Whether the text starts with four digits and a dash.
  var looksLikeDate: Bool {
    bytes.count >= 5 && bytes[0..<4].allSatisfy(Self.isDigit) && bytes[4] == UInt8(ascii: "-")
  }

  mutating func skip(_ character: Unicode.Scalar) -> Bool {
    guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
    position += 1
    return true
  }

  /// Exactly `digits` decimal digits.
  mutating func number(digits: Int) -> Int? {
    guard position + digits <= bytes.count else { return nil }
    var value = 0
    for byte in bytes[position..<position + digits] {
      guard Self.isDigit(byte) else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    position += digits
    return value
  }

  /// A run of decimal digits (possibly empty).
  mutating func digits() -> String {
    let start = position
    while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  /// `+` as 1, `-` as -1.
  mutating func sign() -> Int? {
    if skip("+") { return 1 }
    if skip("-") { return -1 }
    return nil
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }
}

extension POSIXTimeZone {
  /// Parses `std offset [dst [offset] [,start[/time],end[/time]]]`.
  ///
  /// Names are three or more letters, or `<...>` with letters, digits, `+` and `-`.
  /// Offsets are `[+-]hh[:mm[:ss]]`, hours 0...24, positive west of Greenwich as POSIX
  /// has it; DST defaults to one hour ahead of standard time. Dates are `Jn` (1...365),
  /// `n` (0...365) or `Mm.w.d`; times are `[+-]hhh[:mm[:ss]]` with hours up to 167
  /// (default 02:00). DST without dates takes the US rule `M3.2.0,M11.1.0`, as glibc does.
  package init(_ text: String) throws {
    var scanner = RuleScanner(bytes: Array(text.utf8))
    let standardName = try scanner.name(role: "standard time")
    guard let standardOffset = try scanner.offset(role: "standard time") else {
      throw ZoneDataError("the standard time '\(standardName)' has no offset (as in CET-1)")
    }
    let standard = LocalTimeType(
      utcOffset: -standardOffset, isDaylightSavingTime: false, abbreviation: standardName)
    if scanner.isAtEnd {
      self.init(standard: standard, daylight: nil)
      return
    }
    guard !scanner.peek(","), !scanner.peek("/") else {
      throw ZoneDataError("transition dates without a daylight saving time name")
    }
    let daylightName = try scanner.name(role: "daylight saving time")
    let daylightOffset =
      try scanner.offset(role: "daylight saving time").map { -$0 } ?? standard.utcOffset + 3600
    let type = LocalTimeType(
      utcOffset: daylightOffset, isDaylightSavingTime: true, abbreviation: daylightName)
    let start: Transition
    let end: Transition
    if scanner.isAtEnd {
      start = Transition(date: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
      end = Transition(date: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
    } else {
      guard scanner.skip(",") else { throw scanner.unexpected(expecting: "',' before the start date") }
      start = try scanner.transition(role: "start")
      guard scanner.skip(",") else { throw scanner.unexpected(expecting: "',' before the end date") }
      end = try scanner.transition(role: "end")
      guard scanner.isAtEnd else { throw scanner.unexpected(expecting: "the end of the rule") }
    }
    self.init(standard: standard, daylight: Daylight(type: type, start: start, end: end))
  }
}

/// A cursor over the bytes of a POSIX TZ string.
private struct RuleScanner {
  let bytes: [UInt8]
  var position = 0

  var isAtEnd: Bool { position == bytes.count }

  func peek(_ character: Unicode.Scalar) -> Bool {
    position < bytes.count && bytes[position] == UInt8(ascii: character)
  }

  mutating func skip(_ character: Unicode.Scalar) -> Bool {
    guard peek(character) else { return false }
    position += 1
    return true
  }

  func unexpected(expecting: String) -> ZoneDataError {
    guard position < bytes.count else { return ZoneDataError("it ends where \(expecting) should be") }
    let rest = String(decoding: bytes[position...].prefix(12), as: UTF8.self)
    return ZoneDataError("expected \(expecting) at byte \(position + 1), found '\(Escaper.visible(rest))'")
  }

  /// `abc` (three or more letters) or `<+0530>`.
  mutating func name(role: String) throws -> String {
    let start = position
    if skip("<") {
      while position < bytes.count, Self.isQuotable(bytes[position]) { position += 1 }
      let name = String(decoding: bytes[start + 1..<position], as: UTF8.self)
      guard skip(">") else { throw unexpected(expecting: "'>' closing the \(role) name") }
      guard name.utf8.count >= 3 else {
        throw ZoneDataError("the \(role) name '<\(name)>' is shorter than three characters")
      }
      return name
    }
    while position < bytes.count, Self.isLetter(bytes[position]) { position += 1 }
    let name = String(decoding: bytes[start..<position], as: UTF8.self)
    guard name.utf8.count >= 3 else {
      if name.isEmpty { throw unexpected(expecting: "a \(role) name (three or more letters, or <...>)") }
      throw ZoneDataError("the \(role) name '\(name)' is shorter than three letters")
    }
    return name
  }

  /// `[+-]hh[:mm[:ss]]` in seconds (positive west), hours 0...24; nil when absent.
  mutating func offset(role: String) throws -> Int? {
    guard position < bytes.count, Self.isDigit(bytes[position]) || peek("+") || peek("-") else { return nil }
    let seconds = try clock(maximumHours: 24, role: "\(role) offset")
    return Int(seconds)
  }

  /// `date[/time]`.
  mutating func transition(role: String) throws -> POSIXTimeZone.Transition {
    let date: POSIXTimeZone.DateRule
    if skip("J") {
      let day = try number(role: "\(role) day after J")
      guard (1...365).contains(day) else { throw ZoneDataError("the \(role) day J\(day) is not 1...365") }
      date = .julian(day)
    } else if skip("M") {
      let month = try number(role: "\(role) month after M")
      guard skip(".") else { throw unexpected(expecting: "'.' after the \(role) month") }
      let week = try number(role: "\(role) week")
      guard skip(".") else { throw unexpected(expecting: "'.' after the \(role) week") }
      let weekday = try number(role: "\(role) weekday")
      guard (1...12).contains(month) else { throw ZoneDataError("the \(role) month \(month) is not 1...12") }
      guard (1...5).contains(week) else { throw ZoneDataError("the \(role) week \(week) is not 1...5") }
      guard (0...6).contains(weekday) else {
        throw ZoneDataError("the \(role) weekday \(weekday) is not 0...6")
      }
      date = .monthWeekDay(month: month, week: week, weekday: weekday)
    } else {
      let day = try number(role: "\(role) day")
      guard (0...365).contains(day) else { throw ZoneDataError("the \(role) day \(day) is not 0...365") }
      date = .zeroBased(day)
    }
    let time = skip("/") ? try clock(maximumHours: 167, role: "\(role) time") : 7200
    return POSIXTimeZone.Transition(date: date, time: time)
  }

  /// `[+-]h[hh][:mm[:ss]]` in seconds.
  private mutating func clock(maximumHours: Int, role: String) throws -> Int64 {
    let sign: Int64 = skip("-") ? -1 : (skip("+") ? 1 : 1)
    let hours = try number(role: "\(role) hours", maximumDigits: 3)
    guard hours <= maximumHours else {
      throw ZoneDataError("the \(role) hours \(hours) are not 0...\(maximumHours)")
    }
    var minutes = 0
    var seconds = 0
    if skip(":") {
      minutes = try twoDigits(role: "\(role) minutes")
      if skip(":") { seconds = try twoDigits(role: "\(role) seconds") }
    }
    return sign * Int64(hours * 3600 + minutes * 60 + seconds)
  }

  private mutating func twoDigits(role: String) throws -> Int {
    let start = position
    let value = try number(role: role, maximumDigits: 2)
    guard position - start == 2, value <= 59 else {
      throw ZoneDataError("the \(role) must be two digits 00...59")
    }
    return value
  }

  private mutating func number(role: String, maximumDigits: Int = 3) throws -> Int {
    let start = position
    var value = 0
    while position < bytes.count, Self.isDigit(bytes[position]), position - start < maximumDigits {
      value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
      position += 1
    }
    guard position > start else { throw unexpected(expecting: "the \(role)") }
    if position < bytes.count, Self.isDigit(bytes[position]) {
      throw ZoneDataError("the \(role) has more than \(maximumDigits) digits")
    }
    return value
  }

  private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
  private static func isLetter(_ byte: UInt8) -> Bool {
    (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
  }
  private static func isQuotable(_ byte: UInt8) -> Bool {
    isDigit(byte) || isLetter(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
  }
}

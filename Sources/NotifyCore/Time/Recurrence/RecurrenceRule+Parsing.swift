import Foundation

extension RecurrenceRule {
  /// Parses an RRULE value (`FREQ=WEEKLY;BYDAY=MO,WE`), optionally written as a content
  /// line (`RRULE:FREQ=...`) and followed, on further lines, by `EXDATE:` lines of
  /// excluded dates (`EXDATE:20261224T090000,20261231`). Names are case-insensitive.
  public init(parsing text: String) throws(RecurrenceRuleError) {
    var ruleLine: String?
    var exclusions: [Exclusion] = []
    let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map(String.init)
      .filter { !$0.allSatisfy(\.isWhitespace) }
    for line in lines {
      let upper = line.uppercased()
      if upper.hasPrefix("EXDATE") {
        exclusions += try Self.parseExclusionLine(line)
      } else if ruleLine == nil {
        ruleLine = upper.hasPrefix("RRULE:") ? String(line.dropFirst(6)) : line
      } else {
        throw RecurrenceRuleError(
          part: Self.visible(line), "a rule has one RRULE line",
          fix: "give one RRULE, and EXDATE lines for excluded dates")
      }
    }
    guard let ruleLine, !ruleLine.isEmpty else {
      throw RecurrenceRuleError(
        part: Self.visible(text), "there is no rule", fix: "give e.g. FREQ=WEEKLY;BYDAY=MO,WE")
    }
    try self.init(parsingValue: ruleLine, exclusions: exclusions)
  }

  private init(parsingValue value: String, exclusions: [Exclusion]) throws(RecurrenceRuleError) {
    var fields: [String: String] = [:]
    var written: [String: String] = [:]
    for raw in value.split(separator: ";", omittingEmptySubsequences: false) {
      let piece = String(raw)
      guard let equals = piece.firstIndex(of: "="), equals != piece.startIndex else {
        throw RecurrenceRuleError(
          part: Self.visible(piece), "a rule part is NAME=VALUE",
          fix: "separate parts with ';', e.g. FREQ=DAILY;COUNT=5")
      }
      let name = piece[..<equals].trimmingCharacters(in: .whitespaces).uppercased()
      let fieldValue = piece[piece.index(after: equals)...].trimmingCharacters(in: .whitespaces)
      guard fields[name] == nil else {
        throw RecurrenceRuleError(
          part: Self.visible(name), "the part is given twice", fix: "give each part once")
      }
      guard Self.knownParts.contains(name) else {
        let problem =
          Self.unsupportedParts.contains(name)
          ? "\(name) is an RFC 5545 part notify does not support"
          : "unknown rule part"
        throw RecurrenceRuleError(
          part: Self.visible(piece), problem,
          fix:
            "use FREQ, INTERVAL, BYMONTH, BYMONTHDAY, BYDAY, BYHOUR, BYMINUTE, BYSECOND, BYSETPOS, COUNT, UNTIL, WKST"
        )
      }
      guard !fieldValue.isEmpty else {
        throw RecurrenceRuleError(
          part: Self.visible(piece), "the value is empty", fix: "give a value after '='")
      }
      fields[name] = fieldValue.uppercased()
      written[name] = "\(name)=\(fieldValue)"
    }
    func part(_ name: String) -> String { Self.visible(written[name] ?? name) }

    guard let freqText = fields["FREQ"] else {
      throw RecurrenceRuleError(
        part: Self.visible(value), "the rule has no FREQ", fix: "add FREQ=DAILY, WEEKLY, MONTHLY, ...")
    }
    guard let frequency = Frequency(rawValue: freqText) else {
      let fix =
        freqText == "SECONDLY"
        ? "notify repeats at most once a minute: use FREQ=MINUTELY"
        : "use MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY"
      throw RecurrenceRuleError(part: part("FREQ"), "unknown frequency", fix: fix)
    }
    func number(_ name: String, _ text: String) throws(RecurrenceRuleError) -> Int {
      let digits = text.hasPrefix("+") ? String(text.dropFirst()) : text
      guard !digits.isEmpty, digits.count <= 12, let value = Int(digits),
        digits.drop(while: { $0 == "-" }).allSatisfy(\.isASCII)
      else {
        throw RecurrenceRuleError(
          part: part(name), "'\(Self.visible(text))' is not a whole number",
          fix: "write digits, e.g. \(name)=2")
      }
      return value
    }
    func list(_ name: String) throws(RecurrenceRuleError) -> [Int] {
      guard let text = fields[name] else { return [] }
      var values: [Int] = []
      for item in text.split(separator: ",", omittingEmptySubsequences: false) {
        values.append(try number(name, String(item)))
      }
      return values
    }
    let interval =
      try fields["INTERVAL"].map { (t: String) throws(RecurrenceRuleError) in try number("INTERVAL", t) } ?? 1
    let count = try fields["COUNT"].map { (t: String) throws(RecurrenceRuleError) in try number("COUNT", t) }
    var byDay: [WeekdayEntry] = []
    if let text = fields["BYDAY"] {
      for item in text.split(separator: ",", omittingEmptySubsequences: false) {
        guard let entry = Self.weekdayEntry(String(item)) else {
          throw RecurrenceRuleError(
            part: part("BYDAY"), "'\(Self.visible(String(item)))' is not a weekday",
            fix: "use MO TU WE TH FR SA SU, with an optional ordinal: 1MO, -1FR")
        }
        byDay.append(entry)
      }
    }
    var weekStart = Weekday.monday
    if let text = fields["WKST"] {
      guard let day = Weekday.allCases.first(where: { $0.code == text }) else {
        throw RecurrenceRuleError(
          part: part("WKST"), "not a weekday", fix: "use MO, TU, WE, TH, FR, SA or SU")
      }
      weekStart = day
    }
    var until: Until?
    if let text = fields["UNTIL"] {
      guard let parsed = Self.parseDateValue(text) else {
        throw RecurrenceRuleError(
          part: part("UNTIL"), "not an RFC 5545 date or date-time",
          fix: "write YYYYMMDDTHHMMSSZ (UTC), YYYYMMDDTHHMMSS (the notification's zone) or YYYYMMDD")
      }
      until = parsed
    }
    try self.init(
      frequency: frequency, interval: interval, bySecond: try list("BYSECOND"),
      byMinute: try list("BYMINUTE"),
      byHour: try list("BYHOUR"), byDay: byDay, byMonthDay: try list("BYMONTHDAY"),
      byMonth: try list("BYMONTH"),
      bySetPosition: try list("BYSETPOS"), count: count, until: until, weekStart: weekStart,
      exclusions: exclusions)
  }

  static let knownParts: Set<String> = [
    "FREQ", "INTERVAL", "BYSECOND", "BYMINUTE", "BYHOUR", "BYDAY", "BYMONTHDAY", "BYMONTH", "BYSETPOS",
    "COUNT", "UNTIL", "WKST",
  ]
  static let unsupportedParts: Set<String> = ["BYYEARDAY", "BYWEEKNO", "BYEASTER", "RSCALE", "SKIP"]

  /// `MO`, `+2TU`, `-1FR`.
  static func weekdayEntry(_ text: String) -> WeekdayEntry? {
    let upper = text.uppercased()
    guard upper.count >= 2 else { return nil }
    let code = String(upper.suffix(2))
    guard let weekday = Weekday.allCases.first(where: { $0.code == code }) else { return nil }
    let prefix = String(upper.dropLast(2))
    if prefix.isEmpty { return WeekdayEntry(weekday: weekday) }
    let digits = prefix.drop(while: { $0 == "+" || $0 == "-" })
    guard prefix.count - digits.count <= 1, (1...2).contains(digits.count), digits.allSatisfy(\.isASCII),
      let magnitude = Int(digits)
    else { return nil }
    return WeekdayEntry(ordinal: prefix.hasPrefix("-") ? -magnitude : magnitude, weekday: weekday)
  }

  /// `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `YYYYMMDDTHHMMSSZ`.
  static func parseDateValue(_ text: String) -> Until? {
    let chars = Array(text.uppercased().utf8)
    func digits(_ range: Range<Int>) -> Int? { ASCIIDigits.value(chars, range) }
    guard let year = digits(0..<4), let month = digits(4..<6), let day = digits(6..<8) else { return nil }
    if chars.count == 8 { return .day(Day(year: year, month: month, day: day)) }
    guard chars.count == 15 || chars.count == 16, chars[8] == UInt8(ascii: "T"),
      let hour = digits(9..<11), let minute = digits(11..<13), let second = digits(13..<15)
    else { return nil }
    let wall = WallClock(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    if chars.count == 15 { return .wallClock(wall) }
    guard chars[15] == UInt8(ascii: "Z"), wall.isValid else { return nil }
    return .instant(Date(timeIntervalSince1970: TimeInterval(wall.localSeconds)))
  }

  /// One `EXDATE[;VALUE=DATE]:v1,v2` line.
  static func parseExclusionLine(_ line: String) throws(RecurrenceRuleError) -> [Exclusion] {
    guard let colon = line.firstIndex(of: ":") else {
      throw RecurrenceRuleError(
        part: visible(line), "an EXDATE line is EXDATE:VALUES",
        fix: "write e.g. EXDATE:20261224T090000,20261231")
    }
    let name = line[..<colon].uppercased()
    guard name == "EXDATE" || name == "EXDATE;VALUE=DATE" || name == "EXDATE;VALUE=DATE-TIME" else {
      throw RecurrenceRuleError(
        part: visible(String(line[..<colon])),
        "EXDATE takes no parameters but VALUE (its times are read in the notification's zone)",
        fix: "drop the parameters, e.g. EXDATE:20261224T090000")
    }
    var result: [Exclusion] = []
    for item in line[line.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false) {
      let text = item.trimmingCharacters(in: .whitespaces)
      switch parseDateValue(text) {
      case .day(let day)?: result.append(.day(day))
      case .wallClock(let wall)?: result.append(.wallClock(wall))
      default:
        throw RecurrenceRuleError(
          part: "EXDATE:\(visible(text))", "not a date or a local date-time",
          fix: "write YYYYMMDDTHHMMSS or YYYYMMDD, in the notification's zone (no Z)")
      }
    }
    return result
  }

  /// Text from the user, shortened and with control characters made visible.
  static func visible(_ text: String) -> String { Escaper.visible(text, limit: 60) }
}

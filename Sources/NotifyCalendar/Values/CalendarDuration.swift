/// A DURATION value (RFC 5545 §3.3.6): `-PT15M`, `P1D`, `P2W`, `P1DT12H`.
///
/// Weeks and days are nominal (a day is the same wall-clock time on the next date, 23 or
/// 25 hours across a DST change); hours, minutes and seconds are exact. Both parts carry
/// the sign.
public struct CalendarDuration: Hashable, Sendable {
  /// Nominal days (weeks count seven), signed.
  public var days: Int
  /// Exact seconds, signed.
  public var seconds: Int

  /// The largest number a part may have: about 27 years of days, far beyond any alarm.
  static let maxPart = 10_000

  /// Creates a duration.
  public init(days: Int = 0, seconds: Int = 0) {
    self.days = days
    self.seconds = seconds
  }

  /// Zero.
  public static let zero = CalendarDuration()

  /// Parses `[+-]P[nW]` or `[+-]P[nD][T[nH][nM][nS]]`; nil when it is not one.
  public init?(parsing text: String) {
    var chars = Array(text.uppercased().utf8)[...]
    var negative = false
    if let first = chars.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
      negative = first == UInt8(ascii: "-")
      chars = chars.dropFirst()
    }
    guard chars.first == UInt8(ascii: "P") else { return nil }
    chars = chars.dropFirst()
    var days = 0
    var seconds = 0
    var inTime = false
    var sawPart = false
    var lastUnitRank = -1
    while let first = chars.first {
      if first == UInt8(ascii: "T") {
        guard !inTime else { return nil }
        inTime = true
        chars = chars.dropFirst()
        continue
      }
      var number = 0
      var digitCount = 0
      while let c = chars.first, c >= 48, c <= 57 {
        number = number * 10 + Int(c - 48)
        digitCount += 1
        guard digitCount <= 9 else { return nil }
        chars = chars.dropFirst()
      }
      guard digitCount > 0, let unit = chars.first, number <= Self.maxPart * 86_400 else { return nil }
      chars = chars.dropFirst()
      let rank: Int
      switch (unit, inTime) {
      case (UInt8(ascii: "W"), false):
        guard number <= Self.maxPart else { return nil }
        days += number * 7
        rank = 0
      case (UInt8(ascii: "D"), false):
        guard number <= Self.maxPart else { return nil }
        days += number
        rank = 1
      case (UInt8(ascii: "H"), true):
        seconds += number * 3600
        rank = 2
      case (UInt8(ascii: "M"), true):
        seconds += number * 60
        rank = 3
      case (UInt8(ascii: "S"), true):
        seconds += number
        rank = 4
      default: return nil
      }
      guard rank > lastUnitRank else { return nil }
      lastUnitRank = rank
      sawPart = true
    }
    guard sawPart, seconds <= Self.maxPart * 86_400 else { return nil }
    self.init(days: negative ? -days : days, seconds: negative ? -seconds : seconds)
  }

  /// The duration's length if every day had 86,400 seconds: for ordering and bounds.
  public var approximateSeconds: Int64 { Int64(days) * 86_400 + Int64(seconds) }

  /// `-PT15M`, `P1D`, `PT0S`: the text iCalendar writes.
  public var text: String {
    let negative = days < 0 || seconds < 0
    let d = abs(days)
    var s = abs(seconds)
    var result = negative ? "-P" : "P"
    if d > 0 {
      result += d % 7 == 0 && s == 0 ? "\(d / 7)W" : "\(d)D"
    }
    if s > 0 || d == 0 {
      result += "T"
      if s >= 3600 {
        result += "\(s / 3600)H"
        s %= 3600
      }
      if s >= 60 {
        result += "\(s / 60)M"
        s %= 60
      }
      if s > 0 || result.hasSuffix("T") { result += "\(s)S" }
    }
    return result
  }
}

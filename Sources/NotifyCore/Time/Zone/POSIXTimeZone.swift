/// A POSIX TZ rule, such as `CET-1CEST,M3.5.0,M10.5.0/3`: a standard time, and possibly a
/// daylight saving time with the yearly dates it starts and ends (POSIX.1 §8.3, with
/// RFC 8536's extension of transition hours to -167...167 for TZif version 3).
///
/// TZif footers use it for instants past their table, and `TZ` may hold one directly.
public struct POSIXTimeZone: Sendable, Hashable {
  /// The standard time.
  let standard: LocalTimeType
  /// The daylight saving time and when it runs; nil for a zone without DST.
  let daylight: Daylight?

  struct Daylight: Sendable, Hashable {
    let type: LocalTimeType
    /// When DST starts, in standard local time.
    let start: Transition
    /// When DST ends, in daylight local time.
    let end: Transition
  }

  /// A yearly date and a time of day on it (which may run past the day, or before it).
  struct Transition: Sendable, Hashable {
    let date: DateRule
    /// Seconds after the date's midnight, -167 h ... 167 h.
    let time: Int64
  }

  enum DateRule: Sendable, Hashable {
    /// `Jn`: day 1...365, February 29 never counted.
    case julian(Int)
    /// `n`: day 0...365, February 29 counted in leap years.
    case zeroBased(Int)
    /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1...5, 5 = the last) of month `m`.
    case monthWeekDay(month: Int, week: Int, weekday: Int)
  }

  init(standard: LocalTimeType, daylight: Daylight?) {
    self.standard = standard
    self.daylight = daylight
  }

  /// A zone that keeps `offset` seconds east of UTC all the time.
  public static func fixed(offset: Int, abbreviation: String) -> POSIXTimeZone {
    POSIXTimeZone(
      standard: LocalTimeType(utcOffset: offset, isDaylightSavingTime: false, abbreviation: abbreviation),
      daylight: nil)
  }

  /// The local time type at Unix second `unixSeconds`.
  ///
  /// The transitions of the year around the instant and of the years either side are
  /// computed, and the latest one at or before the instant decides. When DST ends at the
  /// very instant the next year's starts (`EST5EDT,0/0,J365/25`, DST all year), the
  /// start wins, as RFC 8536 §3.3.1 asks.
  func localTimeType(at unixSeconds: Int64) -> LocalTimeType {
    guard let daylight else { return standard }
    let year = WallClock(localSeconds: unixSeconds).year
    var latest: (instant: Int64, year: Int, isDaylight: Bool)?
    for candidateYear in year - 1...year + 1 {
      let start = instant(of: daylight.start, in: candidateYear, offset: standard.utcOffset)
      let end = instant(of: daylight.end, in: candidateYear, offset: daylight.type.utcOffset)
      for (instant, isDaylight) in [(start, true), (end, false)] where instant <= unixSeconds {
        if let current = latest,
          (current.instant, current.year, current.isDaylight ? 1 : 0)
            >= (instant, candidateYear, isDaylight ? 1 : 0)
        {
          continue
        }
        latest = (instant, candidateYear, isDaylight)
      }
    }
    return latest?.isDaylight == true ? daylight.type : standard
  }

  /// The first start or end of DST after `unixSeconds`, or nil for a zone without DST.
  func nextTransition(after unixSeconds: Int64) -> Int64? {
    guard let daylight else { return nil }
    let year = WallClock(localSeconds: unixSeconds).year
    var candidates: [Int64] = []
    for candidateYear in year - 1...year + 2 {
      candidates.append(instant(of: daylight.start, in: candidateYear, offset: standard.utcOffset))
      candidates.append(instant(of: daylight.end, in: candidateYear, offset: daylight.type.utcOffset))
    }
    var after = unixSeconds
    // Skip instants where nothing changes (DST all year: one year's end is the next's start).
    while let next = candidates.filter({ $0 > after }).min() {
      if localTimeType(at: next) != localTimeType(at: next - 1) { return next }
      after = next
    }
    return nil
  }

  /// The Unix second `transition` falls on in `year`, read in local time of `offset`.
  private func instant(of transition: Transition, in year: Int, offset: Int) -> Int64 {
    let day = Self.dayNumber(of: transition.date, in: year)
    return day * CivilCalendar.secondsPerDay + transition.time - Int64(offset)
  }

  /// Days since 1970-01-01 of `rule`'s date in `year`.
  static func dayNumber(of rule: DateRule, in year: Int) -> Int64 {
    let januaryFirst = CivilCalendar.dayNumber(year: year, month: 1, day: 1)
    switch rule {
    case .julian(let n):
      let skipsLeapDay = CivilCalendar.isLeapYear(year) && n >= 60
      return januaryFirst + Int64(n - 1) + (skipsLeapDay ? 1 : 0)
    case .zeroBased(let n):
      return januaryFirst + Int64(n)
    case .monthWeekDay(let month, let week, let weekday):
      let first = CivilCalendar.dayNumber(year: year, month: month, day: 1)
      // 1970-01-01 was a Thursday (weekday 4).
      let firstWeekday = Int((first + 4) % 7 + 7) % 7
      var day = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
      let length = CivilCalendar.daysInMonth(month, of: year)
      while day > length { day -= 7 }
      return first + Int64(day - 1)
    }
  }
}

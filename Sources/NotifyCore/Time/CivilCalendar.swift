/// Proleptic Gregorian day arithmetic on plain integers, so the time rules need no
/// `Calendar` (slow to create, and its defaults for skipped or repeated times are not
/// the ones SPEC.md §2 asks for).
///
/// Days are counted from 1970-01-01 (day 0), seconds are Unix seconds without leap
/// seconds. Algorithms from Howard Hinnant, "chrono-Compatible Low-Level Date Algorithms".
package enum CivilCalendar {
  /// Seconds in a civil day (Unix time has no leap seconds).
  package static let secondsPerDay: Int64 = 86_400

  /// Whether `year` has a February 29.
  package static func isLeapYear(_ year: Int) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  /// The number of days in `month` (1...12) of `year`.
  package static func daysInMonth(_ month: Int, of year: Int) -> Int {
    switch month {
    case 2: isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// The day number of `year-month-day`; `month` must be 1...12, `day` may run past the
  /// month's end (it then counts into the following days).
  package static func dayNumber(year: Int, month: Int, day: Int) -> Int64 {
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let m = Int64(month)
    let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The `(year, month, day)` of day number `days`.
  package static func date(dayNumber days: Int64) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (Int(year), Int(month), Int(day))
  }
}

extension WallClock {
  /// The components read as if they were UTC, in Unix seconds: the "local seconds" the
  /// zone offset is subtracted from. Out-of-range months carry into years; days, hours,
  /// minutes and seconds past their range carry forward.
  package var localSeconds: Int64 {
    let monthIndex = year * 12 + (month - 1)
    let normalizedYear = monthIndex >= 0 ? monthIndex / 12 : (monthIndex - 11) / 12
    let normalizedMonth = monthIndex - normalizedYear * 12 + 1
    let days = CivilCalendar.dayNumber(year: normalizedYear, month: normalizedMonth, day: day)
    return days * CivilCalendar.secondsPerDay + Int64(hour) * 3600 + Int64(minute) * 60
      + Int64(second)
  }

  /// The components of Unix seconds `seconds` read as UTC.
  package init(localSeconds seconds: Int64) {
    let days = seconds.floorDiv(CivilCalendar.secondsPerDay)
    let secondOfDay = Int(seconds - days * CivilCalendar.secondsPerDay)
    let date = CivilCalendar.date(dayNumber: days)
    self.init(
      year: date.year, month: date.month, day: date.day, hour: secondOfDay / 3600,
      minute: secondOfDay % 3600 / 60, second: secondOfDay % 60)
  }

  /// The same wall-clock time `count` days later (earlier when negative).
  package func addingDays(_ count: Int) -> WallClock {
    let days = CivilCalendar.dayNumber(year: year, month: month, day: day) + Int64(count)
    let date = CivilCalendar.date(dayNumber: days)
    return WallClock(
      year: date.year, month: date.month, day: date.day, hour: hour, minute: minute, second: second)
  }

  /// The same wall-clock time `count` months later (earlier when negative); a day the
  /// target month lacks clamps to its last day (Jan 31 + 1 month = Feb 28 or 29).
  func addingMonths(_ count: Int) -> WallClock {
    let monthIndex = year * 12 + (month - 1) + count
    let newYear = monthIndex >= 0 ? monthIndex / 12 : (monthIndex - 11) / 12
    let newMonth = monthIndex - newYear * 12 + 1
    let newDay = min(day, CivilCalendar.daysInMonth(newMonth, of: newYear))
    return WallClock(
      year: newYear, month: newMonth, day: newDay, hour: hour, minute: minute, second: second)
  }

  /// Whether the components name a real calendar time (second 60 is not one).
  package var isValid: Bool {
    (1...12).contains(month) && day >= 1 && day <= CivilCalendar.daysInMonth(month, of: year)
      && (0...23).contains(hour) && (0...59).contains(minute) && (0...59).contains(second)
  }
}

import Foundation

/// A rule's occurrences as wall-clock times, one period at a time (RFC 5545 §3.3.10):
/// the period's days are filtered by BYMONTH, BYDAY and BYMONTHDAY, each day gets the
/// times BYHOUR × BYMINUTE × BYSECOND make, and BYSETPOS picks among the sorted set.
/// Parts the rule leaves out take the start's values (the start's weekday for WEEKLY,
/// its day of the month for MONTHLY, its month and day for YEARLY, its time of day).
///
/// Wall-clock times are "local seconds": the components read as if they were UTC
/// (`WallClock.localSeconds`), so a day is always 86,400 of them and no zone is involved.
/// Period 0 is the one holding the start; period `i` is `i × INTERVAL` units later.
///
/// A class, though immutable: a walk reads it at every period, and a struct of these sets
/// and arrays was copied, every field retained, each time.
final class RuleExpansion: Sendable {
  let rule: RecurrenceRule
  /// DTSTART in local seconds.
  let start: Int64
  private let startWall: WallClock
  private let hours: [Int]
  private let minutes: [Int]
  private let seconds: [Int]
  private let months: Set<Int>
  private let weekdays: Set<Int>
  private let nthWeekdays: [(ordinal: Int, weekday: Int)]
  private let monthDays: Set<Int>
  private let negativeMonthDays: Set<Int>
  /// Whether any day-level filter is set: without one, every day matches and a sub-daily
  /// walk needs no calendar date for its slots.
  private let filtersDays: Bool
  /// The first day of period 0 (WEEKLY), the first month index (MONTHLY), the first
  /// slot's local seconds (HOURLY, MINUTELY).
  private let origin: Int64
  /// The length of one period in days (DAILY, WEEKLY) or seconds (HOURLY, MINUTELY).
  private let step: Int64

  init(rule: RecurrenceRule, start wall: WallClock) {
    self.rule = rule
    startWall = wall
    start = wall.localSeconds
    let frequency = rule.frequency
    hours = rule.byHour.isEmpty && frequency >= .daily ? [wall.hour] : rule.byHour
    minutes = rule.byMinute.isEmpty && frequency >= .hourly ? [wall.minute] : rule.byMinute
    seconds = rule.bySecond.isEmpty ? [wall.second] : rule.bySecond
    var byMonth = rule.byMonth
    var byDay = rule.byDay
    var byMonthDay = rule.byMonthDay
    if byDay.isEmpty, byMonthDay.isEmpty {
      switch frequency {
      case .weekly: byDay = [.init(weekday: RecurrenceRule.Weekday.of(dayNumber: wall.dayNumber))]
      case .monthly: byMonthDay = [wall.day]
      case .yearly:
        byMonthDay = [wall.day]
        if byMonth.isEmpty { byMonth = [wall.month] }
      default: break
      }
    }
    months = Set(byMonth)
    weekdays = Set(byDay.filter { $0.ordinal == nil }.map(\.weekday.rawValue))
    nthWeekdays = byDay.compactMap { entry in entry.ordinal.map { ($0, entry.weekday.rawValue) } }
    monthDays = Set(byMonthDay.filter { $0 > 0 })
    negativeMonthDays = Set(byMonthDay.filter { $0 < 0 })
    filtersDays =
      !months.isEmpty || !weekdays.isEmpty || !nthWeekdays.isEmpty || !monthDays.isEmpty
      || !negativeMonthDays.isEmpty
    let interval = Int64(rule.interval)
    switch frequency {
    case .yearly:
      origin = Int64(wall.year)
      step = interval
    case .monthly:
      origin = Int64(wall.year) * 12 + Int64(wall.month - 1)
      step = interval
    case .weekly:
      let day = wall.dayNumber
      let weekday = Int64(RecurrenceRule.Weekday.of(dayNumber: day).rawValue)
      origin = day - (weekday - Int64(rule.weekStart.rawValue)).floorMod(7)
      step = 7 * interval
    case .daily:
      origin = wall.dayNumber
      step = interval
    case .hourly:
      origin = start - start.floorMod(3600)
      step = 3600 * interval
    case .minutely:
      origin = start - start.floorMod(60)
      step = 60 * interval
    }
  }

  /// The wall-clock times of period `index`, sorted, BYSETPOS applied; times before the
  /// start are included (BYSETPOS counts them, as RFC 5545 and dateutil do).
  func occurrences(inPeriod index: Int64) -> [Int64] {
    var times: [Int64] = []
    switch rule.frequency {
    case .yearly:
      let year = Int(origin + index * step)
      for month in 1...12 where months.isEmpty || months.contains(month) {
        appendDays(year: year, month: month, to: &times)
      }
    case .monthly:
      let monthIndex = origin + index * step
      let year = Int(monthIndex.floorDiv(12))
      appendDays(year: year, month: Int(monthIndex.floorMod(12)) + 1, to: &times)
    case .weekly, .daily:
      let first = origin + index * step
      let length: Int64 = rule.frequency == .weekly ? 7 : 1
      for day in first..<(first + length) where matches(day: day) {
        appendTimes(day: day, to: &times)
      }
    case .hourly, .minutely:
      let slot = origin + index * step
      guard slotMatches(slot) else { return [] }
      let hourStart = slot - slot.floorMod(3600)
      if rule.frequency == .hourly {
        for minute in minutes {
          for second in seconds { times.append(hourStart + Int64(minute * 60 + second)) }
        }
      } else {
        for second in seconds { times.append(slot + Int64(second)) }
      }
    }
    return selectPositions(times)
  }

  /// The number of times each period from period 1 on makes, when it is one number for
  /// all of them: no filter keeps a number of days (or hours, or minutes) that varies from
  /// period to period. Then the times before period `p` are counted, not walked. Nil
  /// otherwise (a MONTHLY BYDAY=MO rule has four or five Mondays a month).
  var fixedCountPerPeriod: Int? {
    guard unreachableTimes == nil else { return nil }
    let days = monthDays.union(negativeMonthDays.map { -$0 })
    switch rule.frequency {
    case .minutely:
      guard !filtersDays, rule.byHour.isEmpty, rule.byMinute.isEmpty else { return nil }
    case .hourly:
      guard !filtersDays, rule.byHour.isEmpty else { return nil }
    case .daily:
      guard !filtersDays else { return nil }
    case .weekly:
      guard months.isEmpty, days.isEmpty, nthWeekdays.isEmpty else { return nil }
    case .monthly:
      guard months.isEmpty, weekdays.isEmpty, nthWeekdays.isEmpty, days.allSatisfy({ $0 <= 28 }) else {
        return nil
      }
    case .yearly:
      // Every month of the rule has every day of it in every year (February 28).
      let shortest = { (month: Int) in month == 2 ? 28 : CivilCalendar.daysInMonth(month, of: 2001) }
      let ruleMonths = months.isEmpty ? Set(1...12) : months
      guard weekdays.isEmpty, nthWeekdays.isEmpty, !days.isEmpty,
        ruleMonths.allSatisfy({ month in days.allSatisfy { $0 <= shortest(month) } })
      else { return nil }
    }
    let count = occurrences(inPeriod: 1).count
    return count > 0 ? count : nil
  }

  /// For an HOURLY or MINUTELY rule that filters no days: the periods after which its
  /// slots come back to the same times of day (86,400 s over gcd(86,400 s, the step)), so
  /// that period p + this makes what period p makes; nil for other rules.
  var dayCyclePeriods: Int64? {
    guard rule.frequency == .hourly || rule.frequency == .minutely, !filtersDays else { return nil }
    return 86_400 / gcd(86_400, step)
  }

  /// Whether the rule makes wall-clock time `wall` (local seconds), at or after its start.
  func makes(_ wall: Int64) -> Bool {
    wall >= start && occurrences(inPeriod: period(containing: wall)).contains(wall)
  }

  /// The times the rule makes in `low..<high` (local seconds), at or after its start.
  func times(from low: Int64, to high: Int64) -> [Int64] {
    let low = max(low, start)
    guard low < high else { return [] }
    var found: [Int64] = []
    for index in max(period(containing: low), 0)...max(period(containing: high - 1), 0) {
      found += occurrences(inPeriod: index).filter { $0 >= low && $0 < high }
    }
    return found
  }

  /// The first period index after `index` that can hold an occurrence: sub-daily rules
  /// jump over days (and, for MINUTELY, hours) their filters exclude.
  func nextPeriod(after index: Int64) -> Int64 {
    guard rule.frequency == .hourly || rule.frequency == .minutely else { return index + 1 }
    var next = index + 1
    // Bounded: each turn moves at least to the next hour.
    for _ in 0..<100_000 {
      let slot = origin + next * step
      let day = slot.floorDiv(86_400)
      if !matches(day: day) {
        next = firstIndex(atOrAfter: (day + 1) * 86_400)
        continue
      }
      let hour = Int(slot.floorMod(86_400) / 3600)
      if !rule.byHour.isEmpty, !rule.byHour.contains(hour) {
        next = firstIndex(atOrAfter: slot - slot.floorMod(3600) + 3600)
        continue
      }
      return next
    }
    return next
  }

  /// The period holding local seconds `time` (the last one starting at or before it).
  func period(containing time: Int64) -> Int64 {
    switch rule.frequency {
    case .yearly:
      return (Int64(WallClock(localSeconds: time).year) - origin).floorDiv(step)
    case .monthly:
      let wall = WallClock(localSeconds: time)
      return (Int64(wall.year) * 12 + Int64(wall.month - 1) - origin).floorDiv(step)
    case .weekly, .daily:
      return (time.floorDiv(86_400) - origin).floorDiv(step)
    case .hourly, .minutely:
      return (time - origin).floorDiv(step)
    }
  }

  /// The local seconds period `index` starts at (its first possible time).
  func periodStart(_ index: Int64) -> Int64 {
    switch rule.frequency {
    case .yearly:
      return CivilCalendar.dayNumber(year: Int(origin + index * step), month: 1, day: 1) * 86_400
    case .monthly:
      let monthIndex = origin + index * step
      return CivilCalendar.dayNumber(
        year: Int(monthIndex.floorDiv(12)), month: Int(monthIndex.floorMod(12)) + 1, day: 1) * 86_400
    case .weekly, .daily:
      return (origin + index * step) * 86_400
    case .hourly, .minutely:
      return origin + index * step
    }
  }

  /// The number of periods after which the calendar, and so the rule, repeats itself:
  /// the Gregorian calendar repeats every 400 years (146,097 days, a whole number of
  /// weeks). A rule with no occurrence in that many periods never has one.
  var cyclePeriods: Int64 {
    let interval = Int64(rule.interval)
    let units: Int64 =
      switch rule.frequency {
      case .yearly: 400
      case .monthly: 4800
      case .weekly: 20_871
      case .daily: 146_097
      case .hourly: 146_097 * 24
      case .minutely: 146_097 * 1440
      }
    return units / gcd(units, interval)
  }

  private func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : gcd(b, a % b) }

  /// Why an HOURLY or MINUTELY rule's steps never land on its BYHOUR/BYMINUTE (every
  /// 2 hours from 00:00 never reaches 03:00), or nil when they do. Steps from the start
  /// reach only the times of day that differ from it by a multiple of gcd(step, day).
  var unreachableTimes: RecurrenceRuleError? {
    // A period of a DAILY or finer rule holds at most this many times: BYSETPOS past it
    // picks nothing.
    let perPeriod: Int? =
      switch rule.frequency {
      case .minutely: seconds.count
      case .hourly: minutes.count * seconds.count
      case .daily: hours.count * minutes.count * seconds.count
      default: nil
      }
    if let perPeriod, !rule.bySetPosition.isEmpty, rule.bySetPosition.allSatisfy({ abs($0) > perPeriod }) {
      return RecurrenceRuleError(
        part: "BYSETPOS=\(rule.bySetPosition.map(String.init).joined(separator: ","))",
        "each \(rule.frequency.rawValue.lowercased()) period holds at most \(perPeriod) time\(perPeriod == 1 ? "" : "s"), so this picks none",
        fix: "pick positions from 1 to \(perPeriod) (or -1 to -\(perPeriod))")
    }
    guard rule.frequency == .hourly || rule.frequency == .minutely else { return nil }
    let unit: Int64 = rule.frequency == .hourly ? 3600 : 60
    let perDay = 86_400 / unit
    let phase = origin.floorMod(86_400) / unit
    let lattice = gcd(Int64(rule.interval), perDay)
    let hourList = rule.byHour.isEmpty ? Array(0...23) : rule.byHour
    let reachable: Bool
    if rule.frequency == .hourly {
      reachable = hourList.contains { (Int64($0) - phase).floorMod(lattice) == 0 }
    } else {
      let minuteList = rule.byMinute.isEmpty ? Array(0...59) : rule.byMinute
      reachable = hourList.contains { hour in
        minuteList.contains { (Int64(hour * 60 + $0) - phase).floorMod(lattice) == 0 }
      }
    }
    guard !reachable else { return nil }
    let parts =
      ["INTERVAL=\(rule.interval)"]
      + (rule.byHour.isEmpty ? [] : ["BYHOUR=\(rule.byHour.map(String.init).joined(separator: ","))"])
      + (rule.byMinute.isEmpty || rule.frequency == .hourly
        ? [] : ["BYMINUTE=\(rule.byMinute.map(String.init).joined(separator: ","))"])
    return RecurrenceRuleError(
      part: parts.joined(separator: ";"),
      "steps of \(rule.interval) \(rule.frequency == .hourly ? "hours" : "minutes") from the start at \(String(format: "%02d:%02d", startWall.hour, startWall.minute)) never reach these times",
      fix: "start at one of the times, or use an interval that reaches them")
  }

  private func firstIndex(atOrAfter time: Int64) -> Int64 {
    let offset = time - origin
    return offset <= 0 ? 0 : (offset + step - 1) / step
  }

  private func slotMatches(_ slot: Int64) -> Bool {
    guard matches(day: slot.floorDiv(86_400)) else { return false }
    let secondOfDay = Int(slot.floorMod(86_400))
    if !rule.byHour.isEmpty, !rule.byHour.contains(secondOfDay / 3600) { return false }
    if rule.frequency == .minutely, !rule.byMinute.isEmpty, !rule.byMinute.contains(secondOfDay % 3600 / 60) {
      return false
    }
    return true
  }

  private func appendDays(year: Int, month: Int, to times: inout [Int64]) {
    let first = CivilCalendar.dayNumber(year: year, month: month, day: 1)
    for dayOfMonth in 1...CivilCalendar.daysInMonth(month, of: year) {
      let day = first + Int64(dayOfMonth - 1)
      if dayMatches(day: day, year: year, month: month, dayOfMonth: dayOfMonth) {
        appendTimes(day: day, to: &times)
      }
    }
  }

  private func appendTimes(day: Int64, to times: inout [Int64]) {
    let base = day * 86_400
    for hour in hours {
      for minute in minutes {
        for second in seconds { times.append(base + Int64(hour * 3600 + minute * 60 + second)) }
      }
    }
  }

  /// `dayMatches` for day number `day`, skipping the calendar date when no filter asks.
  private func matches(day: Int64) -> Bool {
    guard filtersDays else { return true }
    let date = CivilCalendar.date(dayNumber: day)
    return dayMatches(day: day, year: date.year, month: date.month, dayOfMonth: date.day)
  }

  /// Whether a day passes BYMONTH, BYDAY (a plain weekday or an nth one: a union, as
  /// RFC 5545 reads a list) and BYMONTHDAY.
  private func dayMatches(day: Int64, year: Int, month: Int, dayOfMonth: Int) -> Bool {
    if !months.isEmpty, !months.contains(month) { return false }
    let daysInMonth = CivilCalendar.daysInMonth(month, of: year)
    if !monthDays.isEmpty || !negativeMonthDays.isEmpty {
      guard monthDays.contains(dayOfMonth) || negativeMonthDays.contains(dayOfMonth - daysInMonth - 1) else {
        return false
      }
    }
    if !weekdays.isEmpty || !nthWeekdays.isEmpty {
      let weekday = RecurrenceRule.Weekday.of(dayNumber: day).rawValue
      if weekdays.contains(weekday) { return true }
      guard !nthWeekdays.isEmpty else { return false }
      // The nth weekday counts within the month for MONTHLY (and YEARLY with BYMONTH),
      // within the year otherwise.
      let inMonth = rule.frequency == .monthly || !months.isEmpty
      let position: Int
      let length: Int
      if inMonth {
        position = dayOfMonth - 1
        length = daysInMonth
      } else {
        position = Int(day - CivilCalendar.dayNumber(year: year, month: 1, day: 1))
        length = CivilCalendar.isLeapYear(year) ? 366 : 365
      }
      let fromStart = position / 7 + 1
      let fromEnd = -((length - 1 - position) / 7 + 1)
      return nthWeekdays.contains {
        $0.weekday == weekday && ($0.ordinal == fromStart || $0.ordinal == fromEnd)
      }
    }
    return true
  }

  private func selectPositions(_ times: [Int64]) -> [Int64] {
    let sorted = times.count > 1 ? times.sorted() : times
    guard !rule.bySetPosition.isEmpty else { return sorted }
    var picked = Set<Int64>()
    for position in rule.bySetPosition {
      let index = position > 0 ? position - 1 : sorted.count + position
      if sorted.indices.contains(index) { picked.insert(sorted[index]) }
    }
    return picked.sorted()
  }
}

extension WallClock {
  /// Days since 1970-01-01 of the components' date.
  var dayNumber: Int64 { localSeconds.floorDiv(86_400) }
}

import Foundation
import NotifyCore

/// The occurrences of one UID's items in a span of starts: the master's recurrence set
/// (DTSTART, each RRULE through notify's recurrence engine, RDATE, less EXDATE), with the
/// overrides (RECURRENCE-ID) in place of the occurrences they replace, and
/// `RANGE=THISANDFUTURE` overrides applied to every later occurrence.
///
/// Where RFC 5545 leaves room, it reads as recurring-ical-events does, which the oracle
/// tests compare against: DTSTART is always an occurrence (COUNT counts what the rule
/// makes), an UNTIL date with a zoned DTSTART is midnight UTC that day, a floating RDATE,
/// EXDATE or RECURRENCE-ID is read in DTSTART's zone, a DATE EXDATE removes every
/// occurrence on that date, and of two versions of an item the higher SEQUENCE wins.
struct SeriesExpansion {
  /// One occurrence: the item whose properties apply, its start and end.
  struct Occurrence {
    var item: CalendarItem
    var start: ResolvedTime?
    var end: ResolvedTime?
    /// Its RECURRENCE-ID text (`ResolvedTime.recurrenceText`), nil for an item that does not repeat.
    var recurrenceText: String?
    /// The RECURRENCE-ID's instant, to match Thunderbird's per-occurrence snooze.
    var recurrenceInstant: Date?
  }

  /// Occurrences of a rule visited per query at most: a rule that makes more than this in
  /// the span asked about is cut there, with a warning.
  static let maxOccurrences = 20_000

  let master: CalendarItem?
  let overrides: [CalendarItem]
  let zones: CalendarZones
  var warnings: [CalendarWarning] = []

  /// The series of `items`, all with one UID.
  init(items: [CalendarItem], zones: CalendarZones) {
    self.zones = zones
    var master: CalendarItem?
    var byRecurrence: [String: CalendarItem] = [:]
    var order: [String] = []
    for item in items {
      if let recurrenceID = item.recurrenceID {
        let key = recurrenceID.text + (recurrenceID.reference.zoneName ?? "")
        if let existing = byRecurrence[key] {
          if item.sequence > existing.sequence { byRecurrence[key] = item }
        } else {
          byRecurrence[key] = item
          order.append(key)
        }
      } else if master == nil || item.sequence > master!.sequence {
        master = item
      }
    }
    self.master = master
    overrides = order.compactMap { byRecurrence[$0] }
  }

  /// The master and the overrides.
  var items: [CalendarItem] { [master].compactMap { $0 } + overrides }

  /// The zone floating RDATE, EXDATE and RECURRENCE-ID values are read in: DTSTART's when
  /// it has one.
  private var floatingZone: Zone? {
    guard let start = master?.start, start.reference != .floating else { return nil }
    return zones.zone(for: start.reference)
  }

  /// The item's start: DTSTART, or a to-do's DUE.
  func start(of item: CalendarItem) -> ResolvedTime? {
    guard let value = item.start ?? (item.kind == .todo ? item.due : nil) else { return nil }
    return ResolvedTime(value, zones: zones)
  }

  /// The item's end for an occurrence starting at `start`: DTEND or DUE (as far from the
  /// start as the item's own), DURATION, or a day for a whole-day event without either.
  func end(of item: CalendarItem, startingAt start: ResolvedTime?) -> ResolvedTime? {
    let endValue = item.kind == .todo ? item.due : item.end
    if let endValue {
      let end = ResolvedTime(endValue, zones: zones)
      guard let start, let own = self.start(of: item) else { return end }
      return start.moved(by: end.instant.timeIntervalSince(own.instant))
    }
    guard let start else { return nil }
    if let duration = item.duration { return start.added(duration) }
    if item.kind == .event && start.isDate { return start.added(CalendarDuration(days: 1)) }
    return start
  }

  /// Every occurrence whose start lies in `span` (the master's recurrences), and every
  /// override, wherever it lies (few, and their alarms decide).
  ///
  /// With `cap`, only the soonest `cap` recurrences are made (each rule stops there): what
  /// the rolling window needs of a rule that repeats for decades.
  /// Recurrences before `countFrom` do not count toward `cap` (their alarms may still lie
  /// before the window).
  mutating func occurrences(
    startingIn span: ClosedRange<Date>, cap: Int = .max, countFrom: Date = .distantPast
  ) -> [Occurrence] {
    var result: [Occurrence] = []
    let floating = floatingZone
    var thisAndFuture: [(rid: Date, item: CalendarItem, shift: TimeInterval)] = []
    var replaced: Set<Date> = []
    for item in overrides {
      guard let rid = item.recurrenceID else { continue }
      let resolved = ResolvedTime(rid, zones: zones, floatingZone: floating)
      replaced.insert(resolved.instant)
      let start = self.start(of: item) ?? resolved
      if item.thisAndFuture {
        thisAndFuture.append((resolved.instant, item, start.instant.timeIntervalSince(resolved.instant)))
      }
    }
    thisAndFuture.sort { $0.rid < $1.rid }
    let exclusions: (times: Set<Date>, days: Set<WallClock>) =
      master.map { exceptionSet(of: $0, floating: floating) } ?? ([], [])
    if let master, let masterStart = start(of: master) {
      if master.isRecurring {
        // THISANDFUTURE shifts may move occurrences into the span from outside it.
        let widest = thisAndFuture.map { abs($0.shift) }.max() ?? 0
        let wide = (span.lowerBound - widest)...(span.upperBound + widest)
        for (start, periodEnd) in recurrenceSet(
          of: master, start: masterStart, span: wide, floating: floating, cap: cap, countFrom: countFrom)
        {
          if replaced.contains(start.instant) || isExcluded(start, exclusions) { continue }
          var item = master
          var occurrenceStart = start
          var end = periodEnd ?? self.end(of: master, startingAt: start)
          if let future = thisAndFuture.last(where: { $0.rid < start.instant }) {
            item = future.item
            occurrenceStart = start.moved(by: future.shift)
            end = self.end(of: future.item, startingAt: occurrenceStart)
          }
          guard span.contains(occurrenceStart.instant) else { continue }
          result.append(
            Occurrence(
              item: item, start: occurrenceStart, end: end, recurrenceText: start.recurrenceText,
              recurrenceInstant: start.instant))
        }
      } else if span.contains(masterStart.instant) {
        result.append(
          Occurrence(item: master, start: masterStart, end: end(of: master, startingAt: masterStart)))
      }
    } else if let master {
      // A to-do with neither DTSTART nor DUE: its relative alarms have nothing to count
      // from (the expansion says so).
      result.append(Occurrence(item: master, start: nil, end: nil))
    }
    for item in overrides {
      guard let rid = item.recurrenceID else { continue }
      let resolved = ResolvedTime(rid, zones: zones, floatingZone: floating)
      if !exclusions.times.isEmpty && exclusions.times.contains(resolved.instant) { continue }
      let start = self.start(of: item) ?? resolved
      result.append(
        Occurrence(
          item: item, start: start, end: end(of: item, startingAt: start),
          recurrenceText: resolved.recurrenceText,
          recurrenceInstant: resolved.instant))
    }
    return result
  }

  /// EXDATE as instants, and (for DATE values) whole dates.
  private func exceptionSet(of item: CalendarItem, floating: Zone?) -> (
    times: Set<Date>, days: Set<WallClock>
  ) {
    var times: Set<Date> = []
    var days: Set<WallClock> = []
    for value in item.exceptionDates {
      if value.isDate {
        days.insert(value.wall)
      } else {
        times.insert(ResolvedTime(value, zones: zones, floatingZone: floating).instant)
      }
    }
    return (times, days)
  }

  private func isExcluded(_ start: ResolvedTime, _ exclusions: (times: Set<Date>, days: Set<WallClock>))
    -> Bool
  {
    if exclusions.times.contains(start.instant) { return true }
    guard !exclusions.days.isEmpty else { return false }
    return exclusions.days.contains(
      WallClock(year: start.wall.year, month: start.wall.month, day: start.wall.day))
  }

  /// DTSTART, the rules' occurrences and RDATE in `span`, each once, with a PERIOD's end.
  private mutating func recurrenceSet(
    of master: CalendarItem, start: ResolvedTime, span: ClosedRange<Date>, floating: Zone?, cap: Int,
    countFrom: Date
  ) -> [(ResolvedTime, ResolvedTime?)] {
    var found: [Date: (ResolvedTime, ResolvedTime?)] = [:]
    var lastUntil: Date?
    var anyUntil = false
    let startValue = master.start ?? master.due!
    for (text, line) in master.rules {
      guard let schedule = schedule(text, line: line, start: start, startValue: startValue) else { continue }
      if let until = schedule.rule?.until {
        anyUntil = true
        let instant = untilInstant(until, start: start)
        lastUntil = max(lastUntil ?? instant, instant)
      }
      let engineZones = zones.engineZones
      if let far = schedule.farStartError(now: span.lowerBound, zones: engineZones) {
        warnings.append(
          CalendarWarning(
            line: line, property: "RRULE", "skipped: \(far)"))
        continue
      }
      var next = schedule.firstOccurrence(atOrAfter: span.lowerBound, zones: engineZones)
      var visited = 0
      var counted = 0
      while let (index, date) = next, date <= span.upperBound, counted < cap {
        visited += 1
        if date >= countFrom { counted += 1 }
        if visited > Self.maxOccurrences {
          warnings.append(
            CalendarWarning(
              line: line, property: "RRULE",
              "makes more than \(Self.maxOccurrences) occurrences in the span asked about: the rest is skipped"
            ))
          break
        }
        found[date] = (ResolvedTime(instant: date, zone: start.zone, isDate: start.isDate), nil)
        next = schedule.occurrence(index + 1, zones: engineZones).map { (index + 1, $0) }
      }
    }
    for (value, periodEnd) in master.recurrenceDates {
      var time = ResolvedTime(value, zones: zones, floatingZone: floating)
      if value.isDate && !start.isDate {
        time = ResolvedTime(wall: value.wall, zone: start.zone, isDate: false)
      }
      guard span.contains(time.instant) else { continue }
      found[time.instant] = (time, periodEnd.map { ResolvedTime($0, zones: zones, floatingZone: floating) })
    }
    if span.contains(start.instant), !(anyUntil && lastUntil.map { start.instant > $0 } == true) {
      if found[start.instant] == nil { found[start.instant] = (start, nil) }
    }
    let sorted = found.values.sorted { $0.0.instant < $1.0.instant }
    guard cap < .max else { return sorted }
    let before = sorted.prefix { $0.0.instant < countFrom }.count
    return Array(sorted.prefix(before + cap))
  }

  /// The instant UNTIL ends at, for deciding whether DTSTART is still an occurrence.
  private func untilInstant(_ until: RecurrenceRule.Until, start: ResolvedTime) -> Date {
    switch until {
    case .instant(let date): date
    case .wallClock(let wall): ResolvedTime(wall: wall, zone: start.zone, isDate: false).instant
    case .day(let day):
      ResolvedTime(
        wall: WallClock(year: day.year, month: day.month, day: day.day, hour: 23, minute: 59, second: 59),
        zone: start.zone, isDate: false
      ).instant
    }
  }

  /// The engine's schedule for one RRULE from DTSTART, with UNTIL read as the oracle reads
  /// it; nil (and a warning) when the rule cannot be expanded.
  private mutating func schedule(_ text: String, line: Int, start: ResolvedTime, startValue: CalendarDateTime)
    -> Schedule?
  {
    var rule: RecurrenceRule
    do {
      rule = try RecurrenceRule(parsing: text)
    } catch {
      warnings.append(CalendarWarning(line: line, property: "RRULE", "skipped: \(error)"))
      return nil
    }
    if let until = rule.until {
      switch (until, startValue.isDate, startValue.reference) {
      case (.day(let day), false, .floating):
        rule.until = .wallClock(WallClock(year: day.year, month: day.month, day: day.day))
      case (.day(let day), false, _):
        rule.until = .instant(
          Date(
            timeIntervalSince1970: TimeInterval(
              WallClock(year: day.year, month: day.month, day: day.day).localSeconds)))
      case (.wallClock(let wall), false, .zone), (.wallClock(let wall), false, .utc):
        // RFC 5545 wants UTC here; written without Z, it is read as UTC.
        rule.until = .instant(Date(timeIntervalSince1970: TimeInterval(wall.localSeconds)))
      case (.instant(let date), _, .floating):
        // A floating start's UTC UNTIL is read on the same wall clock.
        rule.until = .wallClock(WallClock(localSeconds: Int64(date.timeIntervalSince1970.rounded(.down))))
      default: break
      }
    }
    let fireDate: FireDate
    switch startValue.reference {
    case .utc: fireDate = .instant(start.instant)
    default: fireDate = .wallClock(startValue.wall, zones.zoneRule(for: startValue.reference))
    }
    do {
      return try Schedule(fireDate: fireDate, rule: rule)
    } catch {
      warnings.append(CalendarWarning(line: line, property: "RRULE", "skipped: \(error)"))
      return nil
    }
  }
}

import Foundation

/// What `notify schedule` and the D-Bus service's `Schedule` are told about when a
/// notification fires, as text, before it is checked: a fire date (`at` or `after`), a
/// zone, a repeat unit or a calendar rule, and an end. `schedule(now:zones:)` is the one
/// place these combine into a `Schedule`, so both front ends refuse the same things with
/// the same words; only the names of the fields differ (`Names`).
package struct ScheduleSpec: Sendable {
  /// How a front end names each field in its messages (`--at` on the command line, `'at'`
  /// on the bus).
  package struct Names: Sendable {
    package var at, after, timeZone, repeatUnit, rrule, every, on, except, repeatCount, until: String
    /// What to write in "give X or Y" when neither fire date was given.
    package var missingFireDate: String

    /// The `notify schedule` flags.
    package static let commandLine = Names(
      at: "--at", after: "--in", timeZone: "--time-zone", repeatUnit: "--repeat", rrule: "--rrule",
      every: "--every", on: "--on", except: "--except", repeatCount: "--repeat-count", until: "--until",
      missingFireDate: "give --at WHEN or --in DURATION")

    package init(
      at: String, after: String, timeZone: String, repeatUnit: String, rrule: String, every: String,
      on: String,
      except: String, repeatCount: String, until: String, missingFireDate: String
    ) {
      self.at = at
      self.after = after
      self.timeZone = timeZone
      self.repeatUnit = repeatUnit
      self.rrule = rrule
      self.every = every
      self.on = on
      self.except = except
      self.repeatCount = repeatCount
      self.until = until
      self.missingFireDate = missingFireDate
    }
  }

  /// RFC 3339 with an offset (absolute), or a wall-clock time (`TimeParser.fireDate`).
  package var at: String?
  /// A duration such as `10m` (`TimeParser.duration`).
  package var after: String?
  package var timeZone: String?
  package var repeatUnit: String?
  package var rrule: String?
  package var every: String?
  package var on: String?
  package var except: [String] = []
  package var repeatCount: String?
  package var until: String?
  package var names: Names = .commandLine

  package init() {}

  /// The schedule these fields make at `now`; throws the usage (64) or invalid-data (65)
  /// error a front end reports as is.
  package func schedule(now: Date, zones: Zones) throws(NotifyError) -> Schedule {
    let fireDate: FireDate
    switch (at, after) {
    case (nil, nil):
      throw NotifyError(.usage, "schedule needs a fire date", fix: names.missingFireDate)
    case (.some, .some):
      throw NotifyError(
        .usage, "\(names.at) and \(names.after) were both given", fix: "give only one of them")
    case (let at?, nil):
      fireDate = try TimeParser.fireDate(at, timeZone: timeZone, now: now, zones: zones)
    case (nil, let after?):
      if timeZone != nil {
        throw NotifyError(
          .usage, "\(names.timeZone) applies to a wall-clock \(names.at) only",
          fix: "drop \(names.timeZone) or use \(names.at)")
      }
      fireDate = .instant(now + (try TimeParser.duration(after)))
    }
    if let rule = try makeRule() {
      return try ruleSchedule(rule, fireDate: fireDate, now: now, zones: zones)
    }
    if !except.isEmpty {
      throw NotifyError(
        .usage, "\(names.except) leaves out occurrences of a rule, and there is none",
        fix: "add \(names.rrule), \(names.every) or \(names.on)")
    }
    var interval: RepeatInterval?
    if let repeatUnit {
      guard let unit = RepeatInterval(rawValue: repeatUnit) else {
        throw NotifyError(
          .invalidData, "unknown repeat unit '\(Escaper.visible(repeatUnit, limit: 40))'",
          fix: "use one of minute, hour, day, week, month, year")
      }
      interval = unit
    }
    if interval == nil, repeatCount != nil || until != nil {
      throw NotifyError(
        .usage, "\(names.repeatCount) and \(names.until) need \(names.repeatUnit)",
        fix: "add \(names.repeatUnit) UNIT")
    }
    let count = try parsedRepeatCount()
    let untilDate = try untilInstant(fireDate: fireDate, now: now, zones: zones)
    return Schedule(fireDate: fireDate, repeatInterval: interval, repeatCount: count, until: untilDate)
  }

  /// The repeat count: 1 to 1,000,000,000, or nil when not given.
  private func parsedRepeatCount() throws(NotifyError) -> Int? {
    guard let repeatCount else { return nil }
    guard let value = Int(repeatCount), value >= 1, value <= 1_000_000_000 else {
      throw NotifyError(
        .invalidData,
        "\(names.repeatCount) '\(Escaper.visible(repeatCount, limit: 40))' is not a positive number",
        fix: "give the total number of deliveries, 1 or more")
    }
    return value
  }

  private func untilInstant(fireDate: FireDate, now: Date, zones: Zones) throws(NotifyError) -> Date? {
    guard let until else { return nil }
    let zone: Zone
    if case .wallClock(_, let rule) = fireDate {
      zone = rule.resolve(zones: zones)
    } else {
      zone = zones.local
    }
    return try TimeParser.instant(until, zone: zone, now: now)
  }

  /// The rule `rrule`, or `every`/`on`, make (with `except`); nil when none is given.
  /// Fields that say the same thing twice are refused (64), naming both.
  private func makeRule() throws(NotifyError) -> RecurrenceRule? {
    let shortForm = [every.map { _ in names.every }, on.map { _ in names.on }].compactMap { $0 }
    guard rrule != nil || !shortForm.isEmpty else { return nil }
    if repeatUnit != nil {
      let other = rrule != nil ? names.rrule : shortForm[0]
      throw NotifyError(
        .usage, "\(names.repeatUnit) and \(other) were both given",
        fix: "repeat by a unit (\(names.repeatUnit)) or by a rule (\(other)), not both")
    }
    if rrule != nil, let other = shortForm.first {
      throw NotifyError(
        .usage, "\(names.rrule) and \(other) were both given",
        fix: "write the whole rule in \(names.rrule), or use \(names.every)/\(names.on)")
    }
    var exclusions: [RecurrenceRule.Exclusion] = []
    for text in except {
      guard let exclusion = Self.exclusion(text) else {
        throw NotifyError(
          .invalidData,
          "\(names.except) '\(Escaper.visible(text, limit: 40))' is not a date or a date and time",
          fix:
            "write YYYY-MM-DD (the whole day) or YYYY-MM-DDTHH:MM[:SS] (one occurrence), in the notification's zone"
        )
      }
      exclusions.append(exclusion)
    }
    do {
      if let rrule {
        var rule = try RecurrenceRule(parsing: rrule)
        rule.exclusions = Array(Set(rule.exclusions + exclusions)).sorted()
        return rule
      }
      return try RecurrenceRule.shortForm(every: every, on: on, exclusions: exclusions)
    } catch {
      throw error.notifyError
    }
  }

  /// A schedule by `rule`: the repeat count and `until` become its COUNT and UNTIL.
  private func ruleSchedule(_ rule: RecurrenceRule, fireDate: FireDate, now: Date, zones: Zones)
    throws(NotifyError) -> Schedule
  {
    if repeatCount != nil, until != nil {
      throw NotifyError(
        .usage, "\(names.repeatCount) and \(names.until) were both given for a rule",
        fix: "a rule ends by a count or by an instant (RFC 5545 COUNT or UNTIL): give one")
    }
    if rule.count != nil || rule.until != nil,
      let field = repeatCount != nil ? names.repeatCount : until != nil ? names.until : nil
    {
      let part = rule.count != nil ? "COUNT" : "UNTIL"
      throw NotifyError(
        .usage, "\(field) and \(part) in \(names.rrule) were both given",
        fix: "give the end once: \(field) or \(part)")
    }
    let count = try parsedRepeatCount()
    let untilDate = try untilInstant(fireDate: fireDate, now: now, zones: zones)
    do {
      return try Schedule(fireDate: fireDate, rule: rule, repeatCount: count, until: untilDate)
    } catch {
      throw error.notifyError
    }
  }

  /// `YYYY-MM-DD` or `YYYY-MM-DD[T ]HH:MM[:SS]`.
  package static func exclusion(_ text: String) -> RecurrenceRule.Exclusion? {
    let pieces = text.split(whereSeparator: { $0 == "-" || $0 == "T" || $0 == " " || $0 == ":" }).map(
      String.init)
    guard pieces.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } && $0.count <= 4 }),
      pieces.count == 3 || pieces.count == 5 || pieces.count == 6, pieces[0].count == 4
    else { return nil }
    let n = pieces.compactMap { Int($0) }
    if n.count == 3 {
      let day = RecurrenceRule.Day(year: n[0], month: n[1], day: n[2])
      return day.isValid ? .day(day) : nil
    }
    let wall = WallClock(
      year: n[0], month: n[1], day: n[2], hour: n[3], minute: n[4], second: n.count == 6 ? n[5] : 0)
    let exclusion = RecurrenceRule.Exclusion.wallClock(wall)
    return exclusion.isValid ? exclusion : nil
  }
}

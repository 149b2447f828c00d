import ArgumentParser
import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// `notify schedule`: stores a notification (SPEC.md §5).
struct ScheduleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schedule", _superCommandName: "notify",
    abstract: "Store a notification to fire later; prints its id.",
    discussion: """
      When: --at (an RFC 3339 instant, or a wall-clock time that follows the system zone \
      unless --time-zone names one) or --in. A repeat: --repeat, or a calendar rule (--on, \
      --every, --rrule, --except); it ends after --repeat-count deliveries or at --until.
      Examples:
        notify schedule --in 10m "Stand up"
        notify schedule --at 09:00 --repeat day --title Standup --sound default
        notify schedule --at 2026-11-22T09:00:00+01:00 --title Flight
        notify schedule --on mon,wed --at 09:00 --title Standup
        notify schedule --every 2w --on fri --at 16:00 --title Review
        notify schedule --on last-fri --at 17:00 --title "Month end"
        notify schedule --at 09:00 --rrule 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH'
      """)

  @OptionGroup var store: StoreOptions
  @OptionGroup var appOption: AppOption
  @OptionGroup var content: NotificationOptions

  @Option(
    name: .long,
    help: "When: RFC 3339 with offset (absolute), YYYY-MM-DDTHH:MM[:SS] or HH:MM[:SS] (wall clock).")
  var at: String?

  @Option(
    name: .customLong("in"), parsing: .unconditional,
    help: "After a duration: 90s, 10m, 2h, 1d, 1w, or sums such as 1h30m.")
  var after: String?

  @Option(
    name: .customLong("time-zone"),
    help:
      "Zone for a wall-clock --at: a name in $TZDIR or /usr/share/zoneinfo (default: follow the system zone)."
  )
  var timeZone: String?

  @Option(name: .customLong("repeat"), help: "Repeat every minute, hour, day, week, month or year.")
  var repeatUnit: String?

  @Option(
    name: .customLong("rrule"),
    help: "Repeat by an RFC 5545 rule, e.g. 'FREQ=WEEKLY;BYDAY=MO,WE' (the fire date is its start).")
  var rrule: String?

  @Option(name: .customLong("every"), help: "Repeat every N units: 2w, 3d, 90m, 1mo, 1y (a rule).")
  var every: String?

  @Option(
    name: .customLong("on"), parsing: .unconditional,
    help:
      "Repeat on weekdays (mon,wed; mon-fri), month days (1,15; last) or nth weekdays (last-fri, 2nd-tue).")
  var on: String?

  @Option(
    name: .customLong("except"),
    help:
      "Leave out the rule's occurrence at this wall-clock time, or all on this day (YYYY-MM-DD); repeatable.")
  var except: [String] = []

  @Option(
    name: .customLong("repeat-count"), parsing: .unconditional,
    help: "Total number of deliveries of a repeating notification.")
  var repeatCount: String?

  @Option(name: .long, help: "Last instant a repeating notification may fire (RFC 3339 or wall clock).")
  var until: String?

  @Flag(
    name: .customLong("strict-sound"),
    help: "Refuse a sound that is missing or invalid instead of using the default.")
  var strictSound = false

  @Flag(name: .long, help: "Print the stored notification as JSON.")
  var json = false

  func run() throws {
    let clock = SystemClock()
    let now = clock.now()
    let zones = clock.zones
    let zone = zones.local
    let app = try appOption.resolve()
    let schedule = try makeSchedule(now: now, zones: zones)
    let notification = try content.notification(app: app, schedule: schedule, now: now)
    try SoundAdvice.check(notification, strict: strictSound)
    let center = try store.center(app: app, clock: clock)
    let outcome = try center.add(notification, attaching: content.attachmentSources)
    let kinds = notification.contentKinds
    if !kinds.isEmpty, let allowed = try? center.settingsInForce().allowed,
      kinds.isDisjoint(with: allowed)
    {
      let off = kinds.kindNames.joined(separator: " and ")
      Output.warning(
        "app '\(app)' has \(off) switched off: '\(notification.id)' will be recorded in history, not shown (notify settings --app \(app) --\(kinds.kindNames[0]) on)"
      )
    }

    for discarded in outcome.discarded where discarded.rowID != outcome.stored.rowID {
      Output.warning(
        "discarded '\(discarded.notification.id)' (next fire \(Output.localTime(discarded.nextFireDate, zone: zone))): app '\(app)' keeps its \(PendingLimit.maximum) soonest pending notifications"
      )
    }
    if json {
      var record = outcome.stored.jsonRecord
      record.set("discarded", .array(outcome.discarded.map { .string($0.notification.id) }))
      Output.line(record.prettyText())
    } else if !outcome.newOneDiscarded {
      Output.line(notification.id)
    }
    if outcome.newOneDiscarded {
      // SPEC.md §3: `notify: not scheduled: ...`, exit 1; the fix names the command.
      Output.error(
        "\(LocalNotificationCenter.discardedError(outcome).problem). Cancel some (notify cancel) or schedule it sooner"
      )
      throw ExitCode(1)
    }
  }

  private func makeSchedule(now: Date, zones: Zones) throws(NotifyError) -> Schedule {
    let fireDate: FireDate
    switch (at, after) {
    case (nil, nil):
      throw NotifyError(.usage, "schedule needs a fire date", fix: "give --at WHEN or --in DURATION")
    case (.some, .some):
      throw NotifyError(.usage, "--at and --in were both given", fix: "give only one of them")
    case (let at?, nil):
      fireDate = try TimeParser.fireDate(at, timeZone: timeZone, now: now, zones: zones)
    case (nil, let after?):
      if timeZone != nil {
        throw NotifyError(
          .usage, "--time-zone applies to a wall-clock --at only", fix: "drop --time-zone or use --at")
      }
      fireDate = .instant(now + (try TimeParser.duration(after)))
    }
    if let rule = try makeRule() {
      return try ruleSchedule(rule, fireDate: fireDate, now: now, zones: zones)
    }
    if !except.isEmpty {
      throw NotifyError(
        .usage, "--except leaves out occurrences of a rule, and there is none",
        fix: "add --rrule, --every or --on")
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
      throw NotifyError(.usage, "--repeat-count and --until need --repeat", fix: "add --repeat UNIT")
    }
    let count = try parsedRepeatCount()
    let untilDate = try untilInstant(fireDate: fireDate, now: now, zones: zones)
    return Schedule(fireDate: fireDate, repeatInterval: interval, repeatCount: count, until: untilDate)
  }

  /// `--repeat-count`: 1 to 1,000,000,000, or nil when not given.
  private func parsedRepeatCount() throws(NotifyError) -> Int? {
    guard let repeatCount else { return nil }
    guard let value = Int(repeatCount), value >= 1, value <= 1_000_000_000 else {
      throw NotifyError(
        .invalidData,
        "--repeat-count '\(Escaper.visible(repeatCount, limit: 40))' is not a positive number",
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

  /// The rule `--rrule`, or `--every`/`--on`, make (with `--except`); nil when none is given.
  /// Flags that say the same thing twice are refused (64), naming both.
  private func makeRule() throws(NotifyError) -> RecurrenceRule? {
    let shortForm = [every.map { _ in "--every" }, on.map { _ in "--on" }].compactMap { $0 }
    guard rrule != nil || !shortForm.isEmpty else { return nil }
    if repeatUnit != nil {
      let other = rrule != nil ? "--rrule" : shortForm[0]
      throw NotifyError(
        .usage, "--repeat and \(other) were both given",
        fix: "repeat by a unit (--repeat) or by a rule (\(other)), not both")
    }
    if rrule != nil, let other = shortForm.first {
      throw NotifyError(
        .usage, "--rrule and \(other) were both given",
        fix: "write the whole rule in --rrule, or use --every/--on")
    }
    var exclusions: [RecurrenceRule.Exclusion] = []
    for text in except {
      guard let exclusion = Self.exclusion(text) else {
        throw NotifyError(
          .invalidData, "--except '\(Escaper.visible(text, limit: 40))' is not a date or a date and time",
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

  /// A schedule by `rule`: `--repeat-count` and `--until` become its COUNT and UNTIL.
  private func ruleSchedule(_ rule: RecurrenceRule, fireDate: FireDate, now: Date, zones: Zones)
    throws(NotifyError) -> Schedule
  {
    if repeatCount != nil, until != nil {
      throw NotifyError(
        .usage, "--repeat-count and --until were both given for a rule",
        fix: "a rule ends by a count or by an instant (RFC 5545 COUNT or UNTIL): give one")
    }
    if rule.count != nil || rule.until != nil,
      let flag = repeatCount != nil ? "--repeat-count" : until != nil ? "--until" : nil
    {
      let part = rule.count != nil ? "COUNT" : "UNTIL"
      throw NotifyError(
        .usage, "\(flag) and \(part) in --rrule were both given", fix: "give the end once: \(flag) or \(part)"
      )
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
  static func exclusion(_ text: String) -> RecurrenceRule.Exclusion? {
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

/// The sound check `schedule` runs (SPEC.md §4): a missing or invalid sound is replaced
/// by the default with a warning, or refused with `--strict-sound`. The stored
/// notification keeps the requested name so the check runs again at fire time.
enum SoundAdvice {
  static func check(_ notification: LocalNotification, strict: Bool) throws(NotifyError) {
    guard case .file = notification.sound else { return }
    let resolution = try SoundLibrary(app: notification.app).resolve(notification.sound, strict: strict)
    if let warning = resolution.warning { Output.warning(warning) }
  }
}

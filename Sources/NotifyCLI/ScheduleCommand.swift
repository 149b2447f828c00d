import ArgumentParser
import Foundation
import Notify
import NotifySound

/// `notify schedule`: stores a notification (SPEC.md §5).
struct ScheduleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schedule", _superCommandName: "notify",
    abstract: "Store a notification to fire later; prints its id.",
    discussion: """
      Examples:
        notify schedule --in 10m "Stand up"
        notify schedule --at 09:00 --repeat day --title Standup --body "Daily standup"
        notify schedule --at 2026-11-22T09:00:00+01:00 --title Flight --sound default
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
    let outcome = try center.add(notification)
    let kinds = notification.contentKinds
    if !kinds.isEmpty, let allowed = try? center.notificationSettings().allowed,
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
    var count: Int?
    if let repeatCount {
      guard let value = Int(repeatCount), value >= 1, value <= 1_000_000_000 else {
        throw NotifyError(
          .invalidData,
          "--repeat-count '\(Escaper.visible(repeatCount, limit: 40))' is not a positive number",
          fix: "give the total number of deliveries, 1 or more")
      }
      count = value
    }
    var untilDate: Date?
    if let until {
      let zone: Zone
      if case .wallClock(_, let rule) = fireDate {
        zone = rule.resolve(zones: zones)
      } else {
        zone = zones.local
      }
      untilDate = try TimeParser.instant(until, zone: zone, now: now)
    }
    return Schedule(fireDate: fireDate, repeatInterval: interval, repeatCount: count, until: untilDate)
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

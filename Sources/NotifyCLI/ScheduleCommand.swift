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
    name: .long,
    help:
      "Wake the machine from suspend for it (a little ahead, the wake lead), where the app may and the system allows it: see notify status."
  )
  var wake = false

  @Option(
    name: .customLong("expire-late"), parsing: .unconditional,
    help: ArgumentHelp(
      "How late is too late: later than DURATION after its instant (the machine slept or was off) it is recorded missed, not shown.",
      valueName: "duration"))
  var expireLate: String?

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
    var draft = try content.draft(app: app, schedule: schedule)
    draft.wake = wake
    draft.expireLate = try expireLate.map { text throws(NotifyError) in
      try TimeParser.duration(text, field: .expireLate)
    }
    let checked = try RequestCodec.notification(draft, now: now)
    let notification = checked.notification
    try SoundAdvice.check(notification, strict: strictSound)
    // The store's own API and the core's rules: one row written and synced, no center.
    let opened = try store.open()
    let outcome = try opened.schedule(checked, attaching: content.attachmentSources, zones: zones)
    CategoryAdvice.check(notification, store: opened)
    if wake { WakeAdvice.check(notification, store: opened) }
    let kinds = notification.contentKinds
    if !kinds.isEmpty, let allowed = try? opened.settingsInForce(app: app).allowed,
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
        "\(OwnStoreBackend.discardedError(outcome).problem). Cancel some (notify cancel) or schedule it sooner"
      )
      throw ExitCode(1)
    }
  }

  /// The flags' schedule: `ScheduleSpec` holds the rules `schedule` shares with the bus.
  private func makeSchedule(now: Date, zones: Zones) throws(NotifyError) -> Schedule {
    var spec = ScheduleSpec()
    spec.at = at
    spec.after = after
    spec.timeZone = timeZone
    spec.repeatUnit = repeatUnit
    spec.rrule = rrule
    spec.every = every
    spec.on = on
    spec.except = except
    spec.repeatCount = repeatCount
    spec.until = until
    return try spec.schedule(now: now, zones: zones)
  }
}

/// What `schedule --wake` says when nothing will wake the machine for it (SPEC: the
/// notification is stored all the same, and fires when the machine is awake).
enum WakeAdvice {
  static func check(_ notification: LocalNotification, store: SQLiteStore) {
    guard let settings = try? store.settingsInForce(app: notification.app) else { return }
    let daemon: AppPresence? = (try? store.presences(app: AppPresence.everyApp))?.first
    let fireDue: WakeFacts? = (try? store.fireDueWakeFacts()) ?? nil
    let firer = daemon.map { $0.wake } ?? fireDue
    if let warning = WakeDiagnosis.scheduleWarning(
      id: notification.id, app: notification.app, settings: settings, firer: firer)
    {
      Output.warning(warning)
    }
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

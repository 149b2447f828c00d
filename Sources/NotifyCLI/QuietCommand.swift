import ArgumentParser
import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// `notify quiet`: quiet hours ("Do Not Disturb"), by hand and on a weekly schedule.
struct QuietCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "quiet", _superCommandName: "notify",
    abstract: "Show or set quiet hours: while quiet, notifications are held and shown when quiet ends.",
    discussion: """
      Without arguments it shows whether it is quiet and how many are held. 'on' is quiet \
      until 'off', for a while (--for) or until a time (--until); 'off' during a scheduled \
      period skips the rest of that period. A schedule (--from, --to, --days) is weekly, in \
      local time; --days names the days a period starts on. Critical notifications, and apps \
      you let through (notify settings --break-quiet on), are shown anyway.
      Examples:
        notify quiet on --for 1h
        notify quiet on --until 07:00
        notify quiet off
        notify quiet --from 22:00 --to 07:00 --days mon-fri
        notify quiet --no-schedule
      """)

  @OptionGroup var store: StoreOptions

  @Argument(help: ArgumentHelp("on or off; nothing to show.", valueName: "on|off"))
  var state: Switch?

  @Option(
    name: .customLong("for"), parsing: .unconditional,
    help: ArgumentHelp("With on: how long (e.g. 1h30m).", valueName: "duration"))
  var duration: String?

  @Option(
    help: ArgumentHelp("With on: until when (HH:MM, the next such time, or a date-time).", valueName: "when"))
  var until: String?

  @Option(help: ArgumentHelp("The schedule's start, local time.", valueName: "HH:MM"))
  var from: String?

  @Option(
    help: ArgumentHelp("The schedule's end, local time (before --from: the next day).", valueName: "HH:MM"))
  var to: String?

  @Option(
    help: ArgumentHelp(
      "The days a scheduled period starts on (default every day).", valueName: "mon,tue,...|mon-fri"))
  var days: String?

  @Flag(name: .customLong("no-schedule"), help: "Remove the schedule.")
  var noSchedule = false

  @Flag(name: .long, help: "Print JSON.")
  var json = false

  func validate() throws {
    if (duration != nil || until != nil) && state != .on {
      throw ValidationError("--for and --until go with 'on': notify quiet on --for 1h")
    }
    if noSchedule && (from != nil || to != nil || days != nil) {
      throw ValidationError("--no-schedule and --from/--to/--days do not go together: give one")
    }
  }

  func run() throws {
    let clock = SystemClock()
    let now = clock.now()
    let zone = clock.zones.local
    // Parsed before the store is opened: bad input changes nothing.
    let schedule = try QuietSchedule.parse(from: from, to: to, days: days)
    let end = state == .on ? try QuietHours.manualEnd(for: duration, until: until, now: now, zone: zone) : nil
    let store = try store.open()
    var quiet = try store.quietHours().settled(at: now)
    // Read before the change: turning quiet off wakes a running firer, which starts
    // showing them at once.
    let heldByApp = Dictionary(grouping: try store.held(app: nil), by: \.notification.app).mapValues(\.count)
    let changes = state != nil || schedule != nil || noSchedule
    if changes {
      if let schedule { quiet.schedule = schedule }
      if noSchedule { quiet.schedule = nil }
      switch state {
      case .on?: quiet = quiet.turnedOn(until: end, at: now)
      case .off?: quiet = quiet.turnedOff(at: now, in: zone)
      case nil: break
      }
      try store.setQuietHours(quiet)
    }
    let held = heldByApp.values.reduce(0, +)
    let isQuiet = quiet.isQuiet(at: now, in: zone)
    let change = quiet.nextChange(after: now, in: zone)
    if json {
      var r = JSONRecord(capacity: 4)
      r.set("quiet", isQuiet)
      r.set("until", isQuiet ? change.map { RFC3339.string(from: $0) } : nil)
      r.set("next", isQuiet ? nil : change.map { RFC3339.string(from: $0) })
      r.set("held", held)
      r.set(
        "settings",
        quiet.jsonRecord.value)
      Output.line(r.compactText)
      return
    }
    var line = "quiet hours: " + (isQuiet ? "on" : "off")
    if isQuiet {
      line += change.map { " until \(Output.localTime($0, zone: zone))" } ?? " until turned off"
    } else if let change {
      line += "; next quiet at \(Output.localTime(change, zone: zone))"
    }
    if let schedule = quiet.schedule {
      let days =
        schedule.days.count == 7
        ? "every day" : schedule.days.sorted().map(\.shortName).joined(separator: ",")
      line += " (scheduled \(schedule.from)–\(schedule.to), \(days))"
    }
    Output.line(line)
    let presences = held > 0 && !isQuiet ? try store.presences() : []
    let report = HeldReport(
      held: heldByApp, isQuiet: isQuiet,
      daemonPID: presences.first { $0.app == AppPresence.everyApp }?.owner.pid,
      appFirers: Dictionary(
        presences.filter { $0.fires && $0.app != AppPresence.everyApp }.map { ($0.app, $0.owner.pid) },
        uniquingKeysWith: { first, _ in first }),
      timerEnabled: !isQuiet && UnitFiles().enabled("notify-fire.timer"))
    for reportLine in report.lines { Output.line(reportLine) }
  }
}

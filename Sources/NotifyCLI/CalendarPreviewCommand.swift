import ArgumentParser
import Foundation
import NotifyCalendar
import NotifyCalendarSync
import NotifyCore
import NotifyZones

/// `notify calendar preview PATH... --from T --to T [--json]`: the alarm instants notify
/// would schedule, without a store.
struct CalendarPreviewCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "preview",
    abstract: "Print the alarm instants of calendar files in a window, scheduling nothing.",
    discussion: """
      A dry run of what notify calendar add would schedule: each alarm instant of the files (folders are read as notify calendar add reads them) whose time lies from --from up to (not at) --to, soonest first, with REPEAT repetitions each listed. Acknowledged alarms and cancelled items are left out, as they are when scheduling. With --json it prints a JSON array of objects with uid, recurrenceId (null, RFC 3339 UTC, or YYYY-MM-DD for an all-day item), fireDate (RFC 3339 UTC), action (DISPLAY or AUDIO), summary, kind (event or todo), start, allDay, repetition, sound, file, line and id (the notification id), the way to compare notify with another implementation. What is skipped (a malformed property, an EMAIL alarm) is a warning on stderr naming the file, line and property. Floating times and dates are read in the system zone (TZ). Exit 0, 64 for a usage error, 65 for a bad --from or --to, 66 when a path does not exist.
      Examples:
        notify calendar preview ~/.calendars/work --json \\
          --from 2026-12-01T00:00:00Z --to 2027-01-01T00:00:00Z
        notify calendar preview invite.ics --from 2026-12-01T00:00:00Z \\
          --to 2026-12-08T00:00:00Z
      """)

  @Argument(help: ArgumentHelp("Calendar files or vdir folders.", valueName: "path")) var paths: [String]
  @Option(name: .long, help: ArgumentHelp("The window's start, an RFC 3339 instant.", valueName: "time"))
  var from: String
  @Option(
    name: .long, help: ArgumentHelp("The window's end (excluded), an RFC 3339 instant.", valueName: "time"))
  var to: String
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The calendar name the ids are made with (default: the first path's name).", valueName: "name"))
  var name: String?
  @Flag(name: .long, help: "Print a JSON array.") var json = false

  func run() throws {
    guard !paths.isEmpty else { throw CalendarFailure.noPath.notifyError }
    let clock = SystemClock()
    let zones = clock.zones
    let start = try CalendarCommand.instant(from, option: "--from", zones: zones)
    let end = try CalendarCommand.instant(to, option: "--to", zones: zones)
    do throws(CalendarFailure) {
      try CalendarPreview.check(paths: paths, from: start, to: end)
    } catch {
      throw error.notifyError
    }
    let calendar = name ?? CalendarCommand.defaultName(for: paths[0])
    let preview = CalendarPreview.run(paths: paths, from: start, to: end, zones: zones)
    for warning in preview.warnings { Output.warning(warning) }
    let records = preview.alarms.map { ($0.instant, $0.instant.json(file: $0.file, calendar: calendar)) }
    if json {
      Output.line(Output.jsonArray(records.map(\.1)))
      return
    }
    for (instant, _) in records {
      let title = Output.safe(instant.summary ?? "(no summary)", limit: 80)
      let repetition = instant.repetition > 0 ? " (repeat \(instant.repetition))" : ""
      Output.line(
        "\(Output.localTime(instant.fireDate, zone: zones.local))  \(instant.action.name)  \(title)\(repetition)"
      )
    }
  }
}

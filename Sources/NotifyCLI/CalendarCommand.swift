import ArgumentParser
import Foundation
import NotifyCalendar
import NotifyCalendarSync
import NotifyCore

/// `notify calendar add/list/remove/preview`: calendars on disk whose alarms notify shows.
struct CalendarCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "calendar", _superCommandName: "notify",
    abstract: "Show the alarms of calendars on disk (vdir folders and .ics files).",
    discussion: """
      notify calendar add watches a vdir folder (one .ics file per item, as vdirsyncer, DAVx5 exports and khal keep them; calendars one level down count too) or one .ics file, and schedules the VALARMs of its events and to-dos as notifications of an app: each calendar is an app, whose settings, quiet hours and history apply. The daemon (and each notify fire-due run) keeps the nearest alarms pending and adds the next as they come due, and follows edits within a second. See docs/calendars.md.
      Examples:
        notify calendar add ~/.calendars/work --name work
        notify calendar list --json
        notify calendar preview ~/.calendars/work --json \\
          --from 2026-12-01T00:00:00Z --to 2027-01-01T00:00:00Z
        notify calendar remove work
      """,
    subcommands: [
      CalendarAddCommand.self, CalendarListCommand.self, CalendarRemoveCommand.self,
      CalendarPreviewCommand.self,
    ])

  /// An RFC 3339 instant given to `option`.
  static func instant(_ text: String, option: String, zones: Zones) throws(NotifyError) -> Date {
    do {
      switch try TimeParser.fireDate(text, timeZone: nil, now: Date(), zones: zones) {
      case .instant(let date): return date
      case .wallClock(let wall, _): return ZoneResolver.instant(for: wall, in: zones.local)
      }
    } catch {
      let name = { (term: Term) in term == .fireDate ? option : term.flag }
      throw error.reworded(
        ErrorText(error.problemText.rendered(name)), fix: error.fixText.map { ErrorText($0.rendered(name)) })
    }
  }

  /// The name a calendar gets from its path: the file or folder name, without `.ics`,
  /// made of the characters an app id allows.
  static func defaultName(for path: String) -> String { CalendarImport.defaultName(for: path) }
}

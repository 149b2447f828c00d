import ArgumentParser
import Foundation
import Logging
import Notify
import NotifyCalendar
import NotifyCalendarSync
import NotifyCore
import NotifyStore
import NotifyZones

/// `notify import FILE.ics [--app ID]`: a calendar file's alarms, once, into an app.
struct ImportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import", _superCommandName: "notify",
    abstract: "Schedule the alarms of an .ics file once, as notifications of an app.",
    discussion: """
      Reads the file as notify calendar add does and schedules the alarm instants from now on as one-shot notifications of the app, the soonest first, as many as leave 8 of the app's 64 free; the rest are not imported, and it says so (notify calendar add follows all of them, and edits). The ids are those notify calendar add would give (calendar: the file name), so importing again replaces rather than doubles. What is skipped in the file is a warning on stderr. Prints how many were imported. Exit 0; 1 when the file has no alarm from now on; 66 when the file does not exist.
      Examples:
        notify import invite.ics
        notify import ~/Downloads/trip.ics --app travel
      """)

  @OptionGroup var store: StoreOptions
  @OptionGroup var app: AppOption
  @Argument(help: ArgumentHelp("The .ics file.", valueName: "file")) var file: String

  func run() throws {
    let appID = try app.resolve()
    // Checked before the store is opened: bad input leaves it untouched.
    guard CalendarFiles.kind(of: file) == .file else { throw CalendarFailure.noSuchFile(file).notifyError }
    let clock = SystemClock()
    let opened = try store.open()
    let imported: CalendarImport.Imported
    do throws(CalendarFailure) {
      imported = try CalendarImport.importFile(file, app: appID, store: opened, clock: clock)
    } catch {
      throw error.notifyError
    }
    let plan = imported.plan
    for warning in plan.warnings { Output.warning(warning) }
    guard !plan.notifications.isEmpty else {
      throw NotifyError(
        .notTakenEffect, "\(Escaper.visible(file)) has no alarm from now on",
        fix: "check the file with notify calendar preview")
    }
    for id in imported.discarded {
      Output.warning("discarded '\(id)': the app's 64 pending notifications were full")
    }
    Output.line("imported \(plan.notifications.count) alarms of \(Output.safe(file)) into app \(appID)")
    if let last = plan.cutAfter {
      Output.warning(
        "later alarms (after \(Output.localTime(last, zone: clock.zones.local))) were not imported: the app keeps at most 64 pending; notify calendar add follows them all"
      )
    }
  }
}

/// `notify export --ics [--app ID | --all-apps]`: pending notifications as an .ics file.
struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export", _superCommandName: "notify",
    abstract: "Print pending notifications as an iCalendar file (VEVENT and VALARM).",
    discussion: """
      Each pending notification of the app (or of every app) is a VEVENT starting at its anchor (a wall-clock time with its zone as TZID, floating for one that follows the system zone, UTC for an instant), with its repeat as an RRULE (a calendar rule as it is, with its EXDATEs; --repeat units as FREQ with COUNT and UNTIL) and a VALARM at the start (AUDIO when it has a sound, else DISPLAY), so that Thunderbird, Evolution, khal or a CalDAV server can read it. Snoozed and re-alert copies are left out. --ics is the format (the only one). Exit 0; 64 without --ics.
      Examples:
        notify export --ics > notify.ics
        notify export --ics --app chat
        notify export --ics --all-apps
      """)

  @OptionGroup var store: StoreOptions
  @OptionGroup var app: AppOption
  @Flag(name: .long, help: "Write iCalendar (RFC 5545).") var ics = false
  @Flag(name: .customLong("all-apps"), help: "Every app's pending notifications.") var allApps = false

  func run() throws {
    guard ics else { throw NotifyError(.usage, "no format was given", fix: "pass --ics") }
    if allApps && app.app != nil {
      throw NotifyError(.usage, "--app and --all-apps were both given", fix: "give one of them")
    }
    let appID: String? = allApps ? nil : try app.resolve()
    let clock = SystemClock()
    let pending = try store.open().pending(app: appID)
    print(
      CalendarExport.ics(
        pending, now: clock.now(), zones: clock.zones, product: "notify \(NotifyVersion.number)"),
      terminator: "")
  }
}

import ArgumentParser
import Foundation
import Logging
import NotifyCalendar
import NotifyCalendarSync
import NotifyCore
import NotifyStore
import NotifyZones

/// `notify calendar add PATH [--app ID] [--name NAME] [--write-back]`.
struct CalendarAddCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "add",
    abstract: "Watch a vdir folder or an .ics file and show the alarms of its events and to-dos.",
    discussion: """
      PATH is a vdir folder (one .ics file per item; the .ics files of its folders one level down count too, for a folder of calendars) or one .ics file. Alarms from now on are scheduled as notifications of the app (--app, default calendar.NAME): its settings, quiet hours and history apply, and a click opens it where it has a desktop entry. The nearest alarms are pending at any time (at most 56 of the app's 64), the next come in as they are shown; the daemon follows changes to the files within a second, and each notify fire-due run looks at them too. With --write-back, dismissing an alarm or picking one of its buttons writes ACKNOWLEDGED (RFC 9074) into the item's file, so that a sync tells the calendar's other devices. Prints what was scheduled; what was skipped in the files is a warning on stderr naming the file, line and property. Exit 0; 1 when the name is taken; 64 for a usage error; 65 for an invalid name or app; 66 when PATH does not exist.
      Examples:
        notify calendar add ~/.calendars/work
        notify calendar add ~/.calendars --name all --write-back
        notify calendar add ~/invite.ics --app org.gnome.Calendar
      """)

  @OptionGroup var store: StoreOptions
  @Argument(help: ArgumentHelp("A vdir folder or an .ics file.", valueName: "path")) var path: String
  @Option(
    name: .long, help: ArgumentHelp("The app its alarms belong to (default calendar.NAME).", valueName: "id"))
  var app: String?
  @Option(
    name: .long,
    help: ArgumentHelp("The calendar's name (default: the file or folder name).", valueName: "name"))
  var name: String?
  @Flag(name: .customLong("write-back"), help: "Write acknowledgements back into the files (ACKNOWLEDGED).")
  var writeBack = false

  func run() throws {
    var logger = Logger(label: "notify.calendar")
    logger.logLevel = .warning
    let clock = SystemClock()
    let added: (CalendarCatalog.Entry, [CalendarWarning])
    do throws(CalendarFailure) {
      // Checked before the store is opened: bad input leaves it untouched.
      _ = try CalendarCatalog.check(path: path, name: name, app: app)
      let catalog = CalendarCatalog(store: try opened(), clock: clock, logger: logger)
      added = try catalog.add(path: path, name: name, app: app, writeBack: writeBack)
    } catch {
      throw error.notifyError
    }
    let (calendar, warnings) = added
    for warning in warnings { Output.warning(warning.description) }
    let nextText = calendar.next.map { ", next at " + Output.localTime($0, zone: clock.zones.local) } ?? ""
    Output.line(
      "calendar '\(Output.safe(calendar.record.name))' (app \(calendar.record.app)): \(calendar.files) files, \(calendar.pending) alarms pending\(nextText)"
    )
  }

  private func opened() throws(CalendarFailure) -> SQLiteStore {
    do throws(NotifyError) { return try store.open() } catch { throw .store(error) }
  }
}

/// `notify calendar list [--json]`.
struct CalendarListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List the calendars whose alarms notify shows.",
    discussion: """
      One line per calendar: its name, app, path, files, alarms pending and the next one. With --json, a JSON array of objects with name, path, app, writeBack, files, pending, next (RFC 3339 UTC or null) and addedAt.
      Examples:
        notify calendar list
        notify calendar list --json
      """)

  @OptionGroup var store: StoreOptions
  @Flag(name: .long, help: "Print a JSON array.") var json = false

  func run() throws {
    let clock = SystemClock()
    let zone = clock.zones.local
    let catalog = CalendarCatalog(
      store: try store.open(), clock: clock, logger: Logger(label: "notify.calendar"))
    let calendars: [CalendarCatalog.Entry]
    do throws(CalendarFailure) {
      calendars = try catalog.list()
    } catch {
      throw error.notifyError
    }
    var records: [JSONRecord] = []
    for entry in calendars {
      let calendar = entry.record
      if json {
        var record = JSONRecord(capacity: 8)
        record.set("name", calendar.name)
        record.set("path", calendar.path)
        record.set("app", calendar.app)
        record.set("writeBack", calendar.writeBack)
        record.set("files", entry.files)
        record.set("pending", entry.pending)
        record.set("next", entry.next.map { RFC3339.string(from: $0) })
        record.set("addedAt", RFC3339.string(from: calendar.addedAt))
        records.append(record)
      } else {
        let next = entry.next.map { "next " + Output.localTime($0, zone: zone) } ?? "nothing pending"
        Output.line(
          "\(Output.safe(calendar.name))  app \(calendar.app)  \(Output.safe(calendar.path))  \(entry.files) files, \(entry.pending) pending, \(next)\(calendar.writeBack ? ", write-back" : "")"
        )
      }
    }
    if json { Output.line(Output.jsonArray(records)) }
  }
}

/// `notify calendar remove NAME`.
struct CalendarRemoveCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "remove", abstract: "Stop watching a calendar and cancel its pending alarms.",
    discussion: """
      The calendar's pending alarms are cancelled (history records them cancelled, reason calendar); its files are not touched. Exit 0, 1 when no calendar has that name.
      Examples:
        notify calendar remove work
      """)

  @OptionGroup var store: StoreOptions
  @Argument(help: ArgumentHelp("The calendar's name (notify calendar list).", valueName: "name")) var name:
    String

  func run() throws {
    let catalog = CalendarCatalog(
      store: try store.open(), clock: SystemClock(), logger: Logger(label: "notify.calendar"))
    let cancelled: Int
    do throws(CalendarFailure) {
      cancelled = try catalog.remove(name: name)
    } catch {
      throw error.notifyError
    }
    Output.line("removed calendar '\(Output.safe(name))': \(cancelled) pending alarms cancelled")
  }
}

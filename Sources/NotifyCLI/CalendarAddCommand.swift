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
    let absolute = CalendarCommand.absolute(path)
    guard CalendarFiles.kind(of: absolute) != .missing else {
      throw NotifyError(
        .noInput, "no such file or folder: \(Escaper.visible(path))",
        fix: "name an existing vdir folder or .ics file")
    }
    let calendarName = name ?? CalendarCommand.defaultName(for: absolute)
    try CalendarCommand.validateName(calendarName)
    let appID = app ?? "calendar." + calendarName
    try Validator.app(appID)
    let clock = SystemClock()
    let now = clock.now()
    let opened = try store.open()
    try opened.addCalendar(
      CalendarRecord(
        name: calendarName, path: absolute, app: appID, writeBack: writeBack, addedAt: now, watermark: now))
    // A running daemon starts watching it (after this process scheduled what is due).
    defer { CalendarComponent.announceChange(storePath: opened.path) }
    var logger = Logger(label: "notify.calendar")
    logger.logLevel = .warning
    let report = try CalendarSync(store: opened, clock: clock, logger: logger).sync(
      force: true, only: calendarName)
    for warning in report.warnings { Output.warning(warning.description) }
    let next = try opened.calendarAlarms(calendar: calendarName).first { $0.state == "pending" }?.fireDate
    let nextText = next.map { ", next at " + Output.localTime($0, zone: clock.zones.local) } ?? ""
    Output.line(
      "calendar '\(Output.safe(calendarName))' (app \(appID)): \(report.files[calendarName] ?? 0) files, \(report.pending[calendarName] ?? 0) alarms pending\(nextText)"
    )
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
    let opened = try store.open()
    let zone = SystemClock().zones.local
    var records: [JSONRecord] = []
    for calendar in try opened.calendars() {
      let files = CalendarScan(path: calendar.path).files.count
      let pending = try opened.calendarAlarms(calendar: calendar.name).filter { $0.state == "pending" }
      if json {
        var record = JSONRecord(capacity: 8)
        record.set("name", calendar.name)
        record.set("path", calendar.path)
        record.set("app", calendar.app)
        record.set("writeBack", calendar.writeBack)
        record.set("files", files)
        record.set("pending", pending.count)
        record.set("next", pending.first.map { RFC3339.string(from: $0.fireDate) })
        record.set("addedAt", RFC3339.string(from: calendar.addedAt))
        records.append(record)
      } else {
        let next =
          pending.first.map { "next " + Output.localTime($0.fireDate, zone: zone) } ?? "nothing pending"
        Output.line(
          "\(Output.safe(calendar.name))  app \(calendar.app)  \(Output.safe(calendar.path))  \(files) files, \(pending.count) pending, \(next)\(calendar.writeBack ? ", write-back" : "")"
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
    let opened = try store.open()
    guard let cancelled = try opened.removeCalendar(named: name, at: Date()) else {
      throw NotifyError(
        .notFound([name]), "no calendar is named '\(Output.safe(name))'", fix: "see notify calendar list")
    }
    CalendarComponent.announceChange(storePath: opened.path)
    Output.line("removed calendar '\(Output.safe(name))': \(cancelled) pending alarms cancelled")
  }
}

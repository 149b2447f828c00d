import Foundation
import Logging
import NotifyCalendar
import NotifyCore
import NotifyStore

/// The calendars a store watches: adding one (and scheduling its alarms at once), listing
/// them with what they have pending, removing one. One path for `notify calendar
/// add/list/remove` and the library's `LocalNotificationCenter.addCalendar`, `calendars()`
/// and `removeCalendar`. A running daemon hears of each change through
/// `CalendarComponent.announceChange`.
public struct CalendarCatalog {
  /// A watched calendar and where it stands now.
  public struct Entry: Sendable {
    /// What the store keeps of it.
    public var record: CalendarRecord
    /// How many `.ics` files its path has now.
    public var files: Int
    /// How many of its alarms are pending.
    public var pending: Int
    /// Its soonest pending alarm, or nil.
    public var next: Date?
  }

  let store: SQLiteStore
  let clock: any NotifyClock
  let logger: Logger

  /// The catalog of `store`, with `now` and the zones from `clock`.
  public init(store: SQLiteStore, clock: any NotifyClock, logger: Logger) {
    self.store = store
    self.clock = clock
    self.logger = logger
  }

  /// Watches `path` (made absolute against the working folder, `absolute`) as calendar
  /// `name` (default: the path's name, `CalendarImport.defaultName`) of `app` (default
  /// `calendar.NAME`), schedules its alarms from now on and tells a running daemon. Returns
  /// the calendar and what was skipped in its files.
  public func add(path: String, name: String?, app: String?, writeBack: Bool) throws(CalendarFailure) -> (
    Entry, [CalendarWarning]
  ) {
    let (name, app) = try Self.check(path: path, name: name, app: app)
    let path = Self.absolute(path)
    let now = clock.now()
    do throws(NotifyError) {
      try store.addCalendar(
        CalendarRecord(name: name, path: path, app: app, writeBack: writeBack, addedAt: now, watermark: now))
    } catch {
      throw error.kind == .notTakenEffect ? .nameTaken(name) : .store(error)
    }
    // A running daemon starts watching it (after this process scheduled what is due).
    defer { CalendarComponent.announceChange(storePath: store.path) }
    let report: CalendarSync.Report
    let entry: Entry?
    do throws(NotifyError) {
      report = try CalendarSync(store: store, clock: clock, logger: logger).sync(force: true, only: name)
      entry = try entries(app: nil).first { $0.record.name == name }
    } catch {
      throw .store(error)
    }
    // Removed by another process meanwhile.
    guard let entry else { throw .unknownName(name) }
    return (entry, report.warnings)
  }

  /// The watched calendars, by name; of `app` only when given.
  public func list(app: String? = nil) throws(CalendarFailure) -> [Entry] {
    do throws(NotifyError) {
      return try entries(app: app)
    } catch {
      throw .store(error)
    }
  }

  private func entries(app: String?) throws(NotifyError) -> [Entry] {
    var entries: [Entry] = []
    for calendar in try store.calendars() where app == nil || calendar.app == app {
      let pending = try store.calendarAlarms(calendar: calendar.name).filter { $0.state == "pending" }
      entries.append(
        Entry(
          record: calendar, files: CalendarScan(path: calendar.path).files.count, pending: pending.count,
          next: pending.first?.fireDate))
    }
    return entries
  }

  /// Stops watching calendar `name` (of `app` only, when given) and cancels its pending
  /// alarms; returns how many it cancelled. The files are not touched.
  public func remove(name: String, app: String? = nil) throws(CalendarFailure) -> Int {
    let cancelled: Int?
    do throws(NotifyError) {
      if let app, try !store.calendars().contains(where: { $0.name == name && $0.app == app }) {
        cancelled = nil
      } else {
        cancelled = try store.removeCalendar(named: name, at: clock.now())
      }
    } catch {
      throw .store(error)
    }
    guard let cancelled else { throw .unknownName(name) }
    CalendarComponent.announceChange(storePath: store.path)
    return cancelled
  }

  /// The calendar's name and app for `add`, or why it cannot be added: a missing path (named
  /// in the failure as the caller gave it), a bad name or app. Asks no store, so a caller may
  /// check before opening one.
  public static func check(path: String, name: String?, app: String?) throws(CalendarFailure) -> (
    name: String, app: String
  ) {
    guard CalendarFiles.kind(of: path) != .missing else { throw .noSuchPath(path) }
    let name = name ?? CalendarImport.defaultName(for: path)
    guard isName(name) else { throw .invalidName(name) }
    let app = app ?? "calendar." + name
    do throws(NotifyError) {
      try Validator.app(app)
    } catch {
      throw .store(error)
    }
    return (name, app)
  }

  /// `path` made absolute against the working folder (links are kept: a synced folder may
  /// be reached through one), as a calendar's path is kept.
  public static func absolute(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    let here = FileManager.default.currentDirectoryPath
    return (here.hasSuffix("/") ? here : here + "/") + path
  }

  /// How many characters a calendar's name has.
  public static let nameLengths = 1...128

  /// Whether `name` can name a calendar: the characters of an app id, 1 to 128 of them.
  public static func isName(_ name: String) -> Bool {
    nameLengths.contains(name.utf8.count)
      && name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
  }
}

import Foundation
import NotifyCalendar
import NotifyCalendarSync
import NotifyCore
import NotifyStore

/// Calendars' alarms (docs/calendars.md): the `notify calendar` and `notify import`
/// commands for the center's app, on the same path (`CalendarCatalog`, `CalendarPreview`,
/// `CalendarImport`). A calendar added here is watched by the daemon (and by this app's
/// firing service while it fires) as one added with `notify calendar add --app APP`.
extension LocalNotificationCenter {
  /// Watches a vdir folder (one `.ics` file per item; calendars one level down count too)
  /// or one `.ics` file, and shows the alarms of its events and to-dos from now on as the
  /// app's notifications (`notify calendar add PATH --app APP`). The nearest alarms are
  /// scheduled before this returns; the daemon follows edits. `name` defaults to the file or
  /// folder name; with `writesBack`, the user's answers are written into the files (RFC 9074).
  ///
  /// Throws `.invalidContent` when the path does not exist, the name is not 1 to 128
  /// letters, digits, `.`, `_` and `-`, or a calendar of that name is watched already;
  /// `.notAvailable` inside a Flatpak sandbox whose calls go to notify's service.
  public func addCalendar(atPath path: String, name: String? = nil, writesBack: Bool = false)
    async throws(NotificationError) -> CalendarAddResult
  {
    if service != nil { throw calendarsNotAvailable("addCalendar(atPath:name:writesBack:)") }
    let (store, clock, app) = (self.store, self.clock, self.app)
    let result = try await calls.run {
      () throws(NotifyError) -> Result<CalendarAddResult, NotificationError> in
      do throws(CalendarFailure) {
        let (entry, warnings) = try CalendarCatalog(
          store: store, clock: clock, logger: NotifyLogging.logger("notify.calendar")
        ).add(path: path, name: name, app: app, writeBack: writesBack)
        return .success(
          CalendarAddResult(calendar: WatchedCalendar(entry), warnings: warnings.map(\.description)))
      } catch {
        return .failure(NotificationError(error.notifyError))
      }
    }
    storeChanged()
    return try result.get()
  }

  /// The app's watched calendars, by name, with what each has pending
  /// (`notify calendar list`, for this app).
  public func calendars() async throws(NotificationError) -> [WatchedCalendar] {
    if service != nil { throw calendarsNotAvailable("calendars()") }
    let (store, clock, app) = (self.store, self.clock, self.app)
    return try await calls.run { () throws(NotifyError) -> Result<[WatchedCalendar], NotificationError> in
      do throws(CalendarFailure) {
        let catalog = CalendarCatalog(
          store: store, clock: clock, logger: NotifyLogging.logger("notify.calendar"))
        return .success(try catalog.list(app: app).map(WatchedCalendar.init))
      } catch {
        return .failure(NotificationError(error.notifyError))
      }
    }.get()
  }

  /// Stops watching the app's calendar `name` and cancels its pending alarms (history:
  /// `cancelled`, reason `calendar`); returns how many it cancelled. The files are not
  /// touched. Throws `.notFound` when no calendar of the app has that name.
  @discardableResult
  public func removeCalendar(named name: String) async throws(NotificationError) -> Int {
    if service != nil { throw calendarsNotAvailable("removeCalendar(named:)") }
    let (store, clock, app) = (self.store, self.clock, self.app)
    let result = try await calls.run { () throws(NotifyError) -> Result<Int, NotificationError> in
      do throws(CalendarFailure) {
        let catalog = CalendarCatalog(
          store: store, clock: clock, logger: NotifyLogging.logger("notify.calendar"))
        return .success(try catalog.remove(name: name, app: app))
      } catch {
        return .failure(NotificationError(error.notifyError))
      }
    }
    storeChanged()
    return try result.get()
  }

  /// A dry run: the alarm instants that the files of `paths` (folders read as
  /// `addCalendar` reads them) have from `start` up to (not at) `end`, soonest first, each
  /// REPEAT repetition listed, acknowledged alarms and cancelled items left out
  /// (`notify calendar preview --json`). The ids are those a calendar named `name`
  /// (default: the first path's name) schedules. Floating times and dates are read in the
  /// center's clock's zone. Reads no store, so it works inside a sandbox too.
  ///
  /// Throws `.invalidContent` without a path, with `start` not before `end`, or when a path
  /// does not exist.
  public func previewCalendar(paths: [String], from start: Date, to end: Date, name: String? = nil)
    async throws(NotificationError) -> CalendarPreviewResult
  {
    let zones = clock.zones
    return try await calls.run { () throws(NotifyError) -> Result<CalendarPreviewResult, NotificationError> in
      do throws(CalendarFailure) {
        try CalendarPreview.check(paths: paths, from: start, to: end)
      } catch {
        return .failure(NotificationError(error.notifyError))
      }
      let calendar = name ?? CalendarImport.defaultName(for: paths[0])
      let preview = CalendarPreview.run(paths: paths, from: start, to: end, zones: zones)
      return .success(
        CalendarPreviewResult(
          alarms: preview.alarms.map { CalendarAlarmInstant($0, calendar: calendar) },
          warnings: preview.warnings))
    }.get()
  }

  /// Schedules the alarms of one `.ics` file from now on, once, as the app's one-shot
  /// notifications (`notify import FILE --app APP`): the soonest first, as many as leave 8
  /// of the app's 64 free (`leftOutAfter` says when later ones were left out). The ids are
  /// those a calendar named after the file would give, so importing it again replaces rather
  /// than doubles. Nothing is scheduled when the file has no alarm from now on
  /// (`importedIDs` is empty).
  ///
  /// Throws `.invalidContent` when the file does not exist or cannot be read;
  /// `.notAvailable` inside a Flatpak sandbox whose calls go to notify's service.
  @discardableResult
  public func importCalendar(file: String) async throws(NotificationError) -> CalendarImportResult {
    if service != nil { throw calendarsNotAvailable("importCalendar(file:)") }
    let (store, clock, app) = (self.store, self.clock, self.app)
    let result = try await calls.run {
      () throws(NotifyError) -> Result<CalendarImportResult, NotificationError> in
      do throws(CalendarFailure) {
        let imported = try CalendarImport.importFile(file, app: app, store: store, clock: clock)
        return .success(
          CalendarImportResult(
            importedIDs: imported.plan.notifications.map(\.notification.id),
            leftOutAfter: imported.plan.cutAfter,
            discardedIDs: imported.discarded, warnings: imported.plan.warnings))
      } catch {
        return .failure(NotificationError(error.notifyError))
      }
    }
    storeChanged()
    return try result.get()
  }

  /// Why `call` cannot be made through notify's service (decisions/0095).
  func calendarsNotAvailable(_ call: String) -> NotificationError {
    .notAvailable(
      .init(
        problem:
          "\(call) is not available inside a Flatpak sandbox whose center goes through notify's service: the service reads no file by a path a caller names (a sandbox's paths are not the host's, and a daemon reading whatever file any bus client names would show its contents in notifications)",
        fix:
          "previewCalendar works inside the sandbox, and the user can add the calendar on the host with notify calendar add PATH --app \(app)"
      ))
  }
}

import Foundation
import Glibc
import Logging
import NotifyCalendar
import NotifyCore
import NotifyStore

/// Brings the store's calendar alarms up to date with the calendars on disk: for each app
/// with calendars, reads what changed (`CalendarScan`, `DocumentCache`), expands the
/// alarms after each calendar's watermark (`AlarmExpansion`), lets `AlarmWindow` decide
/// what is pending and carries that out in one transaction (`updateCalendarWindow`).
///
/// The same for every driver: `notify calendar add`, each `notify fire-due` run and the
/// daemon (`CalendarComponent`) call `sync`; the alarms are then ordinary notifications,
/// fired by whichever firer runs.
public final class CalendarSync {
  /// What one sync did, for logs and `notify calendar add`.
  public struct Report: Sendable {
    public var scheduled = 0
    public var cancelled = 0
    public var consumed = 0
    public var filesRead = 0
    public var discarded: [String] = []
    public var warnings: [CalendarWarning] = []
    /// Each calendar's files and the alarms it has pending, by name.
    public var files: [String: Int] = [:]
    public var pending: [String: Int] = [:]
    /// Where the time went, in seconds: listing and stating the files, reading and
    /// expanding them, the store's transaction.
    public var scanning: Double = 0
    public var expanding: Double = 0
    public var storing: Double = 0
  }

  let store: SQLiteStore
  let clock: any NotifyClock
  let logger: Logger
  private let cache = DocumentCache()

  /// A sync over `store`, reading the zones and `now` from `clock`.
  public init(store: SQLiteStore, clock: any NotifyClock, logger: Logger = Logger(label: "notify.calendar")) {
    self.store = store
    self.clock = clock
    self.logger = logger
  }

  /// Brings every calendar's window up to date. Without `force`, an app whose files did not
  /// change since the last scan (and whose window lost nothing) is left alone after a stat
  /// of its files. `only` limits it to one calendar's app.
  @discardableResult
  public func sync(force: Bool = false, only: String? = nil) throws(NotifyError) -> Report {
    var report = Report()
    let calendars = try store.calendars()
    let consumed = try calendars.isEmpty ? false : store.calendarWindowConsumed()
    let zones = clock.zones
    var byApp: [String: [CalendarRecord]] = [:]
    for calendar in calendars where only == nil || calendar.name == only {
      byApp[calendar.app, default: []].append(calendar)
    }
    var listed: Set<String> = []
    for app in byApp.keys.sorted() {
      let members = byApp[app]!
      let scanStarted = Self.seconds()
      let scans = members.map { CalendarScan(path: $0.path) }
      report.scanning += Self.seconds() - scanStarted
      for scan in scans { listed.formUnion(scan.files.map(\.path)) }
      let fingerprints = zip(members, scans).map { $1.fingerprint(zone: zones.local.identifier) }
      let unchanged = zip(members, fingerprints).allSatisfy { $0.fingerprint == $1 }
      if !force && !consumed && unchanged {
        for (calendar, scan) in zip(members, scans) { report.files[calendar.name] = scan.files.count }
        continue
      }
      try syncApp(
        app, calendars: members, scans: scans, fingerprints: fingerprints, zones: zones, report: &report)
    }
    if only == nil { cache.keep(only: listed) }
    return report
  }

  private func syncApp(
    _ app: String, calendars: [CalendarRecord], scans: [CalendarScan], fingerprints: [String], zones: Zones,
    report: inout Report
  ) throws(NotifyError) {
    let now = clock.now()
    let limit = AlarmWindow.pendingLimit
    // Every calendar's soonest alarm instants after its watermark, with where they come from.
    var found: [(instant: AlarmInstant, calendar: String, file: String)] = []
    let expandStarted = Self.seconds()
    for (calendar, scan) in zip(calendars, scans) {
      report.files[calendar.name] = scan.files.count
      let from = calendar.watermark + 0.001
      let until = from + 200 * 365 * 86_400
      for (path, stamp) in scan.files {
        // An unchanged file's soonest instants from an earlier look still hold while the
        // watermark has not passed more of them than the limit leaves: a rescan after one
        // edit reads and expands that file only, and no parsed file is kept in memory.
        let instants: [AlarmInstant]
        if let kept = cache.expansion(
          path, stamp: stamp, zone: zones.local.identifier, from: from, limit: limit)
        {
          instants = kept
        } else {
          let (document, changed, failure) = cache.document(path, stamp: stamp)
          if let failure { report.warnings.append(failure) }
          if changed { report.filesRead += 1 }
          let result = AlarmExpansion.instants(
            in: document, zones: zones, from: from, to: until, limit: limit, soonestOnly: true)
          if changed { report.warnings += result.warnings.map { $0.inFile(path) } }
          cache.keep(
            expansion: result.instants, truncated: result.truncated, of: path, stamp: stamp,
            zone: zones.local.identifier, from: from)
          instants = result.instants
        }
        for instant in instants where instant.repetition == 0 {
          found.append((instant, calendar.name, path))
        }
      }
    }
    found.sort { AlarmInstant.soonestFirst($0.instant, $1.instant) }
    var notifications: [String: (LocalNotification, CalendarAlarmRecord)] = [:]
    var candidates: [AlarmWindow.Candidate] = []
    // Only the soonest can be chosen: made into notifications are those, and as many more
    // as the store may remember as done.
    let storeStarted = Self.seconds()
    report.expanding += storeStarted - expandStarted
    defer { report.storing += Self.seconds() - storeStarted }
    let change = try store.updateCalendarWindow(app: app, at: now, zones: zones) {
      state throws(NotifyError) in
      let done = state.alarms.filter { $0.state == "done" }.count
      for (instant, calendar, file) in found.prefix(limit + done + 1) {
        let id = AlarmIdentity.id(calendar: calendar, instant: instant)
        guard notifications[id] == nil else { continue }
        let notification = AlarmNotification.make(
          instant, calendar: calendar, app: app, createdAt: now, zone: zones.local)
        let digest = Self.digest(notification)
        notifications[id] = (
          notification,
          CalendarAlarmRecord(
            calendar: calendar, id: id, fireDate: instant.fireDate, state: "pending", digest: digest,
            file: file,
            uid: instant.uid, recurrenceID: instant.recurrenceID, alarmKey: instant.alarmKey)
        )
        candidates.append(
          AlarmWindow.Candidate(id: id, calendar: calendar, fireDate: instant.fireDate, digest: digest))
      }
      let managed = state.alarms.map {
        AlarmWindow.Managed(
          id: $0.id, calendar: $0.calendar, fireDate: $0.fireDate,
          state: $0.state == "done" ? .done : .pending,
          digest: $0.digest)
      }
      let plan = AlarmWindow.plan(
        candidates: candidates, managed: managed, stillPending: state.stillPending,
        otherPending: state.otherPending,
        watermarks: Dictionary(uniqueKeysWithValues: state.calendars.map { ($0.name, $0.watermark) }),
        now: now)
      var change = CalendarWindowChange()
      change.cancel = plan.cancel
      change.consumed = plan.consumed
      change.forget = plan.forget
      change.watermarks = plan.watermarks
      change.schedule = plan.schedule.compactMap { notifications[$0.id] }
      for (calendar, fingerprint) in zip(calendars, fingerprints) {
        change.fingerprints[calendar.name] = fingerprint
      }
      return change
    }
    report.scheduled += change.schedule.count
    report.cancelled += change.cancel.count
    report.consumed += change.consumed.count
    report.discarded += change.discarded
    for calendar in calendars {
      report.pending[calendar.name] = try store.calendarAlarms(calendar: calendar.name).filter {
        $0.state == "pending"
      }.count
    }
    if !change.schedule.isEmpty || !change.cancel.isEmpty {
      logger.info(
        "calendar alarms of app \(app): \(change.schedule.count) scheduled, \(change.cancel.count) cancelled, \(change.consumed.count) shown or gone since the last look"
      )
    }
  }

  static func seconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// What identifies a stored alarm's content: an edit that changes it replaces the notification.
  static func digest(_ notification: LocalNotification) -> String {
    var text = String(RFC3339.millisecondsSince1970(notification.schedule.fireDateInstant ?? .distantPast))
    for part in [notification.title, notification.body, notification.subtitle, notification.sound.name] {
      text += "\u{1F}" + (part ?? "")
    }
    if let realert = notification.realert { text += "\u{1F}\(realert.every)x\(realert.times)" }
    return AlarmIdentity.id(calendar: "", uid: text, recurrenceID: nil, alarmKey: "")
  }
}

extension Schedule {
  /// The instant of a one-shot at an instant.
  var fireDateInstant: Date? {
    if case .instant(let date) = fireDate { return date }
    return nil
  }
}

import Foundation
import Glibc
import Logging
import NotifyCalendar
import NotifyCore
import NotifyStore

/// Brings the store's calendar alarms up to date with the calendars on disk: for each app
/// with calendars, reads what changed (`CalendarScan`, `KeptCalendar`), expands the
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
  /// The one app whose calendars this sync keeps (an app's firing service), nil for all.
  let app: String?
  /// Each calendar's listing and kept expansions, by name (`KeptCalendar`).
  private var kept: [String: KeptCalendar] = [:]
  /// How many done alarms each app's window remembered at the last sync: how far past the
  /// limit the next one looks ahead before its transaction.
  private var doneSeen: [String: Int] = [:]

  /// A sync over `store`, reading the zones and `now` from `clock`: of every calendar, or
  /// of `app`'s only.
  public init(
    store: SQLiteStore, clock: any NotifyClock, app: String? = nil,
    logger: Logger = Logger(label: "notify.calendar")
  ) {
    self.store = store
    self.clock = clock
    self.app = app
    self.logger = logger
  }

  /// Brings every calendar's window up to date. Without `force`, an app whose files did not
  /// change since the last scan (and whose window lost nothing) is left alone after a stat
  /// of its files. `only` limits it to one calendar's app. With `changed` (the files a watch
  /// reported), a calendar this sync listed before is brought up to date by a `stat` of
  /// each of those instead of being listed again; the result is the same as a full scan's.
  @discardableResult
  public func sync(force: Bool = false, only: String? = nil, changed: Set<String>? = nil) throws(NotifyError)
    -> Report
  {
    var report = Report()
    let calendars = try store.calendars().filter { app == nil || $0.app == app }
    let consumed = try calendars.isEmpty ? false : store.calendarWindowConsumed()
    let zones = clock.zones
    var byApp: [String: [CalendarRecord]] = [:]
    for calendar in calendars where only == nil || calendar.name == only {
      byApp[calendar.app, default: []].append(calendar)
    }
    if only == nil {
      let names = Set(calendars.map(\.name))
      for name in kept.keys where !names.contains(name) { kept[name] = nil }
    }
    for app in byApp.keys.sorted() {
      let members = byApp[app]!
      let scanStarted = Self.seconds()
      let tables = members.map { listing(of: $0, changed: changed, zone: zones.local.identifier) }
      report.scanning += Self.seconds() - scanStarted
      let fingerprints = tables.map { $0.scan.fingerprint(zone: zones.local.identifier) }
      let unchanged = zip(members, fingerprints).allSatisfy { $0.fingerprint == $1 }
      if !force && !consumed && unchanged {
        for (calendar, table) in zip(members, tables) { report.files[calendar.name] = table.scan.files.count }
        continue
      }
      try syncApp(
        app, calendars: members, tables: tables, fingerprints: fingerprints, zones: zones, report: &report)
    }
    return report
  }

  /// The folders one level down of a calendar this sync listed (which a watch also
  /// watches), or nil when it has not listed it.
  public func folders(of calendar: CalendarRecord) -> [String]? {
    guard let table = kept[calendar.name], table.scan.path == calendar.path else { return nil }
    return table.scan.folders
  }

  /// The calendar's kept listing brought up to date: by the files `changed` names when it
  /// was listed before, else listed now.
  private func listing(of calendar: CalendarRecord, changed: Set<String>?, zone: String) -> KeptCalendar {
    if let table = kept[calendar.name], table.scan.path == calendar.path, let changed {
      table.use(zone: zone)
      for file in changed where table.scan.update(file) == .removed { table.forget(file) }
      return table
    }
    let scan = CalendarScan(path: calendar.path)
    if let table = kept[calendar.name], table.scan.path == calendar.path {
      table.use(zone: zone)
      table.scan = scan
      table.forgetUnlisted()
      return table
    }
    let table = KeptCalendar(scan: scan, zone: zone)
    kept[calendar.name] = table
    return table
  }

  private func syncApp(
    _ app: String, calendars: [CalendarRecord], tables: [KeptCalendar], fingerprints: [String], zones: Zones,
    report: inout Report
  ) throws(NotifyError) {
    let now = clock.now()
    let limit = AlarmWindow.pendingLimit
    let expandStarted = Self.seconds()
    // Every calendar's soonest alarm instants after its watermark, as bare times and the
    // file they come from: kept from an earlier look while the file is unchanged (and the
    // watermark has not passed more of them than the limit leaves), else read and expanded.
    var times: [(at: Double, file: Int32)] = []
    var files: [(calendar: Int, path: String, stamp: CalendarScan.Stamp)] = []
    var fresh: [Int32: [AlarmInstant]] = [:]
    for (index, (calendar, table)) in zip(calendars, tables).enumerated() {
      report.files[calendar.name] = table.scan.files.count
      let from = (calendar.watermark + 0.001).timeIntervalSince1970
      for (path, stamp) in table.scan.files {
        var file: Int32?
        func note(_ at: Double) {
          if file == nil {
            file = Int32(files.count)
            files.append((index, path, stamp))
          }
          times.append((at, file!))
        }
        if let instants = table.kept(path, stamp: stamp, from: from, limit: limit) {
          for instant in instants where instant.isFirst { note(instant.at) }
          continue
        }
        let instants = expand(path, stamp: stamp, from: from, table: table, zones: zones, report: &report)
        for instant in instants where instant.repetition == 0 { note(instant.fireDate.timeIntervalSince1970) }
        if let file { fresh[file] = instants }
      }
    }
    times.sort { $0.at < $1.at }
    report.expanding += Self.seconds() - expandStarted
    // Only the soonest can be chosen: made into notifications are those, and as many more
    // as the store may remember as done. Their full instants come from the files the last
    // sync chose from, from what was read now, or from reading the file again.
    var wanted = limit + (doneSeen[app] ?? 0) + 1 + 16
    while true {
      let chooseStarted = Self.seconds()
      let cutoff = times.count > wanted ? times[wanted - 1].at : .infinity
      var chosenFiles: [Int32] = []
      var seen: Set<Int32> = []
      for (at, file) in times {
        if at > cutoff { break }
        if seen.insert(file).inserted { chosenFiles.append(file) }
      }
      var found: [(instant: AlarmInstant, calendar: String, file: String)] = []
      var kept: [Int: [String: KeptCalendar.Full]] = [:]
      for file in chosenFiles {
        let (index, path, stamp) = files[Int(file)]
        let table = tables[index]
        let from = (calendars[index].watermark + 0.001).timeIntervalSince1970
        let instants =
          fresh[file] ?? table.fullInstants(path, stamp: stamp, from: from)
          ?? expand(path, stamp: stamp, from: from, table: table, zones: zones, report: &report)
        if let record = table.full[path] { kept[index, default: [:]][path] = record }
        for instant in instants where instant.repetition == 0 {
          let at = instant.fireDate.timeIntervalSince1970
          if at >= from && at <= cutoff { found.append((instant, calendars[index].name, path)) }
        }
      }
      // Soonest first; the same alarm in two files (or two calendars) by calendar and path.
      found.sort { a, b in
        if AlarmInstant.soonestFirst(a.instant, b.instant) { return true }
        if AlarmInstant.soonestFirst(b.instant, a.instant) { return false }
        return (a.calendar, a.file) < (b.calendar, b.file)
      }
      report.expanding += Self.seconds() - chooseStarted
      let storeStarted = Self.seconds()
      var needed: Int?
      var done = 0
      var refused: [CalendarWarning] = []
      let change = try store.updateCalendarWindow(app: app, at: now, zones: zones) {
        state throws(NotifyError) in
        refused = []
        done = state.alarms.filter { $0.state == "done" }.count
        if limit + done + 1 > wanted && cutoff.isFinite {
          // More alarms are remembered as done than this look prepared for: nothing is
          // written, and the sync looks further ahead.
          needed = limit + done + 1 + 16
          return CalendarWindowChange()
        }
        return Self.decide(
          state: state, found: found.prefix(limit + done + 1), app: app, calendars: calendars,
          fingerprints: fingerprints, now: now, zones: zones, refused: &refused)
      }
      report.storing += Self.seconds() - storeStarted
      if let needed {
        wanted = needed
        continue
      }
      doneSeen[app] = done
      report.warnings += refused
      for (index, table) in tables.enumerated() { table.full = kept[index] ?? [:] }
      report.scheduled += change.schedule.count
      report.cancelled += change.cancel.count
      report.consumed += change.consumed.count
      report.discarded += change.discarded
      if !change.schedule.isEmpty || !change.cancel.isEmpty {
        logger.info(
          "calendar alarms of app \(app): \(change.schedule.count) scheduled, \(change.cancel.count) cancelled, \(change.consumed.count) shown or gone since the last look"
        )
      }
      break
    }
    for calendar in calendars {
      report.pending[calendar.name] = try store.calendarAlarms(calendar: calendar.name).filter {
        $0.state == "pending"
      }.count
    }
  }

  /// Reads and expands one file after `from`, keeps the result, and returns its instants.
  private func expand(
    _ path: String, stamp: CalendarScan.Stamp, from: Double, table: KeptCalendar, zones: Zones,
    report: inout Report
  ) -> [AlarmInstant] {
    let isNews = table.isChanged(path, stamp: stamp)
    report.filesRead += 1
    let document: CalendarDocument
    switch CalendarFiles.read(path) {
    case .failure(let warning):
      if isNews { report.warnings.append(warning) }
      document = CalendarDocument()
    case .success(let bytes):
      document = CalendarDocument(bytes: bytes)
    }
    let start = Date(timeIntervalSince1970: from)
    let result = AlarmExpansion.instants(
      in: document, zones: zones, from: start, to: start + 200 * 365 * 86_400,
      limit: AlarmWindow.pendingLimit,
      soonestOnly: true)
    if isNews { report.warnings += result.warnings.map { $0.inFile(path) } }
    table.keep(result.instants, truncated: result.truncated, of: path, stamp: stamp, from: from)
    table.full[path] = KeptCalendar.Full(stamp: stamp, from: from, instants: result.instants)
    return result.instants
  }

  /// The change for one app's window: the candidates made into notifications, the plan of
  /// `AlarmWindow` over them and the store's state, the calendars' fingerprints. An alarm
  /// the request rules refuse is no candidate; `refused` gets a warning naming it.
  static func decide(
    state: CalendarWindowState, found: ArraySlice<(instant: AlarmInstant, calendar: String, file: String)>,
    app: String, calendars: [CalendarRecord], fingerprints: [String], now: Date, zones: Zones,
    refused: inout [CalendarWarning]
  ) -> CalendarWindowChange {
    var notifications: [String: (CheckedNotification, CalendarAlarmRecord)] = [:]
    var candidates: [AlarmWindow.Candidate] = []
    for (instant, calendar, file) in found {
      let id = AlarmIdentity.id(calendar: calendar, instant: instant)
      guard notifications[id] == nil else { continue }
      let notification: CheckedNotification
      do throws(NotifyError) {
        notification = try AlarmNotification.make(
          instant, calendar: calendar, app: app, createdAt: now, zone: zones.local)
      } catch {
        // Not a candidate: the rest of the window schedules, and the file says why.
        refused.append(AlarmNotification.refused(instant, file: file, error: error))
        continue
      }
      let digest = Self.digest(notification.notification)
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
        id: $0.id, calendar: $0.calendar, fireDate: $0.fireDate, state: $0.state == "done" ? .done : .pending,
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

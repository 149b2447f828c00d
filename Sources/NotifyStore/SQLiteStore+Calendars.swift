import Foundation
import GRDB
import NotifyCore

/// A calendar on disk whose alarms notify shows (table `calendar`).
public struct CalendarRecord: Hashable, Sendable {
  /// Its name (`notify calendar add --name`), unique in the store.
  public var name: String
  /// The vdir folder or `.ics` file watched, absolute.
  public var path: String
  /// The app its alarms are notifications of.
  public var app: String
  /// Whether an acknowledgement is written back into the item (`ACKNOWLEDGED`).
  public var writeBack: Bool
  /// When it was added: alarms before then are never shown.
  public var addedAt: Date
  /// Alarm instants at or before it are done.
  public var watermark: Date
  /// The files and zone of the last scan (`CalendarScan`), nil before the first.
  public var fingerprint: String?
  /// The last history event the write-back read.
  public var historySeen: Int64

  public init(
    name: String, path: String, app: String, writeBack: Bool, addedAt: Date, watermark: Date,
    fingerprint: String? = nil, historySeen: Int64 = 0
  ) {
    self.name = name
    self.path = path
    self.app = app
    self.writeBack = writeBack
    self.addedAt = addedAt
    self.watermark = watermark
    self.fingerprint = fingerprint
    self.historySeen = historySeen
  }
}

/// An alarm the rolling window stored (table `calendar_alarm`): where it comes from, so
/// that an acknowledgement can be written back into its item.
public struct CalendarAlarmRecord: Hashable, Sendable {
  public var calendar: String
  public var id: String
  public var fireDate: Date
  /// `pending` (stored as a notification) or `done`.
  public var state: String
  public var digest: String
  public var file: String
  public var uid: String
  public var recurrenceID: String?
  public var alarmKey: String

  public init(
    calendar: String, id: String, fireDate: Date, state: String, digest: String, file: String, uid: String,
    recurrenceID: String?, alarmKey: String
  ) {
    self.calendar = calendar
    self.id = id
    self.fireDate = fireDate
    self.state = state
    self.digest = digest
    self.file = file
    self.uid = uid
    self.recurrenceID = recurrenceID
    self.alarmKey = alarmKey
  }
}

/// What the window of one app looks like in the store, read in the transaction that
/// changes it (`SQLiteStore.updateCalendarWindow`).
public struct CalendarWindowState: Sendable {
  /// The app's calendars.
  public var calendars: [CalendarRecord]
  /// What the store remembers of their alarms.
  public var alarms: [CalendarAlarmRecord]
  /// The ids among `alarms` whose notification is still pending (the original, not a copy).
  public var stillPending: Set<String>
  /// The app's other pending rows: its own notifications, snoozed and re-alert copies.
  public var otherPending: Int
}

/// What to do to the window, decided from a `CalendarWindowState`.
public struct CalendarWindowChange: Sendable {
  /// Pending alarms to cancel (recorded `cancelled`, reason `calendar`).
  public var cancel: [String] = []
  /// Notifications to store, checked already, each with its record (state `pending`).
  public var schedule: [(CheckedNotification, CalendarAlarmRecord)] = []
  /// Alarms now done.
  public var consumed: [String] = []
  /// Done alarms to forget.
  public var forget: [String] = []
  /// New watermarks and fingerprints by calendar.
  public var watermarks: [String: Date] = [:]
  public var fingerprints: [String: String] = [:]
  /// What the 64 limit discarded when the change was stored (the window leaves room, so
  /// normally nothing).
  public var discarded: [String] = []

  public init() {}
}

extension SQLiteStore {
  /// Adds a calendar; exit 1-style `notTakenEffect` when the name is taken.
  public func addCalendar(_ calendar: CalendarRecord) throws(NotifyError) {
    try Validator.app(calendar.app)
    let inserted = try write { db -> Bool in
      if try Bool.fetchOne(db, sql: "SELECT 1 FROM calendar WHERE name = ?", arguments: [calendar.name])
        == true
      {
        return false
      }
      try db.execute(
        sql: """
          INSERT INTO calendar (name, path, app, write_back, added_at, watermark) VALUES (?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          calendar.name, calendar.path, calendar.app, calendar.writeBack ? 1 : 0,
          Millis.from(calendar.addedAt),
          Millis.from(calendar.watermark),
        ])
      return true
    }
    guard inserted else {
      throw NotifyError(
        .notTakenEffect, "a calendar named '\(Escaper.visible(calendar.name))' is already watched",
        fix: "pick another --name, or notify calendar remove it first")
    }
  }

  /// Every calendar, by name.
  public func calendars() throws(NotifyError) -> [CalendarRecord] {
    try read { db in try Row.fetchAll(db, sql: "SELECT * FROM calendar ORDER BY name").map(Self.calendar) }
  }

  /// Removes a calendar and cancels its pending alarms (recorded `cancelled`, reason
  /// `calendar`); returns how many it cancelled, nil when no calendar has that name.
  public func removeCalendar(named name: String, at now: Date) throws(NotifyError) -> Int? {
    try write { db -> Int? in
      guard let row = try Row.fetchOne(db, sql: "SELECT * FROM calendar WHERE name = ?", arguments: [name])
      else {
        return nil
      }
      let calendar = Self.calendar(row)
      let ids = try String.fetchAll(
        db, sql: "SELECT id FROM calendar_alarm WHERE calendar = ? AND state = 'pending'", arguments: [name])
      var cancelled = 0
      for id in ids where try Self.cancelCalendarAlarm(app: calendar.app, id: id, at: now, in: db) {
        cancelled += 1
      }
      try db.execute(sql: "DELETE FROM calendar_alarm WHERE calendar = ?", arguments: [name])
      try db.execute(sql: "DELETE FROM calendar WHERE name = ?", arguments: [name])
      return cancelled
    }
  }

  /// What the store remembers of a calendar's alarms.
  public func calendarAlarms(calendar: String) throws(NotifyError) -> [CalendarAlarmRecord] {
    try read { db in
      try Row.fetchAll(
        db, sql: "SELECT * FROM calendar_alarm WHERE calendar = ? ORDER BY fire_at", arguments: [calendar]
      )
      .map(Self.alarm)
    }
  }

  /// The record of an app's calendar alarm with notification id `id`, if it is one.
  public func calendarAlarm(app: String, id: String) throws(NotifyError) -> CalendarAlarmRecord? {
    try read { db in
      try Row.fetchOne(
        db,
        sql: """
          SELECT calendar_alarm.* FROM calendar_alarm JOIN calendar ON calendar.name = calendar_alarm.calendar
          WHERE calendar.app = ? AND calendar_alarm.id = ?
          """, arguments: [app, id]
      ).map(Self.alarm)
    }
  }

  /// Whether an alarm the window stored has left the store (delivered, cancelled, held)
  /// since: then the window has room for the next. One read.
  public func calendarWindowConsumed() throws(NotifyError) -> Bool {
    try read { db in
      try Bool.fetchOne(
        db,
        sql: """
          SELECT 1 FROM calendar_alarm JOIN calendar ON calendar.name = calendar_alarm.calendar
          WHERE calendar_alarm.state = 'pending' AND NOT EXISTS (
            SELECT 1 FROM notification WHERE notification.app = calendar.app AND notification.id = calendar_alarm.id
              AND notification.next_fire_at IS NOT NULL AND notification.snoozed_occurrence IS NULL)
          LIMIT 1
          """) == true
    }
  }

  /// Reads the window of `app`'s calendars, lets `decide` say what changes, and carries it
  /// out: one transaction, so a rescan never leaves the store half updated and a delivery
  /// between the read and the write cannot be scheduled again. Returns the change made.
  public func updateCalendarWindow(
    app: String, at now: Date, zones: Zones,
    decide: (CalendarWindowState) throws(NotifyError) -> CalendarWindowChange
  ) throws(NotifyError) -> CalendarWindowChange {
    try write { db in
      // Read, decided and written in one transaction: a firer's delivery cannot slip in
      // between, to be scheduled again. The decision is a pure function of what was read.
      let state = try Self.windowState(app: app, in: db)
      var change = try decide(state)
      var prepared: [(Prepared, CalendarAlarmRecord)] = []
      for (notification, record) in change.schedule {
        prepared.append((try Prepared(notification, zones: zones), record))
      }
      for id in change.cancel {
        _ = try Self.cancelCalendarAlarm(app: app, id: id, at: now, in: db)
        try db.execute(
          sql:
            "DELETE FROM calendar_alarm WHERE id = ? AND calendar IN (SELECT name FROM calendar WHERE app = ?)",
          arguments: [id, app])
      }
      for id in change.consumed {
        try db.execute(
          sql:
            "UPDATE calendar_alarm SET state = 'done' WHERE id = ? AND calendar IN (SELECT name FROM calendar WHERE app = ?)",
          arguments: [id, app])
      }
      for id in change.forget {
        try db.execute(
          sql:
            "DELETE FROM calendar_alarm WHERE id = ? AND state = 'done' AND calendar IN (SELECT name FROM calendar WHERE app = ?)",
          arguments: [id, app])
      }
      var known: [Int64: StoredNotification] = [:]
      for (item, record) in prepared {
        let (stored, _) = try item.insert(in: db)
        known[stored.rowID] = stored
        try db.execute(
          sql: """
            INSERT OR REPLACE INTO calendar_alarm (calendar, id, fire_at, state, digest, file, uid, recurrence_id, alarm_key)
            VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?)
            """,
          arguments: [
            record.calendar, record.id, Millis.from(record.fireDate), record.digest, record.file, record.uid,
            record.recurrenceID, record.alarmKey,
          ])
      }
      for (name, mark) in change.watermarks {
        try db.execute(
          sql: "UPDATE calendar SET watermark = max(watermark, ?) WHERE name = ?",
          arguments: [Millis.from(mark), name])
      }
      for (name, fingerprint) in change.fingerprints {
        try db.execute(
          sql: "UPDATE calendar SET fingerprint = ? WHERE name = ?", arguments: [fingerprint, name])
      }
      if !prepared.isEmpty {
        change.discarded = try Self.enforceLimit(app: app, at: now, known: known, in: db).map(
          \.notification.id)
      }
      return change
    }
  }

  /// Records a snooze written back into a calendar file: the snooze alarm `done` (notify's
  /// own snoozed copy goes off in its place, so a rescan must not schedule it), and, when
  /// the snoozed alarm was given a UID (`alarmKey`), its record found by that from now on.
  public func noteCalendarSnooze(_ done: CalendarAlarmRecord, alarm: CalendarAlarmRecord, alarmKey: String?)
    throws(NotifyError)
  {
    try write { db in
      try db.execute(
        sql: """
          INSERT OR REPLACE INTO calendar_alarm (calendar, id, fire_at, state, digest, file, uid, recurrence_id, alarm_key)
          VALUES (?, ?, ?, 'done', ?, ?, ?, ?, ?)
          """,
        arguments: [
          done.calendar, done.id, Millis.from(done.fireDate), done.digest, done.file, done.uid,
          done.recurrenceID,
          done.alarmKey,
        ])
      if let alarmKey {
        try db.execute(
          sql: "UPDATE calendar_alarm SET alarm_key = ? WHERE calendar = ? AND id = ?",
          arguments: [alarmKey, alarm.calendar, alarm.id])
      }
    }
  }

  /// Records the history events write-back has read up to.
  public func noteCalendarHistorySeen(_ sequence: Int64, calendars: [String]) throws(NotifyError) {
    try write { db in
      for name in calendars {
        try db.execute(
          sql: "UPDATE calendar SET history_seen = max(history_seen, ?) WHERE name = ?",
          arguments: [sequence, name])
      }
    }
  }

  /// The app's history events after `sequence` that acknowledge something (`activated`,
  /// `dismissed` by the user, `snoozed`), oldest first, at most 256.
  public func acknowledgements(app: String, after sequence: Int64) throws(NotifyError) -> [(
    Int64, HistoryEvent
  )] {
    try read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT * FROM event WHERE app = ? AND seq > ?
            AND (kind IN ('activated', 'snoozed') OR (kind = 'dismissed' AND reason = 'dismissed-by-user'))
          ORDER BY seq LIMIT 256
          """, arguments: [app, sequence]
      ).map { (($0["seq"] as Int64), HistoryWriter.decode($0)) }
    }
  }

  // MARK: - Rows

  static func windowState(app: String, in db: Database) throws -> CalendarWindowState {
    let calendars = try Row.fetchAll(
      db, sql: "SELECT * FROM calendar WHERE app = ? ORDER BY name", arguments: [app]
    )
    .map(calendar)
    let alarms = try Row.fetchAll(
      db,
      sql: """
        SELECT calendar_alarm.* FROM calendar_alarm JOIN calendar ON calendar.name = calendar_alarm.calendar
        WHERE calendar.app = ? ORDER BY calendar_alarm.fire_at, calendar_alarm.id
        """, arguments: [app]
    ).map(alarm)
    let pendingIDs = try Row.fetchAll(
      db, sql: "SELECT id, snoozed_occurrence FROM notification WHERE app = ? AND next_fire_at IS NOT NULL",
      arguments: [app])
    let managed = Set(alarms.filter { $0.state == "pending" }.map(\.id))
    var still: Set<String> = []
    var other = 0
    for row in pendingIDs {
      let id: String = row["id"]
      let copy = (row["snoozed_occurrence"] as Int?) != nil
      if !copy && managed.contains(id) { still.insert(id) } else { other += 1 }
    }
    return CalendarWindowState(calendars: calendars, alarms: alarms, stillPending: still, otherPending: other)
  }

  /// Cancels the pending original of a calendar alarm (not a snoozed or re-alert copy,
  /// which is the user's), recording it. Whether there was one.
  static func cancelCalendarAlarm(app: String, id: String, at now: Date, in db: Database) throws -> Bool {
    guard
      let row = try Row.fetchOne(
        db,
        sql: """
          SELECT \(NotificationRow.columns) FROM notification
          WHERE app = ? AND id = ? AND next_fire_at IS NOT NULL AND snoozed_occurrence IS NULL
          """, arguments: [app, id])
    else { return false }
    let stored = NotificationRow.decode(row)
    try db.execute(sql: "DELETE FROM notification WHERE rowid = ?", arguments: [stored.rowID])
    try HistoryWriter.insert(
      HistoryEvent(
        at: now, app: app, notificationID: id, kind: .cancelled, reason: "calendar",
        fireDate: stored.nextFireDate,
        detail: HistoryEvent.detail(of: stored.notification)),
      in: db)
    return true
  }

  static func calendar(_ row: Row) -> CalendarRecord {
    CalendarRecord(
      name: row["name"], path: row["path"], app: row["app"], writeBack: (row["write_back"] as Int) == 1,
      addedAt: Millis.date(row["added_at"]), watermark: Millis.date(row["watermark"]),
      fingerprint: row["fingerprint"],
      historySeen: row["history_seen"])
  }

  static func alarm(_ row: Row) -> CalendarAlarmRecord {
    CalendarAlarmRecord(
      calendar: row["calendar"], id: row["id"], fireDate: Millis.date(row["fire_at"]), state: row["state"],
      digest: row["digest"], file: row["file"], uid: row["uid"], recurrenceID: row["recurrence_id"],
      alarmKey: row["alarm_key"])
  }
}

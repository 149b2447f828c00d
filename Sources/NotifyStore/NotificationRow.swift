import Foundation
import GRDB
import NotifyCore

/// Converts between `LocalNotification` values and `notification` table rows.
enum NotificationRow {
  /// The columns of `notification`, for SELECTs.
  static let columns = """
    rowid, app, id, title, body, action, launch_image, sound, badge, user_info, urgency,
    fire_instant, wall_clock, time_zone, repeat_interval, repeat_count, until_instant,
    delivered_count, created_at, next_occurrence, next_fire_at, actions, snoozed_occurrence,
    repeat_rule, subtitle, interruption_level, thread, attachments, body_markup, thread_summary, category,
    realert, wake, expire_late
    """

  /// Decodes a row selected with `columns`.
  static func decode(_ row: Row) -> StoredNotification {
    decode(ColumnValues(row))
  }

  /// Decodes the values of a row selected with `columns`.
  static func decode(_ row: ColumnValues) -> StoredNotification {
    let fireDate: FireDate
    if let instant: Int64 = row["fire_instant"] {
      fireDate = .instant(Millis.date(instant))
    } else {
      fireDate = .wallClock(
        WallClockText.parse(row["wall_clock"]) ?? WallClock(year: 1970, month: 1, day: 1),
        ZoneRule(identifier: row["time_zone"]))
    }
    var schedule = Schedule(
      fireDate: fireDate,
      repeatInterval: (row["repeat_interval"] as String?).flatMap(RepeatInterval.init(rawValue:)),
      repeatCount: row["repeat_count"],
      until: (row["until_instant"] as Int64?).map(Millis.date))
    // The text was written from a checked rule; one this version cannot read (a newer
    // grammar) leaves the notification firing once, at its fire date.
    schedule.rule = (row["repeat_rule"] as String?).flatMap { try? RecurrenceRule(parsing: $0) }
    var userInfo: [String: JSONValue] = [:]
    if case .object(let members)? = try? JSONValue.parse(row["user_info"]) { userInfo = members }
    let notification = LocalNotification(
      id: row["id"], app: row["app"], schedule: schedule,
      title: row["title"], body: row["body"], action: row["action"], launchImage: row["launch_image"],
      sound: SoundName(row["sound"] as String), badge: row["badge"], userInfo: userInfo,
      urgency: Urgency(rawValue: row["urgency"]) ?? .normal,
      actions: NotificationAction.fromStoreText(row["actions"]), subtitle: row["subtitle"],
      interruptionLevel: (row["interruption_level"] as String?).flatMap(InterruptionLevel.init(rawValue:)),
      threadIdentifier: row["thread"], threadSummary: row["thread_summary"],
      attachments: NotificationAttachment.fromStoreText(row["attachments"]),
      bodyMarkup: (row["body_markup"] as Int?) == 1, categoryIdentifier: row["category"],
      realert: Realert.fromStoreText(row["realert"]), wake: (row["wake"] as Int?) == 1,
      expireLate: (row["expire_late"] as Int64?).map { TimeInterval($0) / 1000 },
      deliveredCount: row["delivered_count"], createdAt: Millis.date(row["created_at"]))
    return StoredNotification(
      rowID: row["rowid"], notification: notification, nextOccurrence: row["next_occurrence"],
      nextFireDate: (row["next_fire_at"] as Int64?).map(Millis.date),
      snoozedOccurrence: row["snoozed_occurrence"])
  }

  /// Inserts `n` and returns its row id.
  static func insert(
    _ n: LocalNotification, nextOccurrence: Int, nextFire: Date?, resolvedZone: String?,
    snoozedOccurrence: Int? = nil, in db: Database
  ) throws -> Int64 {
    var instant: Int64?
    var wall: String?
    var zone: String?
    switch n.schedule.fireDate {
    case .instant(let date): instant = Millis.from(date)
    case .wallClock(let w, let z):
      wall = w.iso8601
      zone = z.identifier
    }
    // (a cached statement: a batch compiles it once)
    try db.cachedStatement(
      sql: """
        INSERT INTO notification (app, id, title, body, action, launch_image, sound, badge,
          user_info, urgency, fire_instant, wall_clock, time_zone, repeat_interval, repeat_count,
          until_instant, delivered_count, created_at, next_occurrence, next_fire_at, resolved_zone,
          actions, snoozed_occurrence, repeat_rule, subtitle, interruption_level, thread, attachments,
          body_markup, thread_summary, category, realert, wake, expire_late)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    ).execute(
      arguments: [
        n.app, n.id, n.title, n.body, n.action, n.launchImage, n.sound.name, n.badge,
        JSONValue.object(n.userInfo).compactText, n.urgency.rawValue, instant, wall, zone,
        n.schedule.repeatInterval?.rawValue, n.schedule.repeatCount,
        n.schedule.until.map(Millis.from), n.deliveredCount, Millis.from(n.createdAt),
        nextOccurrence, nextFire.map(Millis.from), resolvedZone, NotificationAction.storeText(n.actions),
        snoozedOccurrence, n.schedule.rule?.text, n.subtitle, n.interruptionLevel.rawValue,
        n.threadIdentifier,
        NotificationAttachment.storeText(n.attachments), n.bodyMarkup, n.threadSummary, n.categoryIdentifier,
        Realert.storeText(n.realert), n.wake ? 1 : 0, n.expireLate.map { Int64(($0 * 1000).rounded()) },
      ])
    return db.lastInsertedRowID
  }
}

/// Instants are stored as integer milliseconds since 1970 UTC.
enum Millis {
  static func from(_ date: Date) -> Int64 { RFC3339.millisecondsSince1970(date) }
  static func date(_ millis: Int64) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }
}

/// `YYYY-MM-DDTHH:MM:SS` as stored in `wall_clock`.
enum WallClockText {
  static func parse(_ text: String?) -> WallClock? {
    guard let text else { return nil }
    let digits = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    guard digits.count == 6 else { return nil }
    return WallClock(
      year: digits[0], month: digits[1], day: digits[2], hour: digits[3], minute: digits[4], second: digits[5]
    )
  }
}

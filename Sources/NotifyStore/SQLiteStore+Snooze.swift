import Foundation
import GRDB
import NotifyCore

extension SQLiteStore {
  /// Snoozes occurrence `occurrence` of `notification` (as it was shown): a copy with the
  /// same content, userInfo and actions fires once at `now + seconds`, beside the
  /// notification, whose own schedule does not move. A copy snoozed earlier is replaced.
  /// The copy is pending like any other: it counts against the 64 limit (an eviction is
  /// recorded as for `schedule`), `list` shows it, `cancel` removes it. History records
  /// `snoozed` with the interval. One transaction.
  ///
  /// Refused (`notTakenEffect`, nothing written) when the notification as shown was
  /// cancelled, or replaced by a new schedule of its id, after it was scheduled
  /// (`SnoozeAdmission`): a bubble can outlive its notification on screen.
  public func snooze(_ notification: LocalNotification, occurrence: Int, seconds: Int, at now: Date)
    throws(NotifyError) -> ScheduleOutcome
  {
    let fireDate = now + TimeInterval(seconds)
    var copy = notification
    copy.schedule = Schedule(fireDate: .instant(fireDate))
    copy.deliveredCount = 0
    copy.createdAt = now
    // An alarm snoozed comes back as the alarm it was, with all its re-alerts.
    copy.realert = copy.realert.map { Realert(every: $0.every, times: $0.times) }
    try Validator.notification(copy)
    return try write { db in
      let since = Millis.from(notification.createdAt)
      let replaced =
        try Int.fetchOne(
          db,
          sql: """
            SELECT count(*) FROM notification
            WHERE app = ? AND id = ? AND snoozed_occurrence IS NULL AND created_at > ?
            """,
          arguments: [copy.app, copy.id, since]) ?? 0 > 0
      let cancelled =
        try Int.fetchOne(
          db,
          sql: "SELECT count(*) FROM event WHERE app = ? AND notification_id = ? AND kind = ? AND at >= ?",
          arguments: [copy.app, copy.id, HistoryEvent.Kind.cancelled.rawValue, since]) ?? 0 > 0
      if let refusal = SnoozeAdmission.refusal(
        id: copy.id, replacedSince: replaced, cancelledSince: cancelled)
      {
        throw refusal
      }
      try db.execute(
        sql:
          "DELETE FROM notification WHERE app = ? AND id = ? AND next_fire_at IS NOT NULL AND snoozed_occurrence IS NOT NULL",
        arguments: [copy.app, copy.id])
      let rowID = try NotificationRow.insert(
        copy, nextOccurrence: 0, nextFire: fireDate, resolvedZone: nil, snoozedOccurrence: max(occurrence, 1),
        in: db)
      var detail = HistoryEvent.detail(of: copy)
      detail["seconds"] = .int(Int64(seconds))
      detail["until"] = .string(RFC3339.string(from: fireDate))
      try HistoryWriter.insert(
        HistoryEvent(
          at: now, app: copy.app, notificationID: copy.id, kind: .snoozed,
          reason: NotificationAction.snooze(seconds: seconds).key, occurrence: occurrence, fireDate: fireDate,
          detail: detail),
        in: db)
      let stored = StoredNotification(
        rowID: rowID, notification: copy, nextOccurrence: 0, nextFireDate: fireDate,
        snoozedOccurrence: occurrence)
      let discarded = try Self.enforceLimit(app: copy.app, at: now, in: db)
      return ScheduleOutcome(stored: stored, discarded: discarded, replaced: false)
    }
  }
}

import Foundation
import NotifyCore

extension AlarmInstant {
  /// The object `notify calendar preview --json` prints for it: `uid`, `recurrenceId`
  /// (null, RFC 3339 UTC, or `YYYY-MM-DD` for an all-day item), `fireDate` (RFC 3339 UTC),
  /// `action`, `summary`, then `kind`, `start`, `repetition`, `sound`, `file`, `line` and
  /// the notification `id` it is scheduled under in calendar `calendar`.
  public func json(file: String, calendar: String) -> JSONRecord {
    var record = JSONRecord(capacity: 12)
    record.set("uid", uid)
    record.set("recurrenceId", recurrenceID)
    record.set("fireDate", RFC3339.string(from: fireDate))
    record.set("action", action.name)
    record.set("summary", summary)
    record.set("kind", kind == .event ? "event" : "todo")
    record.set("start", occurrenceStart.map { RFC3339.string(from: $0) })
    record.set("allDay", isAllDay)
    record.set("repetition", repetition)
    record.set("sound", sound)
    record.set("file", file)
    record.set("line", alarmLine)
    record.set("id", AlarmIdentity.id(calendar: calendar, instant: self))
    return record
  }
}

import Foundation

/// One instant an alarm goes off: an occurrence of an event or to-do, one of its alarms,
/// and (for an alarm with REPEAT) which repetition.
public struct AlarmInstant: Hashable, Sendable {
  /// The item's UID.
  public var uid: String
  /// VEVENT or VTODO.
  public var kind: CalendarItem.Kind
  /// The occurrence's RECURRENCE-ID, for an item that repeats or an override of one:
  /// its original start as RFC 3339 UTC, or `YYYY-MM-DD` for an all-day item. Nil for an
  /// item that does not repeat (and for an absolute alarm of a repeating one, which goes
  /// off once).
  public var recurrenceID: String?
  /// When the occurrence starts (nil for a to-do with neither DTSTART nor DUE).
  public var occurrenceStart: Date?
  /// Whether the occurrence is a whole day (DTSTART is a DATE).
  public var isAllDay: Bool
  /// When the alarm goes off.
  public var fireDate: Date
  /// DISPLAY or AUDIO.
  public var action: CalendarAlarm.Action
  /// The item's SUMMARY (the notification's title).
  public var summary: String?
  /// The item's DESCRIPTION, else the alarm's own (the notification's body).
  public var body: String?
  /// An AUDIO alarm's ATTACH.
  public var sound: String?
  /// Which alarm of the item (`CalendarAlarm.key`).
  public var alarmKey: String
  /// 0 for the alarm itself, k for its k-th REPEAT.
  public var repetition: Int
  /// The alarm's REPEAT and DURATION (in seconds), which notify keeps as re-alerts.
  public var repeatCount: Int
  /// Seconds between repetitions (DURATION), 0 without REPEAT.
  public var repeatSeconds: Int
  /// The lines of the item and of the alarm, for messages.
  public var itemLine: Int
  public var alarmLine: Int

  /// Creates an instant.
  public init(
    uid: String, kind: CalendarItem.Kind, recurrenceID: String?, occurrenceStart: Date?, isAllDay: Bool,
    fireDate: Date, action: CalendarAlarm.Action, summary: String?, body: String?, sound: String?,
    alarmKey: String, repetition: Int = 0, repeatCount: Int = 0, repeatSeconds: Int = 0, itemLine: Int = 0,
    alarmLine: Int = 0
  ) {
    self.uid = uid
    self.kind = kind
    self.recurrenceID = recurrenceID
    self.occurrenceStart = occurrenceStart
    self.isAllDay = isAllDay
    self.fireDate = fireDate
    self.action = action
    self.summary = summary
    self.body = body
    self.sound = sound
    self.alarmKey = alarmKey
    self.repetition = repetition
    self.repeatCount = repeatCount
    self.repeatSeconds = repeatSeconds
    self.itemLine = itemLine
    self.alarmLine = alarmLine
  }

  /// Soonest first; ties by UID, occurrence, alarm and repetition, so the order is the
  /// same on every run.
  public static func soonestFirst(_ a: AlarmInstant, _ b: AlarmInstant) -> Bool {
    if a.fireDate != b.fireDate { return a.fireDate < b.fireDate }
    if a.uid != b.uid { return a.uid < b.uid }
    if a.recurrenceID != b.recurrenceID { return (a.recurrenceID ?? "") < (b.recurrenceID ?? "") }
    if a.alarmKey != b.alarmKey { return a.alarmKey < b.alarmKey }
    return a.repetition < b.repetition
  }
}

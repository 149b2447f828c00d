import Foundation
import NotifyCalendar
import NotifyCalendarSync

/// One alarm instant of a calendar file, as `previewCalendar(paths:from:to:name:)` lists it:
/// the fields of `notify calendar preview --json`.
public struct CalendarAlarmInstant: Hashable, Sendable {
  /// What the alarm does.
  public enum Action: String, Hashable, Sendable {
    /// `DISPLAY`: shown.
    case display = "DISPLAY"
    /// `AUDIO`: shown with its sound.
    case audio = "AUDIO"
  }

  /// What the alarm belongs to.
  public enum Kind: String, Hashable, Sendable {
    /// A VEVENT.
    case event
    /// A VTODO.
    case todo
  }

  /// The item's UID.
  public var uid: String
  /// The occurrence's RECURRENCE-ID (its original start as RFC 3339 UTC, `YYYY-MM-DD` for
  /// an all-day item), or nil for an item that does not repeat.
  public var recurrenceID: String?
  /// When it goes off.
  public var fireDate: Date
  /// DISPLAY or AUDIO.
  public var action: Action
  /// The item's SUMMARY, or nil.
  public var summary: String?
  /// Event or to-do.
  public var kind: Kind
  /// When the occurrence starts (a to-do without DTSTART: its DUE), or nil.
  public var start: Date?
  /// Whether the item's DTSTART is a date.
  public var isAllDay: Bool
  /// 0, or k for REPEAT's k-th repetition.
  public var repetition: Int
  /// An AUDIO alarm's ATTACH, or nil.
  public var sound: String?
  /// The file it is in.
  public var file: String
  /// The line of its `BEGIN:VALARM`.
  public var line: Int
  /// The id it is scheduled under in a calendar of the preview's name.
  public var notificationID: String

  init(_ found: CalendarPreview.Found, calendar: String) {
    let instant = found.instant
    uid = instant.uid
    recurrenceID = instant.recurrenceID
    fireDate = instant.fireDate
    action = instant.action == .audio ? .audio : .display
    summary = instant.summary
    kind = instant.kind == .event ? .event : .todo
    start = instant.occurrenceStart
    isAllDay = instant.isAllDay
    repetition = instant.repetition
    sound = instant.sound
    file = found.file
    line = instant.alarmLine
    notificationID = AlarmIdentity.id(calendar: calendar, instant: instant)
  }
}

/// What `previewCalendar(paths:from:to:name:)` found.
public struct CalendarPreviewResult: Hashable, Sendable {
  /// The alarm instants in the window, soonest first.
  public var alarms: [CalendarAlarmInstant]
  /// What was skipped in the files, each naming the file, line and property.
  public var warnings: [String]
}

/// What `importCalendar(file:)` did.
public struct CalendarImportResult: Hashable, Sendable {
  /// The ids of the notifications scheduled, soonest first; empty when the file has no
  /// alarm from now on.
  public var importedIDs: [String]
  /// When later alarms were left out (the app keeps at most 64 pending, and an import
  /// leaves 8 free): the instant of the last one imported. A watched calendar
  /// (`addCalendar`) follows them all.
  public var leftOutAfter: Date?
  /// Ids the 64-pending limit discarded as they were stored (normally none).
  public var discardedIDs: [String]
  /// What was skipped in the file, each naming the line and property.
  public var warnings: [String]
}

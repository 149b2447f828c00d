import Foundation
import NotifyCalendarSync

/// A calendar on disk whose alarms notify shows as an app's notifications
/// (`LocalNotificationCenter.addCalendar(atPath:name:writesBack:)`, `notify calendar list`).
public struct WatchedCalendar: Hashable, Sendable {
  /// Its name, unique in the store (`[A-Za-z0-9._-]{1,128}`).
  public var name: String
  /// The vdir folder or `.ics` file it watches, absolute.
  public var path: String
  /// The app its alarms are notifications of.
  public var app: String
  /// Whether acknowledgements are written back into its files (RFC 9074 `ACKNOWLEDGED`).
  public var writesBack: Bool
  /// How many `.ics` files its path has now.
  public var fileCount: Int
  /// How many of its alarms are pending (the nearest ones: a rolling window).
  public var pendingAlarmCount: Int
  /// When its soonest pending alarm goes off, or nil.
  public var nextAlarmDate: Date?
  /// When it was added; alarms before this are never shown.
  public var addedAt: Date

  init(_ entry: CalendarCatalog.Entry) {
    name = entry.record.name
    path = entry.record.path
    app = entry.record.app
    writesBack = entry.record.writeBack
    fileCount = entry.files
    pendingAlarmCount = entry.pending
    nextAlarmDate = entry.next
    addedAt = entry.record.addedAt
  }
}

/// What `addCalendar(atPath:name:writesBack:)` did: the calendar as added, and what was
/// skipped in its files.
public struct CalendarAddResult: Hashable, Sendable {
  /// The calendar, with the alarms it has pending now.
  public var calendar: WatchedCalendar
  /// What was skipped in its files, each naming the file, line and property
  /// (`work/x.ics:14: VALARM: skipped: ACTION:EMAIL …`).
  public var warnings: [String]
}

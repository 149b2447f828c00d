import Foundation

/// A VEVENT or VTODO with what notify needs of it to find its alarms.
public struct CalendarItem: Hashable, Sendable {
  /// Which component it is.
  public enum Kind: String, Hashable, Sendable {
    case event = "VEVENT"
    case todo = "VTODO"
  }

  /// VEVENT or VTODO.
  public var kind: Kind
  /// UID.
  public var uid: String
  /// RECURRENCE-ID: set on an override of one occurrence of a recurring item.
  public var recurrenceID: CalendarDateTime?
  /// `RANGE=THISANDFUTURE` on RECURRENCE-ID: the override applies to that occurrence and
  /// every later one.
  public var thisAndFuture: Bool
  /// DTSTART.
  public var start: CalendarDateTime?
  /// DTEND (events).
  public var end: CalendarDateTime?
  /// DUE (to-dos).
  public var due: CalendarDateTime?
  /// DURATION.
  public var duration: CalendarDuration?
  /// The RRULE values with their lines (RFC 5545 deprecates more than one; they are a union).
  public var rules: [(text: String, line: Int)]
  /// SEQUENCE: of two versions of one item, the higher wins.
  public var sequence: Int
  /// RDATE values (a PERIOD's start, with its end when given).
  public var recurrenceDates: [(start: CalendarDateTime, end: CalendarDateTime?)]
  /// EXDATE values.
  public var exceptionDates: [CalendarDateTime]
  /// STATUS:CANCELLED.
  public var isCancelled: Bool
  /// SUMMARY, unescaped.
  public var summary: String?
  /// DESCRIPTION, unescaped.
  public var description: String?
  /// Its alarms.
  public var alarms: [CalendarAlarm]
  /// Thunderbird's X-MOZ-LASTACK: alarm instants at or before it were dismissed.
  public var lastAcknowledged: Date?
  /// Thunderbird's X-MOZ-SNOOZE-TIME (key "") and X-MOZ-SNOOZE-TIME-<microseconds> (key:
  /// the occurrence's start in microseconds since 1970): the alarm comes back then instead.
  public var snoozedUntil: [String: Date]
  /// The line of its BEGIN.
  public var line: Int
  /// Its bytes in the file.
  public var byteRange: Range<Int>

  /// Creates an item.
  public init(kind: Kind, uid: String, line: Int = 0, byteRange: Range<Int> = 0..<0) {
    self.kind = kind
    self.uid = uid
    self.line = line
    self.byteRange = byteRange
    recurrenceID = nil
    thisAndFuture = false
    rules = []
    sequence = 0
    recurrenceDates = []
    exceptionDates = []
    isCancelled = false
    alarms = []
    snoozedUntil = [:]
  }

  public static func == (a: CalendarItem, b: CalendarItem) -> Bool {
    a.kind == b.kind && a.uid == b.uid && a.recurrenceID == b.recurrenceID && a.line == b.line
      && a.byteRange == b.byteRange && a.alarms == b.alarms && a.start == b.start
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(uid)
    hasher.combine(line)
  }

  /// Whether it repeats (RRULE or RDATE).
  public var isRecurring: Bool { !rules.isEmpty || !recurrenceDates.isEmpty }
}

import Foundation

/// A VALARM (RFC 5545 §3.6.6) as notify reads it.
public struct CalendarAlarm: Hashable, Sendable {
  /// What the alarm does.
  public enum Action: Hashable, Sendable {
    /// `DISPLAY`: shown.
    case display
    /// `AUDIO`: its sound played (`attachment`), shown with the item's summary.
    case audio
    /// Anything else (`EMAIL`, `PROCEDURE`, an X- action): skipped, with a warning.
    case other(String)

    /// `DISPLAY`, `AUDIO`, or the action as written.
    public var name: String {
      switch self {
      case .display: "DISPLAY"
      case .audio: "AUDIO"
      case .other(let name): name
      }
    }
  }

  /// When the alarm goes off.
  public enum Trigger: Hashable, Sendable {
    /// An offset from the item's start (`RELATED=START`, the default) or end (`RELATED=END`;
    /// a to-do's end is its DUE).
    case relative(CalendarDuration, toEnd: Bool)
    /// A date and time (`TRIGGER;VALUE=DATE-TIME:...Z`; RFC 5545 wants UTC, a zone or a
    /// floating time is read as DTSTART's would be).
    case absolute(CalendarDateTime)
  }

  /// The action.
  public var action: Action
  /// The trigger.
  public var trigger: Trigger
  /// REPEAT: how many more times it goes off after the first (0: once).
  public var repeatCount: Int
  /// DURATION: the time between those repeats.
  public var repeatInterval: CalendarDuration?
  /// The ATTACH of an AUDIO alarm (a URI or a name), nil when none.
  public var attachment: String?
  /// The alarm's own DESCRIPTION.
  public var description: String?
  /// The alarm's own UID (RFC 9074), which identifies it across edits.
  public var uid: String?
  /// ACKNOWLEDGED (RFC 9074): alarm instants at or before it were dealt with.
  public var acknowledged: Date?
  /// RELATED-TO of an RFC 9074 snooze alarm: the UID of the alarm it snoozes.
  public var snoozes: String?
  /// The line of its `BEGIN:VALARM`.
  public var line: Int
  /// Its bytes in the file (write-back adds ACKNOWLEDGED inside them).
  public var byteRange: Range<Int>

  /// Creates an alarm.
  public init(
    action: Action, trigger: Trigger, repeatCount: Int = 0, repeatInterval: CalendarDuration? = nil,
    attachment: String? = nil, description: String? = nil, uid: String? = nil, acknowledged: Date? = nil,
    snoozes: String? = nil, line: Int = 0, byteRange: Range<Int> = 0..<0
  ) {
    self.action = action
    self.trigger = trigger
    self.repeatCount = repeatCount
    self.repeatInterval = repeatInterval
    self.attachment = attachment
    self.description = description
    self.uid = uid
    self.acknowledged = acknowledged
    self.snoozes = snoozes
    self.line = line
    self.byteRange = byteRange
    key = baseKey
  }

  /// What identifies the alarm within its item across rescans: its UID when it has one,
  /// else what it does and when; the second of two alike in these gets `#2`, and so on
  /// (`ItemReader`). ACKNOWLEDGED is not part of it: writing one back keeps the id.
  public var key: String = ""

  /// The key from the alarm's own properties, before `#n` tells alike ones apart.
  var baseKey: String {
    if let uid, !uid.isEmpty { return "uid:" + uid }
    let when: String
    switch trigger {
    case .relative(let duration, let toEnd): when = (toEnd ? "end" : "start") + duration.text
    case .absolute(let time): when = "at" + time.text + (time.reference.zoneName.map { "@" + $0 } ?? "")
    }
    return "\(action.name)/\(when)/\(repeatCount)/\(repeatInterval?.text ?? "")"
  }
}

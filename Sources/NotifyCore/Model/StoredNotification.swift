import Foundation

/// A notification as the store holds it: the value plus its firing position.
public struct StoredNotification: Hashable, Sendable {
  /// The store's row id; also the scheduling sequence (earlier rows win limit ties).
  public var rowID: Int64
  /// The notification.
  public var notification: LocalNotification
  /// 0-based index of the next occurrence to deliver.
  public var nextOccurrence: Int
  /// The instant of that occurrence, or nil when none is left (the row is finishing).
  public var nextFireDate: Date?
  /// For a snoozed copy: the occurrence (1-based) of the notification the user snoozed.
  /// The copy fires once, beside the original, which keeps its own schedule.
  public var snoozedOccurrence: Int?

  /// For a re-alert copy (`Realert`): which re-alert it is (1 for the first); its
  /// `snoozedOccurrence` is the occurrence it re-alerts. Nil for anything else.
  public var realertNumber: Int? {
    guard snoozedOccurrence != nil, let number = notification.realert?.number, number > 0 else { return nil }
    return number
  }

  public init(
    rowID: Int64, notification: LocalNotification, nextOccurrence: Int, nextFireDate: Date?,
    snoozedOccurrence: Int? = nil
  ) {
    self.rowID = rowID
    self.notification = notification
    self.nextOccurrence = nextOccurrence
    self.nextFireDate = nextFireDate
    self.snoozedOccurrence = snoozedOccurrence
  }
}

/// What `schedule` did: the stored notification and what the 64 limit discarded.
public struct ScheduleOutcome: Sendable {
  /// The notification as stored (or as it would have been, when it was itself discarded).
  public var stored: StoredNotification
  /// Notifications of the app discarded by the pending limit, soonest first; may include
  /// the new one.
  public var discarded: [StoredNotification]
  /// True when the new notification replaced a pending one with the same id.
  public var replaced: Bool

  public init(stored: StoredNotification, discarded: [StoredNotification], replaced: Bool) {
    self.stored = stored
    self.discarded = discarded
    self.replaced = replaced
  }

  /// True when the limit discarded the new notification itself.
  public var newOneDiscarded: Bool { discarded.contains { $0.rowID == stored.rowID } }
}

import Foundation

/// One line of history (SPEC.md §5 `notify history`).
public struct HistoryEvent: Hashable, Sendable {
  /// What happened.
  public enum Kind: String, CaseIterable, Sendable {
    case delivered, discarded, cancelled, missed, failed, activated, dismissed, held, snoozed
  }

  /// Store sequence number; higher is newer. 0 before it is stored.
  public var sequence: Int64
  /// When it happened.
  public var at: Date
  /// The app.
  public var app: String
  /// The notification id.
  public var notificationID: String
  /// What happened.
  public var kind: Kind
  /// Why (`pending-limit`, a failure reason, an action key, a close reason).
  public var reason: String?
  /// 1-based occurrence, for delivered / missed / failed.
  public var occurrence: Int?
  /// The occurrence's due instant.
  public var fireDate: Date?
  /// Whether the delivery was late.
  public var late: Bool?
  /// The sound asked for, when it was substituted.
  public var soundRequested: String?
  /// Why the sound was substituted.
  public var soundNote: String?
  /// Title, userInfo and other fields worth keeping with the event.
  public var detail: [String: JSONValue]
  /// The process whose store connection recorded it (nil for rows written before writers
  /// were kept): who showed a bubble and heard its click.
  public var recordedBy: Int32?

  public init(
    sequence: Int64 = 0, at: Date, app: String, notificationID: String, kind: Kind,
    reason: String? = nil, occurrence: Int? = nil, fireDate: Date? = nil, late: Bool? = nil,
    soundRequested: String? = nil, soundNote: String? = nil, detail: [String: JSONValue] = [:]
  ) {
    self.sequence = sequence
    self.at = at
    self.app = app
    self.notificationID = notificationID
    self.kind = kind
    self.reason = reason
    self.occurrence = occurrence
    self.fireDate = fireDate
    self.late = late
    self.soundRequested = soundRequested
    self.soundNote = soundNote
    self.detail = detail
  }

  /// Fields of a notification worth keeping with its events. The body and userInfo are
  /// kept: history is the user's own, in the user's own 0600 store; logs never carry them.
  public static func detail(of n: LocalNotification) -> [String: JSONValue] {
    var detail: [String: JSONValue] = ["userInfo": .object(n.userInfo)]
    if let title = n.title { detail["title"] = .string(title) }
    if let subtitle = n.subtitle { detail["subtitle"] = .string(subtitle) }
    if let body = n.body { detail["body"] = .string(body) }
    if n.bodyMarkup { detail["bodyMarkup"] = .bool(true) }
    if n.interruptionLevel != .active {
      detail["interruptionLevel"] = .string(n.interruptionLevel.rawValue)
    }
    if let thread = n.threadIdentifier { detail["threadIdentifier"] = .string(thread) }
    if !n.attachments.isEmpty { detail["attachments"] = NotificationAttachment.jsonArray(n.attachments) }
    if let launchImage = n.launchImage { detail["launchImage"] = .string(launchImage) }
    if !n.actions.isEmpty { detail["actions"] = NotificationAction.jsonArray(n.actions) }
    if let category = n.categoryIdentifier { detail["categoryIdentifier"] = .string(category) }
    // Which re-alert of an alarm this is (1, 2, ...); nothing for the notification itself.
    if let number = n.realert?.number, number > 0 { detail["realert"] = .int(Int64(number)) }
    return detail
  }

  /// The detail of a delivery: the notification's, and the kinds the user's settings
  /// suppressed (`suppressed`: `alerts`, `sounds`, `badges`), when any.
  public static func detail(of delivery: Delivery) -> [String: JSONValue] {
    var detail = detail(of: delivery.notification)
    if !delivery.suppressed.isEmpty {
      detail["suppressed"] = .array(delivery.suppressed.kindNames.map { .string($0) })
    }
    if let note = delivery.note { detail["note"] = .string(note) }
    if let note = delivery.categoryNote { detail["categoryNote"] = .string(note) }
    if let wake = delivery.wake { detail["wake"] = .string(wake) }
    return detail
  }

  /// What the user (or the server) did with a shown notification: `activated` with the
  /// action key, or `dismissed` with the close reason. The same entry whoever showed it
  /// and whoever heard of it (the daemon, an app, the app's own UI).
  public static func interaction(
    _ kind: Kind, reason: String?, app: String, id: String, occurrence: Int?,
    userInfo: [String: JSONValue], at date: Date
  ) -> HistoryEvent {
    HistoryEvent(
      at: date, app: app, notificationID: id, kind: kind, reason: reason, occurrence: occurrence,
      detail: ["userInfo": .object(userInfo)])
  }
}

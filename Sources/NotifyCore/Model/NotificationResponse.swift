import Foundation

/// The user's answer to a shown notification: which action they chose on which
/// notification (`UNNotificationResponse`; on iOS 7 the notification in `launchOptions` or
/// `didReceiveLocalNotification:`). An app launched by a click reads it once from the
/// store (`LocalNotificationCenter.events`, first, `origin` `.launch`; `notify launch-response`).
public struct NotificationResponse: Hashable, Sendable {
  /// The notification as it was shown: id, app, title, body, action, launch image,
  /// userInfo, sound, badge, urgency.
  public var notification: LocalNotification
  /// The action the user chose: `default` for the notification itself.
  public var actionKey: String
  /// Which occurrence was shown (1-based), when known.
  public var occurrence: Int?
  /// The notification server's activation token (spec 1.2 `ActivationToken`), which lets
  /// the launched app's window take focus; nil when the server sent none.
  public var activationToken: String?
  /// When the user answered.
  public var date: Date
  /// What the user typed into a text-input action's reply field
  /// (`UNTextInputNotificationResponse.userText`); nil for other actions, and for a
  /// text-input action on a server without inline reply (the app asks for the text).
  public var userText: String?

  /// Creates a response.
  public init(
    notification: LocalNotification, actionKey: String, occurrence: Int?, activationToken: String?,
    date: Date,
    userText: String? = nil
  ) {
    self.notification = notification
    self.actionKey = actionKey
    self.occurrence = occurrence
    self.activationToken = activationToken
    self.date = date
    self.userText = userText
  }

  /// The action the user chose, nil for `default` (the notification itself) and keys the
  /// notification does not have.
  public var action: NotificationAction? { notification.action(forKey: actionKey) }

  /// The notification's `userInfo`.
  public var userInfo: [String: JSONValue] { notification.userInfo }

  /// How long a response waits for the app it launched: an app started by hand later
  /// than this was not launched by the click.
  public static let launchWindow: TimeInterval = 600

  /// The JSON `notify launch-response` prints: the action, the token, when, and the
  /// notification's fields (as in `notify show --json`, without its schedule).
  public var jsonRecord: JSONRecord {
    var r = JSONRecord(capacity: 16)
    let n = notification
    r.set("actionKey", actionKey)
    r.set("userText", userText)
    r.set("activationToken", activationToken)
    r.set("at", RFC3339.string(from: date, milliseconds: true))
    r.set("occurrence", occurrence)
    r.set("id", n.id)
    r.set("app", n.app)
    r.set("title", n.title)
    r.set("body", n.body)
    r.set("action", n.action)
    r.set("launchImage", n.launchImage)
    r.set("sound", n.sound.name)
    r.set("badge", n.badge)
    r.set("userInfo", .object(n.userInfo))
    r.set("urgency", n.urgency.rawValue)
    r.set("actions", NotificationAction.jsonArray(n.actions))
    r.set("categoryIdentifier", n.categoryIdentifier)
    return r
  }
}

import Foundation

/// A named set of buttons an app registers once (`UNNotificationCategory`); a notification
/// names it (`LocalNotification.categoryIdentifier`) instead of carrying the buttons itself.
/// The buttons are looked up when the notification is delivered, so changing a category
/// changes the deliveries after the change, not the bubbles already shown.
///
/// ```swift
/// let message = NotificationCategory(
///   identifier: "message",
///   actions: [.textInput(key: "reply", title: "Reply"), .button(key: "mark-read", title: "Mark read")])
/// ```
public struct NotificationCategory: Hashable, Sendable {
  /// The name notifications give (`categoryIdentifier`): `[A-Za-z0-9._:-]{1,64}`, as action keys.
  public var identifier: String
  /// The buttons, in the order shown, with the rules of a notification's own
  /// (`Validator.actions`: at most `NotificationAction.maximumCount`).
  public var actions: [NotificationAction]

  /// Creates a category; `Validator.category` checks it.
  public init(identifier: String, actions: [NotificationAction] = []) {
    self.identifier = identifier
    self.actions = actions
  }

  /// The most categories one app may register: far more than any app names, few enough
  /// that reading them all at each claim stays cheap.
  public static let maximumCount = 64
  /// The longest identifier, in bytes.
  public static let maximumIdentifier = 64
}

extension NotificationCategory {
  /// The JSON form of `notify category list --json` and the D-Bus `GetCategories`:
  /// `identifier` and `actions` (the notification's `"actions"` shape).
  public var jsonRecord: JSONRecord {
    var r = JSONRecord(capacity: 2)
    r.set("identifier", identifier)
    r.set("actions", NotificationAction.jsonArray(actions))
    return r
  }
}

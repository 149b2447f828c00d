import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// A notification to add to a center (`UNNotificationRequest`): what it shows, when it
/// fires, and the id that names it for replacing, cancelling and withdrawing it.
///
/// ```swift
/// let request = NotificationRequest(
///   identifier: "standup", content: NotificationContent(title: "Standup", userInfo: ["room": "4B"]),
///   trigger: .after(.seconds(600)))
/// try await center.add(request)
/// ```
public struct NotificationRequest: Hashable, Sendable {
  /// The id: a pending notification of the app with the same id is replaced.
  public var identifier: String
  /// What it shows and carries.
  public var content: NotificationContent
  /// When it fires; nil presents it at once.
  public var trigger: NotificationTrigger?

  /// Creates a request; without `identifier`, a random one such as `n-3f9c0a12b7d4`.
  public init(identifier: String? = nil, content: NotificationContent, trigger: NotificationTrigger?) {
    self.identifier = identifier ?? RequestCodec.generateID()
    self.content = content
    self.trigger = trigger
  }

  /// The request a pending notification stands for (`pendingNotificationRequests()`): its
  /// id, its content, and its schedule as a trigger.
  init(_ stored: StoredNotification) {
    let notification = stored.notification
    self.init(
      identifier: notification.id, content: notification.content,
      trigger: NotificationTrigger(notification.schedule))
  }
}

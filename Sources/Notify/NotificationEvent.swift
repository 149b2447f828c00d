import Foundation
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// Something that happened to a notification of the app: it was delivered, the user
/// activated it, or it was dismissed. Read them from `LocalNotificationCenter.events`.
public struct NotificationEvent: Hashable, Sendable {
  /// What happened.
  public enum Kind: Hashable, Sendable {
    /// It was handed to the sink (presented now, or fired on time by this process).
    case delivered
    /// The user invoked an action; `actionKey` is `default` for the default action.
    case activated(actionKey: String)
    /// The user or the server closed it; `reason` is the server's close reason, if known.
    case dismissed(reason: String?)
  }

  /// What happened.
  public var kind: Kind
  /// The notification it happened to.
  public var notification: LocalNotification
  /// When it happened.
  public var date: Date
  /// The delivery, for `.delivered` events.
  public var delivery: Delivery?
  /// For `.activated` by a text-input action: what the user typed into the reply field
  /// (`UNTextInputNotificationResponse.userText`); nil when the server had no reply field
  /// (ask the user yourself).
  public var userText: String?
  /// Where an answer comes from: live, or kept in the store while no process of the app
  /// listened (`LocalNotificationCenter.events`).
  public var origin: Origin = .live
  /// The notification server's activation token for a click that launched the app, which
  /// lets its window take focus; nil when the server sent none.
  public var activationToken: String?
  /// Which occurrence was shown (1-based), for kept answers when known.
  public var occurrence: Int?

  /// Where an event comes from.
  public enum Origin: Hashable, Sendable {
    /// It happened while this process listened.
    case live
    /// The click that launched this process (`takeLaunchResponse`).
    case launch
    /// An answer given while no process of the app ran, kept in the store.
    case waited
  }

  /// Creates an event.
  public init(
    kind: Kind, notification: LocalNotification, date: Date, delivery: Delivery? = nil,
    userText: String? = nil
  ) {
    self.kind = kind
    self.notification = notification
    self.date = date
    self.delivery = delivery
    self.userText = userText
  }

  /// The action the user picked, for `.activated` events with a key the notification has.
  public var action: NotificationAction? {
    if case .activated(let key) = kind { return notification.action(forKey: key) }
    return nil
  }

  /// The notification's `userInfo`.
  public var userInfo: [String: JSONValue] { notification.userInfo }
}

extension NotificationEvent {
  /// The `.activated` event for a response kept in the store.
  init(_ response: NotificationResponse, origin: Origin) {
    self.init(
      kind: .activated(actionKey: response.actionKey), notification: response.notification,
      date: response.date,
      userText: response.userText)
    self.origin = origin
    self.activationToken = response.activationToken
    self.occurrence = response.occurrence
  }
}

extension NotificationEvent.Kind {
  /// The event for a history entry of `kind` with `reason`; nil for kinds apps do not hear
  /// of (cancelled, discarded, missed, failed).
  init?(_ kind: HistoryEvent.Kind, reason: String?) {
    switch kind {
    case .delivered: self = .delivered
    case .activated: self = .activated(actionKey: reason ?? "default")
    case .dismissed: self = .dismissed(reason: reason)
    default: return nil
    }
  }

  /// The history entry's kind and reason for this event.
  var history: (kind: HistoryEvent.Kind, reason: String?) {
    switch self {
    case .delivered: (.delivered, nil)
    case .activated(let key): (.activated, key)
    case .dismissed(let why): (.dismissed, why)
    }
  }
}

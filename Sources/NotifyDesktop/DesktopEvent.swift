import Foundation
import NotifyCore

/// What the user (or the server) did with a notification the desktop sink showed:
/// `ActionInvoked` and `NotificationClosed` from org.freedesktop.Notifications, tied back
/// to the notification they belong to.
public struct DesktopEvent: Hashable, Sendable {
  /// Activated or dismissed.
  public enum Kind: Hashable, Sendable {
    /// The user invoked an action; `actionKey` is `default` for the notification's action.
    case activated(actionKey: String)
    /// The notification went away, for `reason`.
    case dismissed(DismissReason)
  }

  /// Activated or dismissed.
  public var kind: Kind
  /// The notification's app.
  public var app: String
  /// The notification's id.
  public var id: String
  /// Which occurrence of the notification was shown (1-based).
  public var occurrence: Int
  /// The notification's userInfo, handed back to the app.
  public var userInfo: [String: JSONValue]
  /// The notification's launch image, passed through to the app on activation.
  public var launchImage: String?
  /// The id the notification server gave the bubble.
  public var serverID: UInt32
  /// The notification as it was shown.
  public var notification: LocalNotification?
  /// The activation token the server sent just before an activation (`ActivationToken`,
  /// spec 1.2), for the launched app's window to take focus.
  public var activationToken: String?
  /// The text typed into a reply field (KDE's `NotificationReplied`), for a text-input
  /// action.
  public var userText: String?

  /// Creates an event.
  public init(
    kind: Kind, app: String, id: String, occurrence: Int, userInfo: [String: JSONValue],
    launchImage: String?, serverID: UInt32, notification: LocalNotification? = nil,
    activationToken: String? = nil, userText: String? = nil
  ) {
    self.userText = userText
    self.notification = notification
    self.activationToken = activationToken
    self.kind = kind
    self.app = app
    self.id = id
    self.occurrence = occurrence
    self.userInfo = userInfo
    self.launchImage = launchImage
    self.serverID = serverID
  }
}

extension DesktopEvent {
  /// The notification as it was shown; for an event made without it, one rebuilt from
  /// what the event carries (id, app, launch image, userInfo, occurrence), dated `date`.
  public func shownNotification(at date: Date) -> LocalNotification {
    notification
      ?? LocalNotification(
        id: id, app: app, schedule: Schedule(fireDate: .instant(date)), launchImage: launchImage,
        userInfo: userInfo, deliveredCount: occurrence, createdAt: date)
  }
}

/// Why a notification was closed: the `reason` of `NotificationClosed`.
public enum DismissReason: UInt32, Hashable, Sendable {
  /// It timed out.
  case expired = 1
  /// The user dismissed it.
  case dismissedByUser = 2
  /// A `CloseNotification` call closed it.
  case closedByCall = 3
  /// The server gave no reason (also used for values outside the specification).
  case undefined = 4

  /// Maps a wire value, treating unknown ones as `.undefined`.
  public init(code: UInt32) {
    self = DismissReason(rawValue: code) ?? .undefined
  }

  /// The reason as history records it: `expired`, `dismissed-by-user`, `closed-by-call`,
  /// `undefined`.
  public var name: String {
    switch self {
    case .expired: "expired"
    case .dismissedByUser: "dismissed-by-user"
    case .closedByCall: "closed-by-call"
    case .undefined: "undefined"
    }
  }
}

/// A notification as the desktop sink knows it: the key of the server-id map used for
/// `replaces_id`.
public struct DesktopNotificationKey: Hashable, Sendable {
  /// The notification's app.
  public var app: String
  /// The notification's id.
  public var id: String

  /// Creates a key.
  public init(app: String, id: String) {
    self.app = app
    self.id = id
  }
}

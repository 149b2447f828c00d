import Notify

/// A chat message that deserves a notification: what was said, by whom, and why it
/// matters. The badge is not part of it: it is the unread count when it is shown.
struct ChatMessage: Hashable, Sendable {
  /// Why a message deserves a notification.
  enum Reason: String, Sendable {
    /// Sent to us alone.
    case privateMessage = "private"
    /// Said in the channel, naming us.
    case mention
  }

  /// The notification id: the same on every attempt, so that a retry replaces the bubble
  /// a sink may already show instead of adding a second one.
  var id: String
  /// Who sent it, cleaned by `NetworkText`.
  var sender: String
  /// What was said, cleaned by `NetworkText`.
  var text: String
  var reason: Reason
  /// The channel the client is in; for a private message, where to answer.
  var channel: String

  /// The notification: the sender as title, the text as body, the default sound, the
  /// badge given, and sender, channel and kind in userInfo. A private message has Reply (a
  /// reply field where the server has inline reply) and Mark read.
  func content(badge: Int) -> NotificationContent {
    NotificationContent(
      title: String((sender.isEmpty ? "?" : sender).prefix(Validator.maxTitle)),
      body: text.isEmpty ? nil : String(text.prefix(Validator.maxBody)),
      sound: .default, badge: min(max(badge, 0), Validator.maxBadge),
      userInfo: [
        "sender": .string(sender), "channel": .string(channel), "kind": .string(reason.rawValue),
      ],
      actions: reason == .privateMessage ? Self.privateActions(sender: sender) : [])
  }

  /// The key of the reply action.
  static let replyKey = "reply"
  /// The key of the mark-read action.
  static let markReadKey = "mark-read"

  static func privateActions(sender: String) -> [NotificationAction] {
    [
      .textInput(
        key: replyKey, title: "Reply", placeholder: String("Message to \(sender)".prefix(100)),
        buttonTitle: "Send"),
      .button(key: markReadKey, title: "Mark read"),
    ]
  }
}

import Notify
import NotifyCore

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
  /// For a mention, the channel it was said in; for a private message, the channel the
  /// client is in: where to answer.
  var channel: String

  /// The notification: the sender as title ("alice in #team" for a mention: which
  /// channel matters when the client is in several, or the bubble is read later), the text
  /// as body, the default sound, the badge given, and sender, channel and kind in
  /// userInfo. A private message has Reply (a reply field where the server has inline
  /// reply) and Mark read.
  func content(badge: Int) -> NotificationContent {
    NotificationContent(
      title: String(title.prefix(Validator.maxTitle)),
      body: text.isEmpty ? nil : String(text.prefix(Validator.maxBody)),
      sound: .default, badge: min(max(badge, 0), Validator.maxBadge),
      userInfo: [
        "sender": .string(sender), "channel": .string(channel), "kind": .string(reason.rawValue),
      ],
      actions: reason == .privateMessage ? Self.privateActions(sender: sender) : [],
      threadIdentifier: thread)
  }

  /// The conversation it belongs to: a private sender (`pm.alice`) or a channel
  /// (`channel.-23team`, `#` written as `-23`): a notification's thread takes only
  /// `[A-Za-z0-9._:-]`, so every other byte of the name is written as `-` and two hex digits.
  var thread: String {
    let (kind, name) = reason == .privateMessage ? ("pm.", sender) : ("channel.", channel)
    var text = kind
    for byte in name.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"):
        text.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = String(byte, radix: 16)
        text += "-" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return String(text.prefix(128))
  }

  /// The sender, and for a mention the channel: `alice in #team`.
  var title: String {
    let who = sender.isEmpty ? "?" : sender
    return reason == .mention ? "\(who) in \(channel)" : who
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

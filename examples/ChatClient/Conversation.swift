import Notify

/// Where a line typed without a command goes: the channel (at start), or a private
/// conversation with one nick (`/query NICK`, or opening a private message's notification).
///
/// ```swift
/// Conversation(opening: ["kind": .string("private"), "sender": .string("bob")])  // .privateChat(with: "bob")
/// Conversation.privateChat(with: "bob").target(channel: "#notify")  // "bob"
/// ```
enum Conversation: Hashable, Sendable {
  /// The channel the client joined.
  case channel
  /// A private conversation with `nick`.
  case privateChat(with: String)

  /// The conversation a notification of the client belongs to, by its userInfo: a private
  /// message's is the one with its `sender`; a mention's and a reminder's is the channel.
  /// Nil for a notification the client did not make (another kind, or no sender).
  init?(opening userInfo: [String: JSONValue]) {
    switch userInfo["kind"] {
    case .string(ChatMessage.Reason.privateMessage.rawValue):
      guard case .string(let sender)? = userInfo["sender"], !sender.isEmpty else { return nil }
      self = .privateChat(with: sender)
    case .string(ChatMessage.Reason.mention.rawValue), .string(Self.reminderKind):
      self = .channel
    default:
      return nil
    }
  }

  /// The `kind` in a reminder's userInfo.
  static let reminderKind = "reminder"

  /// Where a PRIVMSG for this conversation goes: the nick, or `channel`.
  func target(channel: String) -> String {
    switch self {
    case .channel: channel
    case .privateChat(let nick): nick
    }
  }
}

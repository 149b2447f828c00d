import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones
import Testing

/// `Conversation`: which conversation a clicked notification opens, and where typed lines go.
struct ConversationTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var userInfo: [String: JSONValue]
    var opens: Conversation?
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "a private message opens its sender",
      userInfo: ["kind": .string("private"), "sender": .string("bob"), "channel": .string("#notify")],
      opens: .privateChat(with: "bob")),
    Case(
      name: "a mention opens the channel",
      userInfo: ["kind": .string("mention"), "sender": .string("bob"), "channel": .string("#notify")],
      opens: .channel),
    Case(
      name: "a reminder opens the channel",
      userInfo: ["kind": .string("reminder"), "channel": .string("#notify")], opens: .channel),
    Case(
      name: "a private message without a sender opens nothing", userInfo: ["kind": .string("private")],
      opens: nil),
    Case(
      name: "a private message with an empty sender opens nothing",
      userInfo: ["kind": .string("private"), "sender": .string("")],
      opens: nil),
    Case(
      name: "another kind opens nothing", userInfo: ["kind": .string("digest"), "sender": .string("bob")],
      opens: nil),
    Case(name: "no kind opens nothing", userInfo: ["sender": .string("bob")], opens: nil),
    Case(
      name: "a kind that is not a string opens nothing",
      userInfo: ["kind": .int(1), "sender": .string("bob")], opens: nil),
  ]

  @Test(arguments: cases)
  func opening(_ example: Case) {
    #expect(Conversation(opening: example.userInfo) == example.opens)
  }

  @Test func linesGoToTheNickOrTheChannel() {
    #expect(Conversation.channel.target(channel: "#notify") == "#notify")
    #expect(Conversation.privateChat(with: "bob").target(channel: "#notify") == "bob")
  }
}

import Notify
import NotifyCore
import Testing

/// The chat client threads its notifications by conversation.
struct ChatMessageThreadTests {
  func message(_ sender: String, _ reason: ChatMessage.Reason, channel: String = "#team") -> ChatMessage {
    ChatMessage(id: "m", sender: sender, text: "hi", reason: reason, channel: channel)
  }

  @Test("a private message's thread is its sender, a mention's its channel; every thread is a valid id")
  func threads() throws {
    #expect(message("alice", .privateMessage).thread == "pm.alice")
    #expect(message("alice", .mention).thread == "channel.-23team")
    #expect(message("[bot]^", .privateMessage).thread == "pm.-5bbot-5d-5e")
    for sample in [message("x|y", .privateMessage), message("z", .mention, channel: "#dev-ops")] {
      try Validator.threadIdentifier(sample.thread)
      #expect(sample.content(badge: 1).threadIdentifier == sample.thread)
    }
    // Two senders whose names differ only where they are escaped keep apart
    #expect(message("a-b", .privateMessage).thread != message("a_b", .privateMessage).thread)
  }
}

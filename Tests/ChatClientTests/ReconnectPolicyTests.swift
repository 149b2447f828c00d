import Testing

/// The chat client's reconnect backoff (`ReconnectPolicy`) and a mention's title.
struct ReconnectPolicyTests {
  @Test("the delays double from the first up to the limit, and there are exactly `attempts` of them")
  func delays() {
    let policy = ReconnectPolicy.standard
    let delays = (1...9).map { policy.delay(beforeAttempt: $0) }
    #expect(
      delays == [
        .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(30), .seconds(30),
        .seconds(30), nil,
      ])
    #expect(policy.delay(beforeAttempt: 0) == nil)
  }

  @Test("no attempts: the client never reconnects")
  func never() {
    let policy = ReconnectPolicy(attempts: 0, firstDelay: .seconds(1), maximumDelay: .seconds(30))
    #expect(policy.delay(beforeAttempt: 1) == nil)
  }

  @Test("a first delay above the limit is kept to the limit")
  func firstAboveLimit() {
    let policy = ReconnectPolicy(attempts: 2, firstDelay: .seconds(45), maximumDelay: .seconds(30))
    #expect(policy.delay(beforeAttempt: 1) == .seconds(30))
    #expect(policy.delay(beforeAttempt: 2) == .seconds(30))
  }

  @Test("a mention's title names the sender and the channel; a private message's the sender")
  func titles() {
    let mention = ChatMessage(
      id: "m1", sender: "alice", text: "ada: lunch?", reason: .mention, channel: "#team")
    #expect(mention.content(badge: 1).title == "alice in #team")
    let privately = ChatMessage(
      id: "m2", sender: "alice", text: "psst", reason: .privateMessage, channel: "#team")
    #expect(privately.content(badge: 1).title == "alice")
  }
}

import Testing

/// `IRCName.mentions`: when a channel message names the client's nick.
struct IRCNameTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var text: String
    var nick = "ada"
    var mentions: Bool
    var testDescription: String { "\(mentions ? "mentions" : "does not mention") \(nick): \(text)" }
  }

  static let cases: [Case] = [
    Case(text: "ada: lunch?", mentions: true),
    Case(text: "hi @ada", mentions: true),
    Case(text: "ask [ada] about it", mentions: true),
    Case(text: "ask {ada} about it", mentions: true),
    Case(text: "(ada) said so", mentions: true),
    Case(text: "<ada> said so", mentions: true),
    Case(text: "that is ada's", mentions: true),
    Case(text: "ADA, look", mentions: true),
    Case(text: "[[ada]]", mentions: true),
    Case(text: "[ada", mentions: true),
    Case(text: "ada", mentions: true),
    Case(text: "adam is here", mentions: false),
    Case(text: "_ada is here", mentions: false),
    Case(text: "ada_ is here", mentions: false),
    Case(text: "ada- is here", mentions: false),
    Case(text: "ada|away is here", mentions: false),
    Case(text: "ada[m] is another nick", mentions: false),
    Case(text: "nada", mentions: false),
    Case(text: "", mentions: false),
    Case(text: "hi [ada]", nick: "[ada]", mentions: true),
    Case(text: "hi ada", nick: "[ada]", mentions: false),
    Case(text: "[ada]", nick: "ada]", mentions: true),
    // rfc1459: [ ] \ ~ are the upper case of { } | ^
    Case(text: "ADA{1}: ping", nick: "ada[1]", mentions: true),
    Case(text: "x\\y", nick: "X|Y", mentions: true),
  ]

  @Test(arguments: cases)
  func mention(_ example: Case) {
    // Given a channel line and our nick; when it is checked; then it is a mention or not
    #expect(IRCName.mentions(example.text, nick: example.nick) == example.mentions)
  }
}

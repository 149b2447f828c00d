import Testing

/// `NetworkText.plain`: what is left of text from the network before it is shown.
///
/// The client's pure parts (`NetworkText`, `IRCName`, `ChatMessage`, `MessageNumbering`,
/// `MessageOutbox`) are compiled into this test target through the symlinks in
/// `ClientSources/`: the test target does not depend on the `chat-client` executable
/// target, so they cannot be imported.
struct NetworkTextTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var input: String
    var shown: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "plain text stays", input: "Hello, world!", shown: "Hello, world!"),
    Case(name: "IRC colour with background", input: "\u{3}04,12red\u{3} text", shown: "red text"),
    Case(name: "IRC colour takes two digits at most", input: "\u{3}0312345", shown: "12345"),
    Case(name: "IRC colour and background take two digits each", input: "\u{3}03,04123", shown: "123"),
    Case(name: "IRC colour without digits keeps a comma", input: "\u{3},5", shown: ",5"),
    Case(name: "IRC bold, italic, underline, reset", input: "\u{2}b\u{1D}i\u{1F}u\u{F}r", shown: "biur"),
    Case(name: "IRC hex colour", input: "\u{4}FF0000,00FF00red\u{4} done", shown: "red done"),
    Case(name: "ANSI CSI colour", input: "\u{1B}[31mred\u{1B}[0m", shown: "red"),
    Case(name: "CSI with parameters and an intermediate", input: "\u{1B}[1;31;2 qx", shown: "x"),
    Case(name: "CSI that clears the screen", input: "\u{1B}[2J\u{1B}[Hhi", shown: "hi"),
    Case(name: "C1 CSI (0x9B)", input: "\u{9B}31mred", shown: "red"),
    Case(name: "unterminated CSI at the end", input: "hi\u{1B}[31", shown: "hi"),
    Case(name: "OSC ended by BEL", input: "\u{1B}]0;owned title\u{7}hi", shown: "hi"),
    Case(
      name: "OSC 8 hyperlink ended by ST",
      input: "\u{1B}]8;;http://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\",
      shown: "link"),
    Case(name: "C1 OSC ended by C1 ST", input: "\u{9D}0;title\u{9C}hi", shown: "hi"),
    Case(name: "DCS string", input: "\u{1B}Pq#0;2;0;0;0\u{1B}\\after", shown: "after"),
    Case(name: "unterminated OSC runs to the end", input: "hi\u{1B}]0;rest", shown: "hi"),
    Case(name: "two-character ESC c", input: "\u{1B}chi", shown: "hi"),
    Case(name: "ESC with an intermediate: ESC ( B", input: "\u{1B}(Bhi", shown: "hi"),
    Case(name: "lone ESC at the end", input: "hi\u{1B}", shown: "hi"),
    Case(name: "ESC before a non-final keeps that character", input: "a\u{1B}\u{1}b", shown: "ab"),
    Case(
      name: "literal [31m typed without ESC stays", input: "type [31m for red", shown: "type [31m for red"),
    Case(name: "C1 controls", input: "a\u{85}b\u{8D}c", shown: "abc"),
    Case(name: "right-to-left override", input: "file\u{202E}gpj.exe", shown: "filegpj.exe"),
    Case(
      name: "embeddings, isolates and marks",
      input: "\u{202A}a\u{202B}b\u{202C}c\u{202D}d\u{2066}e\u{2067}f\u{2068}g\u{2069}h",
      shown: "abcdefgh"),
    Case(name: "LRM, RLM and ALM", input: "x\u{200E}y\u{200F}z\u{61C}", shown: "xyz"),
    Case(name: "tab becomes a space", input: "a\tb", shown: "a b"),
    Case(name: "DEL and other C0 controls", input: "a\u{7F}b\u{7}c\u{0}d", shown: "abcd"),
    Case(name: "emoji with joiners stays", input: "hi 👩‍💻 🇫🇷", shown: "hi 👩‍💻 🇫🇷"),
    Case(name: "Arabic and Hebrew letters stay", input: "שלום مرحبا", shown: "שלום مرحبا"),
  ]

  @Test(arguments: cases)
  func textFromTheNetwork(_ example: Case) {
    // Given text as it came from the network
    // When it is made plain
    let shown = NetworkText.plain(example.input)
    // Then formatting, escape sequences, controls and bidi controls are gone, text stays
    #expect(shown == example.shown)
    #expect(!shown.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    #expect(!shown.unicodeScalars.contains(where: NetworkText.isBidiControl))
  }
}

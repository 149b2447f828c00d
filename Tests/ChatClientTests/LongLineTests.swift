import Foundation
import NotifyTestSupport
import Testing

/// Long text over IRC: a typed line, a `/msg` and an inline reply longer
/// than one IRC line are sent as several, split between characters, each within 512 bytes
/// as the server relays it; the client stays connected.
struct IRCLineSplitterTests {
  @Test("pieces fit the line with the relay prefix, split between characters, and give the text back")
  func piecesFit() {
    // Given text of letters, two-byte letters, four-byte emoji and spaces, seeded
    var random = SeededGenerator(seed: 25_008)
    let alphabet = ["a", "é", "ß", "😀", "👩‍👩‍👧", " ", "日"]
    for length in [0, 1, 300, 411, 412, 2_000, 10_000] {
      let text = String((0..<length).map { _ in alphabet.randomElement(using: &random)!.first! })
      // When it is split for a PRIVMSG to #channel by a 9-letter nick
      let splitter = IRCLineSplitter(command: "PRIVMSG", target: "#channel", nick: "abcdefghi")
      let pieces = splitter.pieces(text)
      // Then every relayed line fits 512 bytes with a 100-byte host part
      for piece in pieces {
        let relayed =
          ":abcdefghi!\(String(repeating: "u", count: 10))@\(String(repeating: "h", count: 63)) PRIVMSG #channel :\(piece)\r\n"
        #expect(relayed.utf8.count <= 512, "\(relayed.utf8.count) bytes")
      }
      // And nothing was lost or changed: the pieces are the text, cut in order
      #expect(pieces.count >= text.utf8.count / splitter.capacity)
      #expect(Self.matches(pieces, text), "length \(length)")
    }
  }

  /// Whether `pieces` are `text` cut in order, each cut either between characters or at a
  /// space that was dropped.
  static func matches(_ pieces: [String], _ text: String) -> Bool {
    var rest = Substring(text)
    for (index, piece) in pieces.enumerated() {
      guard rest.hasPrefix(piece) else { return false }
      rest = rest.dropFirst(piece.count)
      if index < pieces.count - 1, rest.first == " ",
        !pieces[index + 1].hasPrefix(" ") || rest.hasPrefix("  ")
      {
        rest = rest.dropFirst()
      }
    }
    return rest.isEmpty
  }
}

@Suite(.serialized, .ownThreads, .needsIRCServer)
struct LongLineTests {
  let bench = ChatClientBench()

  @Test("a 1,500-character line typed into the channel reaches SteveJ whole, in lines of at most 512 bytes")
  func longTypedLine() async throws {
    // Given the client online and SteveJ in the channel
    let server = try bench.startServer()
    let client = try await bench.startClient(port: server.port)
    let steve = try bench.joinPeer(port: server.port)
    // When the user types a line of 1,500 characters, some of them two and four bytes long
    let text = (0..<300).map { "wörd\($0 % 10)😀" }.joined(separator: " ")
    client.type(text)
    // Then SteveJ receives it as the client split it: several lines, each within 512
    // bytes as relayed, that together are the text
    let expected = IRCLineSplitter(command: "PRIVMSG", target: bench.channel, nick: bench.nick).pieces(text)
    #expect(expected.count >= 4)
    #expect(IRCLineSplitterTests.matches(expected, text))
    let relayed = " PRIVMSG \(bench.channel) :"
    let last = try steve.waitForLine(timeout: 20) { $0.hasSuffix(relayed + expected.last!) }
    #expect(last != nil, "\(steve.received.suffix(3)) \(client.stderr)")
    let lines = steve.received.filter { $0.contains(relayed) }
    #expect(lines.allSatisfy { $0.utf8.count + 2 <= 512 }, "\(lines.map(\.utf8.count))")
    #expect(lines.map { String($0[$0.range(of: relayed)!.upperBound...]) } == expected)
    // And the client is still connected: a private message afterwards reaches it (its
    // transcript: the user typing just now means no bubble)
    steve.send("PRIVMSG \(bench.nick) :still there?")
    let heard = await eventually(timeout: 15) { client.stderr.contains("[private] <SteveJ> still there?") }
    #expect(heard, "stderr: \(client.stderr)")
    client.terminate()
  }
}

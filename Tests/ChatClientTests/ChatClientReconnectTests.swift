import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyTestSupport
import NotifyZones
import Testing

/// The chat client when its IRC server drops it: it reconnects with
/// a bounded backoff, saying so on its transcript, and goes on notifying. Against a real
/// ngIRCd on loopback, restarted on the same port.
@Suite(.serialized, .ownThreads, .needsIRCServer)
struct ChatClientReconnectTests {
  let bench = ChatClientBench()
  var nick: String { bench.nick }
  var channel: String { bench.channel }

  /// How many times the transcript says the client joined the channel.
  func joins(_ client: ChildProcess) -> Int {
    client.stderr.components(separatedBy: "chat-client: joined \(channel)\n").count - 1
  }

  @Test func theClientReconnectsAfterTheServerDropsItAndAMentionIsNotified() async throws {
    // Given the client online in the channel (the default backoff: 1 s, then doubling)
    let server = try bench.startServer()
    let client = try await bench.startClient(port: server.port)
    #expect(joins(client) == 1)

    // When the server goes away and comes back on the same port (every client dropped)
    try server.restart()

    // Then the client says it lost the connection, reconnects with a delay it names,
    // registers and joins the channel again, and stays running
    let rejoined = await eventually(timeout: 40) { joins(client) == 2 }
    #expect(rejoined, "\(client.stderr)")
    let transcript = client.stderr
    #expect(
      transcript.contains("chat-client: the server closed the connection\n")
        || transcript.contains("chat-client: connection lost: "), "\(transcript)")
    #expect(
      transcript.contains("chat-client: reconnecting to 127.0.0.1:\(server.port) in 1 s (attempt 1 of 8)"),
      "\(transcript)")
    #expect(client.isRunning, "\(transcript)")
    #expect(!transcript.contains("offline"), "\(transcript)")

    // When SteveJ, on the new server, mentions the client in the channel
    let steve = try bench.joinPeer(port: server.port)
    steve.send("PRIVMSG \(channel) :\(nick): are you back?")

    // Then it is notified, once, its title naming the sender and the channel
    var mention: [[String: JSONValue]] = []
    let notified = await eventually(timeout: 15) {
      mention = bench.deliveries(in: client.stdoutLines, body: "\(nick): are you back?")
      return !mention.isEmpty
    }
    #expect(notified, "stdout: \(client.stdout) stderr: \(client.stderr)")
    #expect(mention.count == 1)
    #expect(mention.first?["title"] == .string("SteveJ in \(channel)"))
    #expect(bench.member("channel", of: mention.first?["userInfo"]) == .string(channel))
  }
}

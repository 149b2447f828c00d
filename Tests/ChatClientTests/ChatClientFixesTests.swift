import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyTestSupport
import NotifyZones
import Testing

/// The chat client's fixes end to end, against a real IRC server: the sender as title,
/// text from the network made plain, `[nick]` mentions, a stuck sink that holds up
/// neither the chat nor any message, owed messages shown once when the server returns,
/// and a badge that only goes down when the user reads.
@Suite(.serialized, .ownThreads, .needsIRCServer)
struct ChatClientFixesTests {
  let bench = ChatClientBench()
  var nick: String { bench.nick }
  var channel: String { bench.channel }

  @Test func networkTextIsMadePlainAndBracketedNicksMention() async throws {
    // Given the client online and SteveJ in the channel
    let server = try bench.startServer()
    let client = try await bench.startClient(port: server.port)
    let steve = try bench.joinPeer(port: server.port)

    // When SteveJ sends text with terminal escapes and a bidi override, a bracketed
    // mention with literal "[31m", lines that only look like the nick, and a last message
    steve.send("PRIVMSG \(nick) :\u{1B}[31mred\u{1B}[0m and \u{202E}desrever\u{1B}]0;title\u{7}")
    steve.send("PRIVMSG \(channel) :ask [\(nick)] about [31m")
    steve.send("PRIVMSG \(channel) :\(nick)x is someone else")
    steve.send("PRIVMSG \(channel) :_\(nick) too")
    steve.send("PRIVMSG \(nick) :the end")

    // Then, once the last one is out (messages are presented in order), exactly the
    // private messages and the bracketed mention came out, plain, titled by SteveJ (and
    // the channel, for the mention)
    let done = await eventually(timeout: 15) {
      !bench.deliveries(in: client.stdoutLines, body: "the end").isEmpty
    }
    #expect(done, "stdout: \(client.stdout) stderr: \(client.stderr)")
    let shown = bench.deliveries(in: client.stdoutLines)
    #expect(
      shown.map { $0["body"] }
        == ["red and desrever", "ask [\(nick)] about [31m", "the end"].map(JSONValue.string))
    #expect(
      shown.map { $0["title"] }
        == ["SteveJ", "SteveJ in \(channel)", "SteveJ"].map(JSONValue.string))
    #expect(
      shown.map { bench.member("kind", of: $0["userInfo"]) }
        == ["private", "mention", "private"].map(JSONValue.string))
    // And the transcript shows the same plain text: no remains of escapes to escape
    #expect(client.stderr.contains("[private] <SteveJ> red and desrever\n"))
    #expect(client.stderr.contains("<SteveJ> ask [\(nick)] about [31m\n"))
    #expect(!client.stderr.contains("\\u{1b}") && !client.stderr.contains("\\u{202e}"))
  }

  @Test func aStuckSinkHoldsUpNeitherTheChatNorAnyMessage() async throws {
    // Given the client with the stdout sink, its stdout pipe small and not read: the
    // sink blocks once the pipe is full
    let server = try bench.startServer()
    let client = try await bench.startClient(port: server.port, smallStdout: true)
    let steve = try bench.joinPeer(port: server.port)
    client.holdStdout()

    // When SteveJ sends twelve long private messages (more than the pipe holds), then
    // says something in the channel
    let filler = String(repeating: "x", count: 360)
    let texts = (1...12).map { "stuck \($0) \(filler)" }
    for text in texts { steve.send("PRIVMSG \(nick) :\(text)") }
    steve.send("PRIVMSG \(channel) :still reading?")

    // Then the transcript shows every line while the sink is stuck on a full pipe
    let read = await eventually(timeout: 20) {
      texts.allSatisfy { client.stderr.contains("[private] <SteveJ> \($0)\n") }
        && client.stderr.contains("<SteveJ> still reading?\n")
    }
    #expect(read, "the reader was held up: \(client.stderr)")
    let stuck = await eventually(timeout: 10) { client.stdoutBytesWaiting > 3000 }
    #expect(stuck, "the sink was not stuck: \(client.stdoutBytesWaiting) bytes in the pipe")

    // When stdout is read again
    client.releaseStdout()

    // Then each message comes out once, in order, under its own id, with a badge that
    // never goes down and ends at the number of unread messages
    let all = await eventually(timeout: 20) { bench.deliveries(in: client.stdoutLines).count >= texts.count }
    #expect(all, "stdout: \(client.stdout)")
    let shown = bench.deliveries(in: client.stdoutLines)
    #expect(shown.map { $0["body"] } == texts.map(JSONValue.string))
    #expect(Set(shown.compactMap { $0["id"] }).count == texts.count)
    let badges = shown.compactMap { member -> Int? in
      guard case .int(let badge)? = member["badge"] else { return nil }
      return Int(badge)
    }
    #expect(badges == badges.sorted(), "badges: \(badges)")
    #expect(badges.last == texts.count)
  }

  @Test func readingClearsTheBadgeAndCountingStartsAgain() async throws {
    // Given two unread private messages
    let server = try bench.startServer()
    let client = try await bench.startClient(port: server.port)
    let steve = try bench.joinPeer(port: server.port)
    steve.send("PRIVMSG \(nick) :one")
    steve.send("PRIVMSG \(nick) :two")
    #expect(await eventually(timeout: 15) { bench.deliveries(in: client.stdoutLines).count == 2 })

    // When the user types a line, then another message arrives
    client.type("hello")
    #expect(await eventually(timeout: 10) { client.stderr.contains("<\(nick)> hello\n") })
    steve.send("PRIVMSG \(nick) :three")

    // Then the third is delivered in the transcript only (the user typed within the
    // minute), so the sink printed nothing for it
    let store = try SQLiteStore(path: bench.store)
    var delivered: [HistoryEvent] = []
    let third = await eventually(timeout: 15) {
      delivered = ((try? store.history(app: "chat", limit: 20)) ?? []).filter { $0.kind == .delivered }
      return delivered.count == 3
    }
    #expect(third, "\(client.stderr)")
    #expect(delivered.first?.reason == Delivery.inAppReason)
    // And the badges went up to 2 (each is the unread count when it was shown: 1 then 2,
    // or 2 twice when both arrived before the first was shown), and after reading the
    // count starts at 1 again: the store's badge is the third message's
    let badges = bench.deliveries(in: client.stdoutLines).map { $0["badge"] }
    #expect(badges == [.int(1), .int(2)] || badges == [.int(2), .int(2)], "\(badges)")
    let center = try LocalNotificationCenter(app: "chat", store: store, sink: StdoutSink())
    #expect(try center.ownStore.badge() == 1)
  }

  @Test(.needsHeadlessDesktop) func aHungNotificationServerHoldsUpNeitherTheChatNorAnyMessage() async throws {
    // Given the client on a desktop whose notification server (dunst) is frozen: it keeps
    // its name on the bus but answers nothing, so each call waits for its 5 s timeout
    let desktop = try HeadlessDesktop()
    let server = try bench.startServer()
    let client = try await bench.startClient(
      port: server.port, extra: ["--sink", "desktop"], environment: desktop.environment)
    // Four users: the server throttles each connection (about three lines a second), so
    // one user sending all four would delay the last by itself
    let senders = ["SteveJ", "Anna", "Bob", "Carl"]
    let peers = try senders.map { try IRCPeer(port: server.port, nick: $0) }
    let dunst = desktop.dunstPID
    kill(dunst, SIGSTOP)
    defer { kill(dunst, SIGCONT) }

    // When each sends a private message
    let texts = (1...4).map { "stalled \($0)" }
    for (peer, text) in zip(peers, texts) { peer.send("PRIVMSG \(nick) :\(text)") }

    // Then all four are in the transcript before the first call has even timed out
    let timedOut = await eventually(timeout: 30) { client.stderr.contains("no answer for") }
    #expect(timedOut, "the call to the frozen server did not time out: \(client.stderr)")
    let transcript = client.stderr
    let firstTimeout = try #require(transcript.range(of: "no answer for")).lowerBound
    var readAt: [String: String.Index] = [:]
    for (sender, text) in zip(senders, texts) {
      let line = transcript.range(of: "[private] <\(sender)> \(text)\n")
      readAt[text] = line?.lowerBound
      #expect(
        line.map { $0.lowerBound < firstTimeout } == true, "\(text) waited for the server: \(transcript)")
    }
    // (Four connections: the server may relay them in any order; the client keeps its own.)
    let readOrder = texts.sorted { (readAt[$0] ?? firstTimeout) < (readAt[$1] ?? firstTimeout) }

    // When dunst wakes up, and a fifth message follows
    kill(dunst, SIGCONT)
    let answered = await eventually(timeout: 30) {
      client.stderr.contains("the notification server answers again")
    }
    #expect(answered, "\(client.stderr)")
    peers[0].send("PRIVMSG \(nick) :after 5")

    // Then each of the five shows once, in order, with its sender as summary: the one
    // that timed out was not sent again, the three held back were sent once
    #expect(await eventually(timeout: 30) { desktop.count() >= 5 }, "dunst has \(desktop.count())")
    let shown = try desktop.notifications()
    #expect(shown.map(\.body) == readOrder + ["after 5"], "\(client.stderr)")
    let senderOf = Dictionary(uniqueKeysWithValues: zip(texts, senders))
    #expect(shown.map(\.summary) == readOrder.map { senderOf[$0] ?? "" } + ["SteveJ"])
    #expect(client.isRunning)
  }

  @Test(.needsHeadlessDesktop) func messagesRefusedWhileTheServerIsGoneAreShownOnceWhenItReturns()
    async throws
  {
    // Given the client on a desktop, and the notification server gone
    let desktop = try HeadlessDesktop()
    let server = try bench.startServer()
    let client = try await bench.startClient(
      port: server.port, extra: ["--sink", "desktop"], environment: desktop.environment)
    let steve = try bench.joinPeer(port: server.port)
    #expect(desktop.stopDunst())

    // When SteveJ sends two private messages, which the sink refuses
    steve.send("PRIVMSG \(nick) :away 1")
    steve.send("PRIVMSG \(nick) :away 2")
    let refused = await eventually(timeout: 20) { client.stderr.contains("could not show") }
    #expect(refused, "\(client.stderr)")

    // And the notification server comes back, with no new message to prompt a retry
    try desktop.start()

    // Then the backoff timer shows both, once each, in order (recorded as delivered), in
    // the one bubble of SteveJ's conversation: a thread, whose next message replaces it
    let store = try SQLiteStore(path: bench.store)
    func delivered() -> [String] {
      ((try? store.history(app: nil, limit: 100)) ?? []).reversed().filter { $0.kind == .delivered }
        .compactMap { if case .string(let body)? = $0.detail["body"] { body } else { nil } }
    }
    #expect(await eventually(timeout: 60) { delivered() == ["away 1", "away 2"] }, "\(client.stderr)")
    steve.send("PRIVMSG \(nick) :back 3")
    #expect(
      await eventually(timeout: 20) { delivered() == ["away 1", "away 2", "back 3"] }, "\(client.stderr)")
    let shown = try desktop.notifications()
    #expect(shown.map(\.body) == ["back 3\n3 new"], "\(client.stderr)")
    #expect(client.stderr.contains("notifications are shown again"))
  }
}

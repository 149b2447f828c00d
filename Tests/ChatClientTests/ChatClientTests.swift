import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyTestSupport
import NotifyZones
import Testing

/// The example chat client end to end, against a real IRC server (ngIRCd on loopback),
/// with the stdout sink and a store in a fresh folder.
@Suite(.serialized, .ownThreads, .needsIRCServer)
struct ChatClientTests {
  let bench = ChatClientBench()
  var store: String { bench.store }
  var channel: String { bench.channel }
  var nick: String { bench.nick }

  func startServer() throws -> IRCServer { try bench.startServer() }

  func startClient(port: UInt16) async throws -> ChildProcess { try await bench.startClient(port: port) }

  func startDaemon() throws -> ChildProcess { try bench.startDaemon() }

  func deliveries(in lines: [String], body: String) -> [[String: JSONValue]] {
    bench.deliveries(in: lines, body: body)
  }

  @Test func privateMessagesAndMentionsBecomeNotifications() async throws {
    // Given a server, the client in #notify, and SteveJ on a second connection
    let server = try startServer()
    let client = try await startClient(port: server.port)
    let steve = try IRCPeer(port: server.port, nick: "SteveJ")

    // When SteveJ sends a private message, then mentions the client in the channel
    steve.send("JOIN \(channel)")
    _ = try steve.waitForLine(timeout: 10) { $0.contains(" 366 ") }
    steve.send("PRIVMSG \(nick) :Hello, world!")
    steve.send("PRIVMSG \(channel) :just chatting")
    steve.send("PRIVMSG \(channel) :\(nick): lunch?")

    // Then each comes out of the stdout sink as one JSON line: the sender as title, the
    // text as body
    var hello: [[String: JSONValue]] = []
    var lunch: [[String: JSONValue]] = []
    let arrived = await eventually(timeout: 15) {
      hello = deliveries(in: client.stdoutLines, body: "Hello, world!")
      lunch = deliveries(in: client.stdoutLines, body: "\(nick): lunch?")
      return !hello.isEmpty && !lunch.isEmpty
    }
    #expect(arrived, "no notification; stdout: \(client.stdout) stderr: \(client.stderr)")
    #expect(hello.count == 1)
    let message = try #require(hello.first)
    #expect(message["event"] == .string("delivered"))
    #expect(message["title"] == .string("SteveJ"))
    #expect(message["sound"] == .string("default"))
    // The badge is the unread count when it is shown: 1, or 2 when the mention arrived before it was shown
    #expect(message["badge"] == .int(1) || message["badge"] == .int(2))
    #expect(message["app"] == .string("chat"))
    #expect(
      message["userInfo"]
        == .object(["sender": .string("SteveJ"), "channel": .string(channel), "kind": .string("private")]))
    // And the mention counts as the second unread message; plain chat makes none
    #expect(lunch.first?["badge"] == .int(2))
    #expect(bench.member("kind", of: lunch.first?["userInfo"]) == .string("mention"))
    // And a mention's title names the channel it was said in; a private message's is the sender
    #expect(lunch.first?["title"] == .string("SteveJ in \(channel)"))
    #expect(deliveries(in: client.stdoutLines, body: "just chatting").isEmpty)
    // And the store holds the badge and the deliveries, as `notify` would show them
    let center = try LocalNotificationCenter(
      app: "chat", store: try SQLiteStore(path: store), sink: StdoutSink())
    // (the record follows the line on stdout: the sink shows first, then the store records)
    var recorded = 0
    let settled = await eventually(timeout: 15) {
      recorded = (try? center.ownStore.recentDeliveries().count) ?? 0
      return recorded >= 2
    }
    #expect(settled && recorded == 2, "deliveries recorded: \(recorded)")
    #expect(try center.ownStore.badge() == 2)
  }

  @Test func aReplyTypedWhileTheClientWasAwayReachesTheSenderOnceItIsOnline() async throws {
    // Given bob's private message, answered in its bubble while no client ran: the reply
    // waits in the store (`center.events` yields it as `.waited`)
    let store = try SQLiteStore(path: self.store)
    let message = LocalNotification(
      id: "m1", app: "chat", schedule: Schedule(fireDate: .instant(Date())), title: "bob",
      body: "lunch at 5?", userInfo: ["sender": .string("bob"), "kind": .string("private")], createdAt: Date()
    )
    _ = try store.leave(
      NotificationResponse(
        notification: message, actionKey: "reply", occurrence: 1, activationToken: nil, date: Date(),
        userText: "see you at 5"),
      launching: false)
    let server = try startServer()
    let bob = try bench.joinPeer(port: server.port, nick: "bob")
    // When the client starts
    let client = try await startClient(port: server.port)
    // Then bob gets the reply once the client is registered, once
    let line = try bob.waitForLine(timeout: 15) { $0.contains("PRIVMSG bob :see you at 5") }
    #expect(line?.hasPrefix(":\(nick)!") == true, "bob got: \(bob.received.suffix(5)); \(client.stderr)")
    #expect(await eventually(timeout: 10) { client.stderr.contains("[to bob] <\(nick)> see you at 5") })
    #expect(try store.takeWaitingResponses(app: "chat").isEmpty)
    #expect(bob.received.filter { $0.contains("see you at 5") }.count == 1)
    withExtendedLifetime((server, client)) {}
  }

  @Test func aReminderIsFiredOnceWhileClientAndDaemonBothRun() async throws {
    // Given the client online and a daemon on the same store
    let server = try startServer()
    let client = try await startClient(port: server.port)
    let daemon = try startDaemon()

    // When a reminder is set for two seconds ahead
    client.type("/remind 2s Stand up")

    // Then exactly one of them delivers it, once: the daemon on its stdout, or the client,
    // which the user just typed in, in its transcript only
    let body = "Stand up"
    func shown() -> Int {
      deliveries(in: client.stdoutLines + daemon.stdoutLines, body: body).count
        + client.stderr.components(separatedBy: "chat-client: reminder: \(body)\n").count - 1
    }
    let delivered = await eventually(timeout: 20) { shown() > 0 }
    #expect(delivered, "not delivered; client: \(client.stderr) daemon: \(daemon.stderr)")
    // The occurrence is finished once it is marked delivered: wait for that record,
    // after which no firer can claim it again.
    let sqlite = try SQLiteStore(path: store)
    let recorded = await eventually(timeout: 10) {
      ((try? sqlite.history(app: "chat", limit: 50)) ?? []).contains { $0.kind == .delivered }
        && (try? sqlite.pending(app: "chat"))?.isEmpty == true
    }
    #expect(recorded)
    #expect(shown() == 1)
    #expect(try sqlite.history(app: "chat", limit: 50).filter { $0.kind == .delivered }.count == 1)
    // And both firers were really running throughout
    #expect(client.isRunning, "client: \(client.stderr)")
    #expect(daemon.isRunning, "daemon: \(daemon.stderr)")
  }

  @Test func offlineTheClientLeavesItsReminderToTheDaemon() async throws {
    // Given the client online with a reminder set (two reconnect attempts, 1 s and 2 s
    // after the drop), and a daemon on the same store
    let server = try startServer()
    let client = try await bench.startClient(
      port: server.port, extra: ["--reconnect-attempts", "2"])
    let daemon = try startDaemon()
    client.type("/remind 4s Drink water")
    let scheduled = await eventually(timeout: 10) { client.stderr.contains("reminder ") }
    #expect(scheduled, "the reminder was not scheduled: \(client.stderr)")

    // When the connection drops and the server stays away
    server.stop()

    // Then the client tries to reconnect twice, gives up, goes offline within its budget,
    // leaves the reminder and exits 69 (the server is unavailable)
    #expect(await eventually(timeout: 20) { !client.isRunning })
    #expect(client.status == 69, "client: \(client.stderr)")
    #expect(client.stderr.contains("(attempt 2 of 2)"), "\(client.stderr)")
    #expect(
      client.stderr.contains("could not reconnect to 127.0.0.1:\(server.port) after 2 attempts"),
      "\(client.stderr)")
    #expect(client.stderr.contains("offline"))
    #expect(client.stderr.contains("1 scheduled notification left to the daemon"))
    // And the daemon delivers it, once
    let delivered = await eventually(timeout: 20) {
      !deliveries(in: daemon.stdoutLines, body: "Drink water").isEmpty
    }
    #expect(delivered, "daemon: \(daemon.stderr)")
    let sqlite = try SQLiteStore(path: store)
    let finished = await eventually(timeout: 10) {
      ((try? sqlite.history(app: "chat", limit: 50)) ?? []).contains { $0.kind == .delivered }
    }
    #expect(finished)
    #expect(deliveries(in: daemon.stdoutLines, body: "Drink water").count == 1)
    #expect(deliveries(in: client.stdoutLines, body: "Drink water").isEmpty)
  }
}

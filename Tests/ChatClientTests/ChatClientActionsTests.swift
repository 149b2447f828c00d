import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyTestSupport
import NotifyZones
import Testing

/// The chat client's actions on the scripted notification server, which has
/// KDE's inline reply (dunst has none): a reply typed into a private message's bubble is
/// sent to the sender on IRC; Mark read reads; a reminder has Snooze 5 min.
@Suite(.serialized, .ownThreads, .needsIRCServer)
struct ChatClientActionsTests {
  let bench = ChatClientBench()
  var nick: String { bench.nick }

  /// The Notify calls the server recorded for `summary`.
  func shown(_ desktop: ScriptedDesktop, summary: String) -> [[String: Any]] {
    desktop.calls.filter { $0["call"] as? String == "Notify" && $0["summary"] as? String == summary }
  }

  @Test func aReplyTypedIntoTheBubbleReachesTheSenderOnIRC() async throws {
    // Given the client on a desktop with inline reply, a real IRC server, and bob
    let desktop = try ScriptedDesktop(
      in: bench.folder, services: bench.folder.file("none"), capabilities: "body,actions,inline-reply")
    let server = try bench.startServer()
    let client = try await bench.startClient(
      port: server.port, extra: ["--sink", "desktop"], environment: desktop.bus)
    let bob = try bench.joinPeer(port: server.port, nick: "bob")
    // When bob writes privately
    bob.send("PRIVMSG \(nick) :lunch at 5?")
    #expect(await eventually(timeout: 15) { !shown(desktop, summary: "bob").isEmpty }, "\(client.stderr)")
    // Then the bubble has a reply field (placeholder naming bob) and Mark read
    let call = try #require(shown(desktop, summary: "bob").first)
    #expect(
      call["actions"] as? [String] == ["default", "View", "inline-reply", "Reply", "mark-read", "Mark read"])
    #expect((call["hints"] as? [String: Any])?["x-kde-reply-placeholder-text"] as? String == "Message to bob")
    // When the user types a reply into the bubble
    try desktop.drive("Reply", "\(try #require(call["id"] as? Int))", "see you at 5")
    // Then bob gets it as a private message from us
    let line = try bob.waitForLine(timeout: 15) { $0.contains("PRIVMSG bob :see you at 5") }
    #expect(line?.hasPrefix(":\(nick)!") == true, "bob got: \(bob.received.suffix(5)); \(client.stderr)")
    #expect(await eventually(timeout: 10) { client.stderr.contains("[to bob] <\(nick)> see you at 5") })
    withExtendedLifetime((server, client)) {}
  }

  @Test func markReadReadsAndAReminderHasSnoozeFiveMinutes() async throws {
    // Given the client on the scripted desktop (no inline reply), leaving reminders to the
    // daemon (while the user types, the client itself shows them in the transcript only),
    // a server, and bob
    let desktop = try ScriptedDesktop(in: bench.folder, services: bench.folder.file("none"))
    let server = try bench.startServer()
    let daemon = try ChildProcess(
      CommandRunner.product("notify"), ["daemon", "--sink", "desktop"],
      environment: desktop.bus.merging(["NOTIFY_DB": bench.store]) { $1 }, stdin: .pipe)
    let client = try await bench.startClient(
      port: server.port, extra: ["--sink", "desktop", "--no-firing"], environment: desktop.bus)
    let bob = try bench.joinPeer(port: server.port, nick: "bob")
    bob.send("PRIVMSG \(nick) :ping")
    #expect(await eventually(timeout: 15) { !shown(desktop, summary: "bob").isEmpty }, "\(client.stderr)")
    let call = try #require(shown(desktop, summary: "bob").first)
    // (without inline reply, Reply is a button that opens the client)
    #expect(call["actions"] as? [String] == ["default", "View", "reply", "Reply", "mark-read", "Mark read"])
    // When the user picks Mark read
    try desktop.drive("Click", "\(try #require(call["id"] as? Int))", "mark-read", "")
    // Then the client reads: it says so
    #expect(await eventually(timeout: 10) { client.stderr.contains("marked read") }, "\(client.stderr)")
    // When the user sets a reminder that fires at once
    client.type("/remind 1s stretch")
    // Then its bubble (the daemon's) has Snooze 5 min
    #expect(
      await eventually(timeout: 15) { !shown(desktop, summary: "Reminder").isEmpty }, "\(daemon.stderr)")
    let reminder = try #require(shown(desktop, summary: "Reminder").first)
    #expect(reminder["actions"] as? [String] == ["default", "View", "notify.snooze.300", "Snooze 5 min"])
    // When the user picks it, the reminder is snoozed for 5 minutes: pending again
    try desktop.drive("Click", "\(try #require(reminder["id"] as? Int))", "notify.snooze.300", "")
    let store = try SQLiteStore(path: bench.store)
    #expect(
      await eventually(timeout: 10) { (try? store.pending(app: "chat").first?.snoozedOccurrence) == 1 },
      "\(client.stderr)")
    let copy = try #require(try store.pending(app: "chat").first)
    #expect(copy.notification.body == "stretch")
    let due = try #require(copy.nextFireDate)
    #expect(due > Date() + 250 && due < Date() + 301)
    withExtendedLifetime((server, client, bob, daemon)) {}
  }
}

import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyTestSupport
import NotifyZones
import Testing

/// The chat client on a desktop (dunst under Xvfb on a private bus), against a real IRC
/// server: a click opens the conversation of the message clicked, while the client runs or
/// after it quit (then `notify daemon` starts it from the entry it installed; on the
/// scripted server, which tells every connection of a click); while the user types,
/// notifications appear in the transcript only; reading withdraws the bubbles.
@Suite(.serialized, .ownThreads)
struct ChatClientDesktopTests {
  let bench = ChatClientBench()
  var nick: String { bench.nick }
  var channel: String { bench.channel }

  /// What most tests run: the desktop, the server, the client on the desktop sink, and
  /// bob in the channel; each stops when the value goes, so tests keep it to their end.
  struct Scene {
    let desktop: HeadlessDesktop
    let server: IRCServer
    let client: ChildProcess
    let bob: IRCPeer
  }

  func start() async throws -> Scene {
    let desktop = try HeadlessDesktop()
    let server = try bench.startServer()
    let client = try await bench.startClient(
      port: server.port, extra: ["--sink", "desktop"], environment: desktop.environment)
    let bob = try bench.joinPeer(port: server.port, nick: "bob")
    return Scene(desktop: desktop, server: server, client: client, bob: bob)
  }

  @Test(.needsIRCServer, .needsHeadlessDesktop) func aClickWhileRunningOpensThePrivateConversation()
    async throws
  {
    // Given bob's private message on screen
    let scene = try await start()
    let (desktop, client, bob) = (scene.desktop, scene.client, scene.bob)
    bob.send("PRIVMSG \(nick) :are you there?")
    #expect(await eventually(timeout: 15) { displayed(desktop) == 1 }, "\(client.stderr)")

    // When the user clicks it
    try desktop.dunstctl("action", "0")

    // Then the client opens the conversation with bob, after saying what was opened
    let opened = await eventually(timeout: 15) { client.stderr.contains("chat-client: conversation: bob\n") }
    #expect(opened, "\(client.stderr)")
    let transcript = client.stderr
    let openedLine = try #require(transcript.range(of: "opened the message from bob"), "\(transcript)")
    let conversationLine = try #require(transcript.range(of: "conversation: bob"))
    #expect(openedLine.lowerBound < conversationLine.lowerBound)

    // And a line typed next goes to bob alone, not to the channel
    client.type("yes, here")
    let toBob = try bob.waitForLine(timeout: 10) { $0.contains("PRIVMSG bob :yes, here") }
    #expect(toBob?.hasPrefix(":\(nick)!") == true, "bob got: \(bob.received.suffix(5))")
    // (the transcript line is written just after the line is sent)
    #expect(await eventually(timeout: 10) { client.stderr.contains("[to bob] <\(nick)> yes, here\n") })

    // When the user goes back to the channel with /query
    client.type("/query")
    // Then the next line is said in the channel again
    #expect(await eventually(timeout: 10) { client.stderr.contains("conversation: \(channel)\n") })
    client.type("back in the channel")
    let inChannel = try bob.waitForLine(timeout: 10) {
      $0.contains("PRIVMSG \(channel) :back in the channel")
    }
    #expect(inChannel != nil, "bob got: \(bob.received.suffix(5))")
    #expect(!bob.received.contains { $0.contains("PRIVMSG \(channel) :yes, here") })
    withExtendedLifetime(scene) {}
  }

  @Test(.needsIRCServer) func aClickAfterTheClientQuitStartsItFromItsDesktopEntry() async throws {
    // Given the scripted notification server (which tells every connection of a click:
    // dunst tells only the connection that showed the bubble, gone once the client quit), a
    // scratch XDG_DATA_HOME with the client's entry installed in it, and the daemon on the
    // same store and desktop, looking up entries there only
    let desktop = try ScriptedDesktop(in: bench.folder, services: bench.folder.file("none"))
    let server = try bench.startServer()
    let dataHome = bench.folder.file("data")
    let noDataDirs = bench.folder.file("empty")
    try FileManager.default.createDirectory(atPath: noDataDirs, withIntermediateDirectories: true)
    let xdg = ["XDG_DATA_HOME": dataHome, "XDG_DATA_DIRS": noDataDirs]
    let install = try CommandRunner(
      executable: CommandRunner.product("chat-client"), environment: xdg
    ).run([
      "--install-desktop-entry", "--server", "127.0.0.1:\(server.port)", "--nick", nick, "--channel", channel,
      "--db", bench.store, "--sink", "desktop",
    ])
    #expect(install.status == 0, "\(install.stderr)")
    #expect(install.stdout == dataHome + "/applications/chat.desktop\n")
    let daemon = try ChildProcess(
      CommandRunner.product("notify"), ["daemon", "--sink", "desktop"],
      environment: ["NOTIFY_DB": bench.store].merging(desktop.bus) { $1 }.merging(xdg) { $1 }, stdin: .pipe)
    // The client the daemon launches carries the store's path on its command line: stop it
    // by that, whatever happens here.
    defer { stopProcesses(ofProgram: "chat-client", withArgument: bench.store) }
    #expect(await eventually(timeout: 20) { daemon.stderr.contains("ready") }, "\(daemon.stderr)")

    // And the client, which shows bob's private message
    let client = try await bench.startClient(
      port: server.port, extra: ["--sink", "desktop"], environment: desktop.bus)
    let bob = try bench.joinPeer(port: server.port, nick: "bob")
    bob.send("PRIVMSG \(nick) :call me")
    func shown() -> [[String: Any]] {
      desktop.calls.filter { $0["call"] as? String == "Notify" && $0["summary"] as? String == "bob" }
    }
    #expect(await eventually(timeout: 15) { shown().count == 1 }, "\(client.stderr)")
    // (The delivery is recorded just after the sink showed it.)
    let store = try SQLiteStore(path: bench.store)
    var delivered: String?
    _ = await eventually(timeout: 5) {
      delivered =
        ((try? store.history(app: "chat", limit: 10)) ?? []).first { $0.kind == .delivered }?
        .notificationID
      return delivered != nil
    }
    let id = try #require(delivered)

    // When the client quits, leaving the bubble on screen
    client.type("/quit")
    #expect(await eventually(timeout: 20) { !client.isRunning }, "\(client.stderr)")
    #expect(client.status == 0, "\(client.stderr)")
    #expect(!desktop.calls.contains { $0["call"] as? String == "CloseNotification" }, "\(desktop.calls)")
    // And the daemon takes the bubble over, showing nothing again
    let takenOver = await eventually(timeout: 15) {
      daemon.stderr.split(separator: "\n").contains { $0.contains("took over") && $0.contains(id) }
    }
    #expect(takenOver, "the daemon did not take over \(id): \(daemon.stderr)")
    #expect(shown().count == 1, "\(desktop.calls)")
    // And the user clicks it
    try desktop.drive("Click", "\(try #require(shown().first?["id"] as? Int))", "default", "")

    // Then the daemon starts the client from its entry (the client writes to the daemon's
    // stderr, which it inherits); it reads the click and opens the conversation with bob
    let launched = await eventually(timeout: 20) {
      daemon.stderr.contains("chat-client: opened from a notification: \(id)\n")
        && daemon.stderr.contains("chat-client: conversation: bob\n")
    }
    #expect(launched, "daemon: \(daemon.stderr)")
    // And it goes online again: bob sees the nick join the channel
    let joined = try bob.waitForLine(timeout: 20) { $0.hasPrefix(":\(nick)!") && $0.contains(" JOIN ") }
    #expect(joined != nil, "bob got: \(bob.received.suffix(5)); daemon: \(daemon.stderr)")
    // And the click read the message: the launched client cleared the badge
    let center = try LocalNotificationCenter(app: "chat", store: store, sink: StdoutSink())
    #expect(await eventually(timeout: 10) { (try? center.ownStore.badge()) == 0 })
    withExtendedLifetime((desktop, server, daemon)) {}
  }

  @Test(.needsIRCServer, .needsHeadlessDesktop) func whileTheUserTypesNotificationsAppearInTheTranscriptOnly()
    async throws
  {
    // Given the user typing in the channel
    let scene = try await start()
    let (desktop, client, bob) = (scene.desktop, scene.client, scene.bob)
    client.type("hello")
    #expect(await eventually(timeout: 10) { client.stderr.contains("<\(nick)> hello\n") })

    // When a reminder falls due and bob sends a private message, within the minute
    client.type("/remind 1s tea")
    bob.send("PRIVMSG \(nick) :psst")

    // Then both are delivered in the app: the reminder in the transcript, the message too
    let store = try SQLiteStore(path: bench.store)
    var delivered: [HistoryEvent] = []
    let done = await eventually(timeout: 20) {
      delivered = ((try? store.history(app: "chat", limit: 20)) ?? []).filter { $0.kind == .delivered }
      return delivered.count == 2 && client.stderr.contains("chat-client: reminder: tea\n")
        && client.stderr.contains("[private] <bob> psst\n")
    }
    #expect(done, "history: \(delivered.map(\.notificationID)); client: \(client.stderr)")
    #expect(delivered.map(\.reason) == ["in-app", "in-app"])
    // And neither showed a bubble
    #expect(displayed(desktop) == 0)
    #expect(desktop.count() == 0, "dunst holds \(desktop.count()) notifications")

    // When another app presents a notification (dunst is working)
    let other = try CommandRunner(environment: desktop.environment).run([
      "now", "--app", "other", "--db", bench.store, "--sink", "desktop", "--title", "Control", "dunst works",
    ])
    // Then that one is on screen, alone
    #expect(other.status == 0, "\(other.stderr)")
    #expect(await eventually(timeout: 10) { displayed(desktop) == 1 })
    let shown = try desktop.notifications()
    #expect(shown.map(\.summary) == ["Control"], "\(shown)")
    withExtendedLifetime(scene) {}
  }

  @Test(.needsIRCServer, .needsHeadlessDesktop) func readingWithdrawsTheBubblesAndClearsTheBadge()
    async throws
  {
    // Given bob's private message on screen, unread
    let scene = try await start()
    let (desktop, client, bob) = (scene.desktop, scene.client, scene.bob)
    bob.send("PRIVMSG \(nick) :ping me")
    #expect(await eventually(timeout: 15) { displayed(desktop) == 1 }, "\(client.stderr)")
    let badge = CommandRunner(environment: ["NOTIFY_DB": bench.store])
    // (The badge is recorded just after the sink showed the message.)
    // (each read must succeed: a failed one, busy (75) or otherwise, is not "not yet")
    #expect(
      try await eventually(timeout: 5) {
        let read = try badge.run(["badge", "--app", "chat"])
        try #require(read.status == 0, "badge exit \(read.status): \(read.stderr)")
        return read.stdout == "1\n"
      })

    // When the user types a line
    client.type("on my way")

    // Then the bubble goes away, withdrawn by the app, and the badge is 0
    #expect(await eventually(timeout: 15) { displayed(desktop) == 0 }, "\(client.stderr)")
    let store = try SQLiteStore(path: bench.store)
    let withdrawn = await eventually(timeout: 10) {
      ((try? store.history(app: "chat", limit: 20)) ?? []).contains {
        $0.kind == .dismissed && $0.reason == LocalNotificationCenter.withdrawnReason
      }
    }
    #expect(withdrawn, "\((try? store.history(app: "chat", limit: 20)) ?? [])")
    #expect(try badge.run(["badge", "--app", "chat"]).stdout == "0\n")
    withExtendedLifetime(scene) {}
  }

  @Test func theInstalledEntryStartsTheClientWithTheOptionsGiven() throws {
    // Given no XDG_DATA_HOME and a home without an applications folder yet
    let home = bench.folder.file("home")
    let runner = CommandRunner(
      executable: CommandRunner.product("chat-client"), environment: ["HOME": home, "XDG_DATA_HOME": ""])

    // When the entry is installed, with a relative store path and a channel that needs
    // quoting, for a server nobody listens on
    let result = try runner.run([
      "--install-desktop-entry", "--server", "127.0.0.1:1", "--nick", "ada", "--channel", "#notify",
      "--db", "relative/notify.db", "--app", "chat", "--sink", "stdout", "--no-firing",
    ])

    // Then it exits 0 without connecting and prints where it wrote the entry
    #expect(result.status == 0, "\(result.stderr)")
    let folder = home + "/.local/share/applications"
    #expect(result.stdout == folder + "/chat.desktop\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["chat.desktop"])
    // And the entry parses, and its Exec runs this client with the options, the store's
    // path made absolute
    let text = try String(contentsOfFile: folder + "/chat.desktop", encoding: .utf8)
    let entry = try DesktopEntry(parsing: text)
    #expect(entry.type == "Application" && entry.name == "Chat client (notify example)")
    #expect(text.contains("\nTerminal=false\n") && text.contains("\nNoDisplay=true\n"))
    let client = URL(fileURLWithPath: CommandRunner.product("chat-client")).resolvingSymlinksInPath().path
    let absoluteStore = FileManager.default.currentDirectoryPath + "/relative/notify.db"
    #expect(
      try entry.commandLine(entryPath: folder + "/chat.desktop") == [
        client, "--server", "127.0.0.1:1", "--nick", "ada", "--channel", "#notify", "--db", absoluteStore,
        "--app", "chat", "--sink", "stdout", "--no-firing",
      ])

    // When it is installed again with a bad option
    let bad = try runner.run([
      "--install-desktop-entry", "--server", "127.0.0.1:1", "--nick", "ada", "--channel", "#notify",
      "--db", "line\nbreak",
    ])
    // Then it is refused with the usage code, and the entry written before stays as it was
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("control character"), "\(bad.stderr)")
    #expect(try String(contentsOfFile: folder + "/chat.desktop", encoding: .utf8) == text)
  }

  /// How many bubbles dunst shows.
  func displayed(_ desktop: HeadlessDesktop) -> Int {
    Int((try? desktop.dunstctl("count", "displayed"))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
      ?? -1
  }
}

/// Sends SIGTERM to every process whose program's name is `program` and whose command line
/// holds `argument` (a client the daemon launched, which is no child of the test), and
/// waits up to 10 s for each to go.
func stopProcesses(ofProgram program: String, withArgument argument: String) {
  let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap {
    name -> pid_t? in
    guard let pid = pid_t(name), let bytes = fileBytes("/proc/\(name)/cmdline") else { return nil }
    let words = bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    guard let first = words.first, first.hasSuffix("/" + program), words.contains(argument) else {
      return nil
    }
    return pid
  }
  for pid in pids { kill(pid, SIGTERM) }
  for pid in pids where !waitUntil(timeout: 10, { !HeadlessDesktop.isRunning(pid) }) { kill(pid, SIGKILL) }
}

import Foundation
import Notify
import NotifyCore
import ServiceLifecycle

/// The client online, as a service: connect, register, join, answer PING, turn private
/// messages and mentions into notifications, take commands from stdin. When the connection
/// drops the client reconnects, waiting longer before each attempt (`ReconnectPolicy`),
/// and goes on where it was. When it leaves (graceful shutdown, /quit) or the attempts run
/// out, it goes offline: inside a background task with a budget it shows what it still
/// owes, then leaves the scheduled notifications to the daemon and returns (throwing, when
/// it could not get back onto the server).
///
/// The reader never presents: it writes the transcript line and puts the message in the
/// presenter's inbox, so a hung notification server cannot hold up the chat.
///
/// While online the session is the center's foreground: for a minute after each line typed
/// its notifications appear in the transcript only (`TypingActivity`), and a click on one
/// of them opens its conversation.
struct ChatSession: Service {
  var host: String
  var port: UInt16
  var nick: String
  var channel: String
  var center: LocalNotificationCenter
  var presenter: MessagePresenter
  /// How long going offline may take.
  var offlineBudget: Duration
  /// Whether this client fires scheduled notifications itself while it runs.
  var firesInProcess: Bool
  /// How the client gets back onto the server after the connection drops.
  var reconnect: ReconnectPolicy = .standard

  private enum Part { case server, stdin, notifications }

  func run() async throws {
    let state = SessionState(nick: nick)
    let inbox = PresenterInbox()
    let connection = try IRCConnection(host: host, port: port)
    Transcript.status("connected to \(connection.address)")
    let link = ServerLink()
    let events = center.events
    // Carry on counting from the badge a previous run left.
    let start = MessageOutbox(unread: (try? await center.badgeCount()) ?? 0)
    register(on: connection, state)

    // Decided by the center on the thread that delivers (the presenter's, or the firing
    // loop's): a read of the typing state under its lock, nothing more.
    center.setPresentationHandler { _ in state.presentation(now: .now) }
    let owed = await withGracefulShutdownHandler {
      await withTaskGroup(of: MessageOutbox?.self) { group in
        group.addTask {
          await presenter.run(inbox, from: start)
        }
        group.addTask {
          await online(connection, link, state, inbox, events)
          // The presenter stops after its current attempt and hands back what it owes.
          inbox.close()
          return nil
        }
        var owed = start
        while let part = await group.next() {
          if let part { owed = part }
        }
        return owed
      }
    } onGracefulShutdown: {
      state.leaving = true
      link.quit("shutting down")
    }
    // Offline, nobody reads the transcript: what is still shown goes to the desktop.
    center.setPresentationHandler(nil)
    var outbox = owed
    await goOffline(&outbox)
    if state.gaveUp {
      throw ChatError(
        "lost the connection to \(host):\(port) and could not reconnect after \(reconnect.attempts) attempts",
        fix: "check that the IRC server runs, then start the client again")
    }
  }

  /// Reads the server (across reconnects), stdin and the center's events (the user's
  /// answers, the deliveries) until the client leaves or cannot get back onto the server.
  private func online(
    _ connection: IRCConnection, _ link: ServerLink, _ state: SessionState, _ inbox: PresenterInbox,
    _ events: NotificationEvents
  ) async {
    await withTaskGroup(of: Part.self) { group in
      group.addTask {
        await stayConnected(from: connection, link, state, inbox)
        return .server
      }
      group.addTask {
        await readStdin(link, state, inbox)
        return .stdin
      }
      group.addTask {
        await watchEvents(events, link, state, inbox)
        return .notifications
      }
      // Stdin may end early (run from a script); only the server going away for good ends
      // the stay.
      while let part = await group.next() {
        if part == .server { group.cancelAll() }
      }
    }
  }

  // MARK: Server

  /// Reads `first`, and each connection made after a drop, until the client leaves or the
  /// reconnect attempts run out. A stay that registered starts the count of attempts anew.
  private func stayConnected(
    from first: IRCConnection, _ link: ServerLink, _ state: SessionState, _ inbox: PresenterInbox
  ) async {
    var connection = first
    var attempts = 0
    while true {
      link.use(connection)
      await readServer(connection, link, state, inbox)
      link.drop(connection)
      if state.leaving || Task.isCancelled { return }
      if state.registered { attempts = 0 }
      guard let next = await reconnected(after: &attempts, state) else { return }
      connection = next
    }
  }

  /// Connects again after the connection dropped, waiting before each attempt as
  /// `reconnect` says and saying so; nil when the client leaves meanwhile or the attempts
  /// run out (`state.gaveUp`).
  private func reconnected(after attempts: inout Int, _ state: SessionState) async -> IRCConnection? {
    while let delay = reconnect.delay(beforeAttempt: attempts + 1) {
      attempts += 1
      Transcript.status(
        "reconnecting to \(host):\(port) in \(Self.text(delay)) (attempt \(attempts) of \(reconnect.attempts))"
      )
      guard await pause(delay, state) else { return nil }
      do {
        let connection = try IRCConnection(host: host, port: port)
        Transcript.status("connected to \(connection.address)")
        state.registered = false
        state.nick = nick
        register(on: connection, state)
        return connection
      } catch {
        Transcript.status("could not reconnect: \(error)")
      }
    }
    if reconnect.attempts > 0 {
      Transcript.status(
        "could not reconnect to \(host):\(port) after \(reconnect.attempts) attempts: giving up")
      state.gaveUp = true
    }
    return nil
  }

  /// Waits `delay`, or less when the client leaves meanwhile; false when it does.
  private func pause(_ delay: Duration, _ state: SessionState) async -> Bool {
    let clock = ContinuousClock()
    let end = clock.now + delay
    // Looks every 100 ms whether the client is leaving (/quit, SIGTERM): nothing else
    // would end a sleep between attempts.
    while clock.now < end {
      if state.leaving || Task.isCancelled { return false }
      try? await Task.sleep(for: min(.milliseconds(100), end - clock.now))
    }
    return !state.leaving && !Task.isCancelled
  }

  /// `1 s`, `30 s`: a delay as the transcript says it.
  static func text(_ delay: Duration) -> String {
    let milliseconds = delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000
    return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
  }

  /// Registers on a new connection (NICK and USER): the server answers with its welcome.
  private func register(on connection: IRCConnection, _ state: SessionState) {
    connection.send(IRCMessage("NICK", state.nick))
    connection.send(IRCMessage("USER", state.nick, "0", "*", "notify chat client"))
  }

  private func readServer(
    _ connection: IRCConnection, _ link: ServerLink, _ state: SessionState, _ inbox: PresenterInbox
  ) async {
    do {
      for try await line in connection.lines() {
        guard let message = IRCMessage(line: line) else { continue }
        handle(message, connection, link, state, inbox)
      }
      Transcript.status(state.leaving ? "left the server" : "the server closed the connection")
    } catch {
      Transcript.status(state.leaving ? "left the server" : "connection lost: \(error)")
    }
  }

  private func handle(
    _ message: IRCMessage, _ connection: IRCConnection, _ link: ServerLink, _ state: SessionState,
    _ inbox: PresenterInbox
  ) {
    let parameters = message.parameters
    switch message.command {
    case "PING":
      connection.send(IRCMessage("PONG", parameters.last ?? ""))
    case "001":
      if let assigned = parameters.first { state.nick = assigned }
      let held = state.noteRegistration()
      Transcript.status("registered as \(Escaper.visible(state.nick))")
      connection.send(IRCMessage("JOIN", channel))
      // Replies typed into bubbles while the client was away, held until now.
      for reply in held {
        answer(reply.notification, text: reply.userText, link, state, inbox)
      }
    case "433" where !state.registered:
      state.nick += "_"
      Transcript.status("nick taken, trying \(Escaper.visible(state.nick))")
      connection.send(IRCMessage("NICK", state.nick))
    case "JOIN":
      if let sender = message.senderNick, IRCName.same(sender, state.nick) {
        Transcript.status("joined \(Escaper.visible(parameters.first ?? channel))")
      }
    case "PRIVMSG" where parameters.count >= 2:
      received(from: message.senderNick ?? "?", to: parameters[0], text: parameters[1], state, inbox)
    case "NOTICE" where parameters.count >= 2:
      Transcript.chat(
        "notice", NetworkText.plain(message.senderNick ?? "server"), NetworkText.plain(parameters[1]))
    case "ERROR":
      Transcript.status(
        "server error: \(Escaper.visible(NetworkText.plain(parameters.last ?? ""), limit: 200))")
    default:
      // Error numerics (400-599) say why a command failed; show their text.
      if let code = Int(message.command), (400..<600).contains(code) {
        let text = NetworkText.plain(parameters.dropFirst().joined(separator: " "))
        Transcript.status("server: \(Escaper.visible(text, limit: 300))")
      }
    }
  }

  private func received(
    from rawSender: String, to target: String, text raw: String, _ state: SessionState,
    _ inbox: PresenterInbox
  ) {
    guard !IRCName.same(rawSender, state.nick) else { return }
    var text = raw
    if text.hasPrefix("\u{1}") {
      // CTCP: show /me actions, ignore the rest (VERSION, PING, ...).
      let inner = text.trimmingCharacters(in: CharacterSet(charactersIn: "\u{1}"))
      guard inner.hasPrefix("ACTION ") else { return }
      text = "* " + inner.dropFirst("ACTION ".count)
    }
    text = NetworkText.plain(text)
    let sender = NetworkText.plain(rawSender)
    let isPrivate = IRCName.same(target, state.nick)
    // The transcript line comes now, whatever the notification server is doing.
    Transcript.chat(isPrivate ? "private" : target, sender, text)
    let reason: ChatMessage.Reason
    if isPrivate {
      reason = .privateMessage
    } else if IRCName.mentions(text, nick: state.nick) {
      reason = .mention
    } else {
      return
    }
    // A mention names the channel it was said in; a private message, where to answer.
    inbox.put(
      .message(
        ChatMessage(
          id: state.nextMessageID(), sender: sender, text: text, reason: reason,
          channel: isPrivate ? channel : NetworkText.plain(target))))
  }

  // MARK: Responses

  /// Follows what happens to the client's notifications (`center.events`): first the click
  /// that launched the client, then the answers given while it was not running, then the
  /// live ones and the deliveries. A click opens the conversation the notification belongs
  /// to and means reading.
  private func watchEvents(
    _ events: NotificationEvents, _ link: ServerLink, _ state: SessionState, _ inbox: PresenterInbox
  ) async {
    for await response in events {
      if response.kind == .delivered {
        delivered(response)
        continue
      }
      switch response.origin {
      case .launch:
        Transcript.status("opened from a notification: \(Escaper.visible(response.notification.id))")
        open(Conversation(opening: response.userInfo) ?? .channel, state)
        // The launch counts as reading: once online the badge is cleared.
        inbox.put(.read)
      case .waited where response.kind == .activated(actionKey: ChatMessage.replyKey):
        // A reply typed into a bubble while the client was away goes out once registered.
        if !state.holdUntilRegistered(response) {
          answer(response.notification, text: response.userText, link, state, inbox)
        }
      case .waited, .live:
        answered(response, link, state, inbox)
      }
    }
  }

  /// A live answer (or one that waited and needs no server).
  private func answered(
    _ event: NotificationEvent, _ link: ServerLink, _ state: SessionState, _ inbox: PresenterInbox
  ) {
    switch event.kind {
    case .activated(ChatMessage.replyKey):
      answer(event.notification, text: event.userText, link, state, inbox)
    case .activated(ChatMessage.markReadKey):
      Transcript.status("marked read")
      inbox.put(.read)
    case .activated:
      if case .string(let sender)? = event.userInfo["sender"] {
        Transcript.status("opened the message from \(Escaper.visible(sender))")
      } else {
        let what = event.userInfo["kind"] == .string(Conversation.reminderKind) ? "the reminder " : ""
        Transcript.status("opened \(what)\(Escaper.visible(event.notification.id))")
      }
      // Opening a notification means the user is reading.
      inbox.put(.read)
      if let conversation = Conversation(opening: event.userInfo) { open(conversation, state) }
    case .delivered, .dismissed:
      return
    }
  }

  // MARK: Deliveries

  /// A reminder delivered in the transcript only (the user is typing) is written there;
  /// messages have their transcript line already, written as they were read.
  private func delivered(_ event: NotificationEvent) {
    guard let delivery = event.delivery, delivery.presentation.isEmpty,
      event.userInfo["kind"] == .string(Conversation.reminderKind)
    else { return }
    Transcript.status("reminder: \(Escaper.visible(event.notification.body ?? ""))")
  }

  /// The Reply action of a private message's notification: the text typed into the
  /// bubble goes to the sender; without one (a server with no reply field) the client
  /// opens the conversation and asks for the text.
  func answer(
    _ notification: LocalNotification, text: String?, _ link: ServerLink, _ state: SessionState,
    _ inbox: PresenterInbox
  ) {
    // The sender came from the server; it must still be one nick to be a PRIVMSG target.
    guard case .string(let sender)? = notification.userInfo["sender"], !sender.isEmpty,
      sender.allSatisfy(IRCName.isNickCharacter)
    else { return }
    inbox.put(.read)
    // One IRC line: a reply typed over several lines is sent as one.
    let line = text.map { $0.split(whereSeparator: \.isNewline).joined(separator: " ") }
    guard let text = line?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
      open(.privateChat(with: sender), state)
      Transcript.status(
        "reply to \(Escaper.visible(sender)): type your message (or /msg \(Escaper.visible(sender)) TEXT)")
      return
    }
    guard say(text, to: sender, link, state) else { return }
    Transcript.chat("to \(sender)", state.nick, text)
  }

  /// Sends `text` to `target` in as many PRIVMSG lines as it takes to keep each within
  /// IRC's 512 bytes as relayed (`IRCLineSplitter`). False, saying so, while the client is
  /// not connected (between a drop and the reconnect): nothing was sent.
  @discardableResult
  func say(_ text: String, to target: String, _ link: ServerLink, _ state: SessionState) -> Bool {
    let splitter = IRCLineSplitter(command: "PRIVMSG", target: target, nick: state.nick)
    for piece in splitter.pieces(text) {
      guard link.send(IRCMessage("PRIVMSG", target, piece)) else {
        Transcript.error("not connected to the server (reconnecting): not sent")
        return false
      }
    }
    return true
  }

  /// Makes `conversation` the one typed lines go to, and says so.
  func open(_ conversation: Conversation, _ state: SessionState) {
    state.conversation = conversation
    Transcript.status("conversation: \(Escaper.visible(conversation.target(channel: channel)))")
  }

  // MARK: Offline

  private func goOffline(_ outbox: inout MessageOutbox) async {
    Transcript.status("offline")
    let task = center.beginBackgroundTask(name: "offline-flush", budget: offlineBudget) {
      Transcript.status("offline budget nearly spent: handing what is left to the daemon")
    }
    defer { task.end() }
    let (shown, handedOver) = await presenter.flush(&outbox, within: task)
    var fired = 0
    if firesInProcess {
      do {
        fired = try await center.deliverDueNotifications(within: task)
      } catch {
        Transcript.error("\(error)")
      }
    }
    let left = (try? await center.pendingNotificationRequests().count) ?? 0
    Transcript.status(
      "offline: showed \(shown) owed, fired \(fired) due, handed \(handedOver) to the daemon; "
        + "\(left) scheduled notification\(left == 1 ? "" : "s") left to the daemon "
        + "(\(String(format: "%.1f", task.timeRemaining)) s of budget unused)")
  }
}

import Foundation
import Notify
import ServiceLifecycle

/// One stay on the IRC server, as a service: connect, register, join, answer PING, turn
/// private messages and mentions into notifications, take commands from stdin. When the
/// connection drops (or on graceful shutdown) the client goes offline: inside a
/// background task with a budget it shows what it still owes, then leaves the scheduled
/// notifications to the daemon and returns.
struct ChatSession: Service {
  var host: String
  var port: UInt16
  var nick: String
  var channel: String
  var center: LocalNotificationCenter
  var notifier: ChatNotifier
  /// How long going offline may take.
  var offlineBudget: Duration
  /// Whether this client fires scheduled notifications itself while it runs.
  var firesInProcess: Bool

  private enum Part { case server, stdin, events }

  func run() async throws {
    let connection = try IRCConnection(host: host, port: port)
    Transcript.status("connected to \(connection.address)")
    let state = SessionState(nick: nick)
    let events = center.events
    connection.send(IRCMessage("NICK", nick))
    connection.send(IRCMessage("USER", nick, "0", "*", "notify chat client"))

    await withGracefulShutdownHandler {
      await withTaskGroup(of: Part.self) { group in
        group.addTask {
          await readServer(connection, state)
          return .server
        }
        group.addTask {
          await readStdin(connection, state)
          return .stdin
        }
        group.addTask {
          await watch(events)
          return .events
        }
        // Stdin may end early (run from a script); only the server going away ends the stay.
        while let part = await group.next() {
          if part == .server { group.cancelAll() }
        }
      }
    } onGracefulShutdown: {
      state.leaving = true
      connection.send(IRCMessage("QUIT", "shutting down"))
      connection.shutdown()
    }
    goOffline()
  }

  // MARK: Server

  private func readServer(_ connection: IRCConnection, _ state: SessionState) async {
    do {
      for try await line in connection.lines() {
        guard let message = IRCMessage(line: line) else { continue }
        handle(message, connection, state)
      }
      Transcript.status(state.leaving ? "left the server" : "the server closed the connection")
    } catch {
      Transcript.status(state.leaving ? "left the server" : "connection lost: \(error)")
    }
  }

  private func handle(_ message: IRCMessage, _ connection: IRCConnection, _ state: SessionState) {
    let parameters = message.parameters
    switch message.command {
    case "PING":
      connection.send(IRCMessage("PONG", parameters.last ?? ""))
    case "001":
      if let assigned = parameters.first { state.nick = assigned }
      state.registered = true
      Transcript.status("registered as \(Escaper.visible(state.nick))")
      connection.send(IRCMessage("JOIN", channel))
    case "433" where !state.registered:
      state.nick += "_"
      Transcript.status("nick taken, trying \(Escaper.visible(state.nick))")
      connection.send(IRCMessage("NICK", state.nick))
    case "JOIN":
      if let sender = message.senderNick, IRCName.same(sender, state.nick) {
        Transcript.status("joined \(Escaper.visible(parameters.first ?? channel))")
      }
    case "PRIVMSG" where parameters.count >= 2:
      received(from: message.senderNick ?? "?", to: parameters[0], text: parameters[1], state)
    case "NOTICE" where parameters.count >= 2:
      Transcript.chat("notice", message.senderNick ?? "server", IRCName.plainText(parameters[1]))
    case "ERROR":
      Transcript.status("server error: \(Escaper.visible(parameters.last ?? "", limit: 200))")
    default:
      // Error numerics (400-599) say why a command failed; show their text.
      if let code = Int(message.command), (400..<600).contains(code) {
        Transcript.status(
          "server: \(Escaper.visible(parameters.dropFirst().joined(separator: " "), limit: 300))")
      }
    }
  }

  private func received(from sender: String, to target: String, text raw: String, _ state: SessionState) {
    guard !IRCName.same(sender, state.nick) else { return }
    var text = raw
    if text.hasPrefix("\u{1}") {
      // CTCP: show /me actions, ignore the rest (VERSION, PING, ...).
      let inner = text.trimmingCharacters(in: CharacterSet(charactersIn: "\u{1}"))
      guard inner.hasPrefix("ACTION ") else { return }
      text = "* " + inner.dropFirst("ACTION ".count)
    }
    text = IRCName.plainText(text)
    let isPrivate = IRCName.same(target, state.nick)
    Transcript.chat(isPrivate ? "private" : target, sender, text)
    let reason: ChatNotifier.Reason
    if isPrivate {
      reason = .privateMessage
    } else if IRCName.mentions(text, nick: state.nick) {
      reason = .mention
    } else {
      return
    }
    if let error = notifier.notify(sender: sender, text: text, reason: reason) {
      Transcript.error("could not show the notification, kept for later: \(error)")
    }
  }

  // MARK: Stdin

  private func readStdin(_ connection: IRCConnection, _ state: SessionState) async {
    do {
      for try await line in LineReader.lines(of: STDIN_FILENO) {
        do {
          guard let command = try StdinCommand(line: line) else { continue }
          try perform(command, connection, state)
        } catch let error as ChatError {
          Transcript.error(error.description)
        } catch {
          Transcript.error("\(error)")
        }
      }
    } catch {
      Transcript.error("cannot read stdin: \(error)")
    }
  }

  private func perform(_ command: StdinCommand, _ connection: IRCConnection, _ state: SessionState) throws {
    switch command {
    case .say(let text):
      connection.send(IRCMessage("PRIVMSG", channel, text))
      Transcript.chat(channel, state.nick, text)
      try notifier.markAllRead()
    case .message(let nick, let text):
      connection.send(IRCMessage("PRIVMSG", nick, text))
      Transcript.chat("to \(nick)", state.nick, text)
      try notifier.markAllRead()
    case .remind(let delay, let text):
      let outcome = try notifier.remind(after: delay, text: text)
      let at = outcome.stored.nextFireDate.map { RFC3339.string(from: $0) } ?? "now"
      Transcript.status(
        "reminder \(outcome.stored.notification.id) at \(at); fired by \(firesInProcess ? "this client while online, else " : "")the notify daemon"
      )
      for gone in outcome.discarded {
        Transcript.status("warning: the 64-pending limit discarded \(gone.notification.id)")
      }
    case .pending:
      let pending = try center.pending()
      if pending.isEmpty { Transcript.status("no scheduled reminders") }
      for stored in pending {
        let at = stored.nextFireDate.map { RFC3339.string(from: $0) } ?? "-"
        Transcript.status("\(stored.notification.id) at \(at)")
      }
    case .cancel(let id):
      Transcript.status(try center.cancel(id: id) ? "cancelled \(id)" : "\(id) was not pending")
    case .quit(let text):
      state.leaving = true
      connection.send(IRCMessage("QUIT", text ?? "bye"))
      connection.shutdown()
    case .help:
      Transcript.status(StdinCommand.usage)
    }
  }

  // MARK: Events

  private func watch(_ events: AsyncStream<NotificationEvent>) async {
    for await event in events {
      guard case .activated = event.kind, case .string(let sender)? = event.userInfo["sender"] else {
        continue
      }
      // Opening a message notification means the user is reading.
      Transcript.status("opened the message from \(Escaper.visible(sender))")
      try? notifier.markAllRead()
    }
  }

  // MARK: Offline

  private func goOffline() {
    Transcript.status("offline")
    let task = center.beginBackgroundTask(name: "offline-flush", budget: offlineBudget) {
      Transcript.status("offline budget nearly spent: handing what is left to the daemon")
    }
    defer { task.end() }
    let (shown, handedOver) = notifier.flush(within: task)
    var fired = 0
    if firesInProcess {
      do {
        fired = try center.deliverDueNotifications(within: task)
      } catch {
        Transcript.error("\(error)")
      }
    }
    let left = (try? center.pending().count) ?? 0
    Transcript.status(
      "offline: showed \(shown) owed, fired \(fired) due, handed \(handedOver) to the daemon; "
        + "\(left) scheduled notification\(left == 1 ? "" : "s") left to the daemon "
        + "(\(String(format: "%.1f", task.timeRemaining)) s of budget unused)")
  }
}

/// What the session knows about itself; read and written from the reader tasks.
final class SessionState: @unchecked Sendable {
  private let lock = NSLock()
  private var currentNick: String
  private var isRegistered = false
  private var isLeaving = false

  init(nick: String) { currentNick = nick }

  var nick: String {
    get { lock.withLock { currentNick } }
    set { lock.withLock { currentNick = newValue } }
  }

  var registered: Bool {
    get { lock.withLock { isRegistered } }
    set { lock.withLock { isRegistered = newValue } }
  }

  /// True once the client chose to leave (/quit, SIGTERM), so a reset is no surprise.
  var leaving: Bool {
    get { lock.withLock { isLeaving } }
    set { lock.withLock { isLeaving = newValue } }
  }
}

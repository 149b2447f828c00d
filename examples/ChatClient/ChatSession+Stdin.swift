import Foundation
import Notify
import NotifyCore

extension ChatSession {
  /// Reads commands from stdin until it ends (or the session does).
  func readStdin(_ link: ServerLink, _ state: SessionState, _ inbox: PresenterInbox) async {
    do {
      for try await line in LineReader.lines(of: STDIN_FILENO) {
        // Anything typed keeps the client in the foreground (`TypingActivity`).
        state.typed(at: .now)
        do {
          guard let command = try StdinCommand(line: line) else { continue }
          try await perform(command, link, state, inbox)
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

  private func perform(
    _ command: StdinCommand, _ link: ServerLink, _ state: SessionState, _ inbox: PresenterInbox
  ) async throws {
    switch command {
    case .say(let text):
      // Saying something means reading: the presenter clears the badge and withdraws the
      // bubbles of the messages that came before. Told before the echo, so that what comes
      // after the echo counts anew. Other commands do not read: after /quit the bubbles
      // stay up for a click to open the client again.
      inbox.put(.read)
      let conversation = state.conversation
      guard say(text, to: conversation.target(channel: channel), link, state) else { return }
      switch conversation {
      case .channel: Transcript.chat(channel, state.nick, text)
      case .privateChat(let nick): Transcript.chat("to \(nick)", state.nick, text)
      }
    case .message(let nick, let text):
      inbox.put(.read)
      guard say(text, to: nick, link, state) else { return }
      Transcript.chat("to \(nick)", state.nick, text)
    case .query(let nick):
      open(nick.map { .privateChat(with: $0) } ?? .channel, state)
    case .remind(let delay, let text):
      let last = try await center.history(limit: 1).first?.sequence ?? 0
      let id = try await remind(after: delay, text: text)
      let pending = try await center.pendingNotificationSchedules()
      let at =
        pending.first { $0.notification.id == id }?.nextFireDate.map { RFC3339.string(from: $0) } ?? "now"
      Transcript.status(
        "reminder \(id) at \(at); fired by \(firesInProcess ? "this client while online, else " : "")the notify daemon"
      )
      // The 64-pending limit makes room by discarding what fires last (history says which).
      for event in try await center.history(limit: PendingLimit.maximum)
      where event.sequence > last && event.kind == .discarded {
        Transcript.status("warning: the 64-pending limit discarded \(event.notificationID)")
      }
    case .pending:
      let pending = try await center.pendingNotificationSchedules()
      if pending.isEmpty { Transcript.status("no scheduled reminders") }
      for stored in pending {
        let at = stored.nextFireDate.map { RFC3339.string(from: $0) } ?? "-"
        Transcript.status("\(stored.notification.id) at \(at)")
      }
    case .cancel(let id):
      let pending = try await center.pendingNotificationRequests().contains { $0.identifier == id }
      try await center.removePendingNotificationRequests(withIdentifiers: [id])
      Transcript.status(pending ? "cancelled \(id)" : "\(id) was not pending")
    case .quit(let text):
      state.leaving = true
      link.quit(text ?? "bye")
    case .help:
      Transcript.status(StdinCommand.usage)
    }
  }

  /// How long a reminder's Snooze button puts it off: 5 minutes.
  static let reminderSnooze = 300

  /// Schedules a reminder in the shared store; the daemon fires it if the client is gone.
  /// Returns its id.
  private func remind(after delay: TimeInterval, text: String) async throws(NotificationError) -> String {
    let request = NotificationRequest(
      content: NotificationContent(
        title: "Reminder", body: text, sound: .default,
        userInfo: ["channel": .string(channel), "kind": .string("reminder")],
        actions: [.snooze(seconds: Self.reminderSnooze)]),
      trigger: .after(.milliseconds(Int64((delay * 1000).rounded()))))
    try await center.add(request)
    return request.identifier
  }
}

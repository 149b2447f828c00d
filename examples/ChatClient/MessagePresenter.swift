import Notify

/// Shows chat messages as notifications, apart from the IRC reader: the reader puts
/// messages in the `PresenterInbox` and goes on reading; the presenter takes them, keeps
/// the `MessageOutbox` and does what it decides, in order.
///
/// Presenting may wait (up to the desktop sink's 5 s call timeout on a hung server); the
/// center's `async` calls wait without holding a thread of the cooperative pool, so the
/// presenter is an ordinary child task beside the reader.
struct MessagePresenter: Sendable {
  let center: LocalNotificationCenter
  /// Whether the notification server answers again; asked after a call timed out, before
  /// it is sent anything more.
  let serverAnswers: @Sendable () async -> Bool

  init(center: LocalNotificationCenter, serverAnswers: @escaping @Sendable () async -> Bool) {
    self.center = center
    self.serverAnswers = serverAnswers
  }

  /// A presenter for `center`; when notifications go to the desktop, the probe asks the
  /// notification server for its capabilities on a connection of its own, which shows
  /// nothing (`notificationServerAnswers`).
  init(center: LocalNotificationCenter) {
    self.init(center: center) { await center.notificationServerAnswers(timeout: .seconds(2)) }
  }

  /// Presents what arrives in `inbox` until it is closed; returns the outbox with what is
  /// still owed, for going offline.
  func run(_ inbox: PresenterInbox, from start: MessageOutbox) async -> MessageOutbox {
    var outbox = start
    var failing = false
    while true {
      await absorb(inbox.takeAll(), into: &outbox)
      if inbox.isClosed {
        await absorb(inbox.takeAll(), into: &outbox)
        return outbox
      }
      switch outbox.nextAction(now: .now) {
      case .present(let message, let badge):
        let (outcome, error, onScreen) = await present(message, badge: badge)
        outbox.presented(message.id, outcome, now: .now, onScreen: onScreen)
        if let error {
          // A refusal is told once per outage, not on every retry.
          if !failing || outcome != .refused {
            Transcript.status(Self.describe(outcome, of: message.id, error: error, owed: outbox.owed.count))
          }
          failing = true
        } else if failing {
          failing = false
          Transcript.status("notifications are shown again")
        }
      case .probe:
        let answered = await serverAnswers()
        outbox.probed(answered: answered, now: .now)
        if answered { Transcript.status("the notification server answers again") }
      case .wait(let deadline):
        await inbox.wait(until: deadline)
      }
    }
  }

  /// Going offline: presents what is owed until `task` expires or the sink fails, then
  /// schedules the rest to fire at once, under the same ids, so that the daemon shows it
  /// after the client is gone. Returns (shown, handed over).
  func flush(_ outbox: inout MessageOutbox, within task: BackgroundTask) async -> (
    shown: Int, handedOver: Int
  ) {
    outbox.retryNow()
    var shown = 0
    attempts: while !task.checkExpiration() {
      switch outbox.nextAction(now: .now) {
      case .present(let message, let badge):
        let (outcome, _, onScreen) = await present(message, badge: badge)
        outbox.presented(message.id, outcome, now: .now, onScreen: onScreen)
        if outcome == .shown { shown += 1 }
      case .probe:
        outbox.probed(answered: await serverAnswers(), now: .now)
      case .wait:
        // Nothing owed, or the sink failed: no waiting now.
        break attempts
      }
    }
    let badge = outbox.unread
    var handedOver = 0
    for message in outbox.takeOwed() {
      do {
        try await center.add(
          NotificationRequest(
            identifier: message.id, content: message.content(badge: badge), trigger: .immediately))
        handedOver += 1
      } catch {
        Transcript.error("could not hand message \(message.id) to the daemon: \(error)")
      }
    }
    return (shown, handedOver)
  }

  /// Applies what arrived, in order. Reading clears the badge and withdraws the bubbles
  /// shown since the last read, at once.
  private func absorb(_ inputs: [PresenterInput], into outbox: inout MessageOutbox) async {
    for input in inputs {
      switch input {
      case .message(let message):
        outbox.received(message)
      case .read:
        let read = outbox.markedRead()
        do {
          try await center.setBadgeCount(0)
        } catch {
          Transcript.error("could not clear the badge: \(error)")
        }
        await withdraw(read)
      }
    }
  }

  /// Takes the bubbles of messages the user has read off the screen. A hung notification
  /// server may hold the call up to its timeout; the presenter waits, the reader does not.
  private func withdraw(_ ids: [String]) async {
    guard !ids.isEmpty else { return }
    do {
      try await center.removeDeliveredNotifications(withIdentifiers: ids)
    } catch {
      Transcript.error("could not withdraw \(ids.count) read message\(ids.count == 1 ? "" : "s"): \(error)")
    }
  }

  /// One attempt, under the message's own id: how it ended, the error when it failed, and
  /// whether it went to the screen (not when the user is typing: `TypingActivity`).
  private func present(_ message: ChatMessage, badge: Int) async -> (
    outcome: MessageOutbox.Outcome, error: NotificationError?, onScreen: Bool
  ) {
    do {
      let delivery = try await center.add(
        NotificationRequest(identifier: message.id, content: message.content(badge: badge), trigger: nil))
      return (.shown, nil, delivery?.presentation.contains(.banner) ?? false)
    } catch {
      return (MessageOutbox.Outcome(error), error, false)
    }
  }

  /// The status line for a failed attempt. It names the message by id, never by content.
  static func describe(_ outcome: MessageOutbox.Outcome, of id: String, error: NotificationError, owed: Int)
    -> String
  {
    switch outcome {
    case .shown:
      return "showed \(id)"
    case .refused:
      return
        "could not show \(id) (\(error)); \(owed) owed, tried again when a message arrives or the server is back"
    case .inDoubt:
      return "no answer for \(id) (\(error)); the server may still show it, so it is not sent again; "
        + "later messages wait until the server answers"
    case .rejected:
      return "cannot show \(id), dropped: \(error)"
    }
  }
}

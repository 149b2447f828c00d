import Foundation
import Notify

/// Turns chat traffic into local notifications: a private message or a mention becomes a
/// notification presented now, `/remind` schedules one for later. Keeps the unread count
/// that the badge shows, and an outbox of messages the sink could not show yet.
final class ChatNotifier: @unchecked Sendable {
  /// Why a message deserves a notification.
  enum Reason: String, Sendable {
    /// Sent to us alone.
    case privateMessage = "private"
    /// Said in the channel, naming us.
    case mention
  }

  let center: LocalNotificationCenter
  /// The channel the client is in; private messages carry it too, as where to answer.
  let channel: String

  private let lock = NSLock()
  private var unread: Int
  private var outbox: [NotificationContent] = []

  init(center: LocalNotificationCenter, channel: String) {
    self.center = center
    self.channel = channel
    // Carry on counting from the badge a previous run left.
    self.unread = (try? center.badge()) ?? 0
  }

  /// The notification for a message: body `SENDER: TEXT`, the default sound, the unread
  /// count as badge, sender and channel in userInfo.
  func content(sender: String, text: String, reason: Reason) -> NotificationContent {
    let count = lock.withLock {
      unread = min(unread + 1, Validator.maxBadge)
      return unread
    }
    let body = String("\(sender): \(text)".prefix(Validator.maxBody))
    return NotificationContent(
      body: body, sound: .default, badge: count,
      userInfo: ["sender": .string(sender), "channel": .string(channel), "kind": .string(reason.rawValue)])
  }

  /// Shows a message now; when the sink refuses it, keeps it in the outbox for the next
  /// flush and returns the error.
  @discardableResult
  func notify(sender: String, text: String, reason: Reason) -> NotifyError? {
    let content = content(sender: sender, text: text, reason: reason)
    do {
      try center.present(content)
      return nil
    } catch {
      lock.withLock { outbox.append(content) }
      return error
    }
  }

  /// The user is reading: nothing is unread any more.
  func markAllRead() throws(NotifyError) {
    lock.withLock { unread = 0 }
    try center.setBadge(0)
  }

  /// Schedules a reminder in the shared store; the daemon fires it if the client is gone.
  func remind(after delay: TimeInterval, text: String) throws(NotifyError) -> ScheduleOutcome {
    try center.schedule(
      NotificationContent(
        title: "Reminder", body: text, sound: .default,
        userInfo: ["channel": .string(channel), "kind": .string("reminder")]),
      trigger: .after(.milliseconds(Int64((delay * 1000).rounded()))))
  }

  /// How many messages wait in the outbox.
  var owed: Int { lock.withLock { outbox.count } }

  /// Shows what the outbox holds until `task` expires. What is left is scheduled to fire
  /// at once, so the daemon shows it after the client is gone. Returns (shown, handed over).
  func flush(within task: BackgroundTask) -> (shown: Int, handedOver: Int) {
    var shown = 0
    while !task.checkExpiration(), let next = lock.withLock({ outbox.isEmpty ? nil : outbox.removeFirst() }) {
      do {
        try center.present(next)
        shown += 1
      } catch {
        lock.withLock { outbox.insert(next, at: 0) }
        break
      }
    }
    let rest = lock.withLock {
      defer { outbox.removeAll() }
      return outbox
    }
    var handedOver = 0
    for content in rest where (try? center.schedule(content, trigger: .immediately)) != nil {
      handedOver += 1
    }
    return (shown, handedOver)
  }
}

import Foundation
import Notify

/// What the session knows about itself; read and written from the reader tasks, the
/// presenter and the center's presentation handler.
final class SessionState: @unchecked Sendable {
  // Safe: every stored property is only touched with `lock` held, and the lock is never
  // held across a call out.
  private let lock = NSLock()
  private var currentNick: String
  private var isRegistered = false
  private var isLeaving = false
  private var hasGivenUp = false
  private var numbering = MessageNumbering()
  private var currentConversation: Conversation
  private var typing = TypingActivity()
  private var heldReplies: [NotificationEvent] = []

  init(nick: String, conversation: Conversation = .channel) {
    currentNick = nick
    currentConversation = conversation
  }

  var nick: String {
    get { lock.withLock { currentNick } }
    set { lock.withLock { currentNick = newValue } }
  }

  var registered: Bool {
    get { lock.withLock { isRegistered } }
    set { lock.withLock { isRegistered = newValue } }
  }

  /// Notes the server's welcome on a connection; returns the replies held until then
  /// (`holdUntilRegistered`), each once.
  func noteRegistration() -> [NotificationEvent] {
    lock.withLock {
      isRegistered = true
      defer { heldReplies = [] }
      return heldReplies
    }
  }

  /// Holds `reply` for the next registration and returns true, unless the client is
  /// registered now (false: send it at once). In one step, so that a reply is neither
  /// lost nor sent twice when the welcome comes meanwhile.
  func holdUntilRegistered(_ reply: NotificationEvent) -> Bool {
    lock.withLock {
      guard !isRegistered else { return false }
      heldReplies.append(reply)
      return true
    }
  }

  /// True once the client could not get back onto the server after the connection dropped.
  var gaveUp: Bool {
    get { lock.withLock { hasGivenUp } }
    set { lock.withLock { hasGivenUp = newValue } }
  }

  /// True once the client chose to leave (/quit, SIGTERM), so a reset is no surprise.
  var leaving: Bool {
    get { lock.withLock { isLeaving } }
    set { lock.withLock { isLeaving = newValue } }
  }

  /// Where lines typed without a command go.
  var conversation: Conversation {
    get { lock.withLock { currentConversation } }
    set { lock.withLock { currentConversation = newValue } }
  }

  /// The id of the next message that becomes a notification.
  func nextMessageID() -> String { lock.withLock { numbering.next() } }

  /// The user typed a line at `instant`.
  func typed(at instant: ContinuousClock.Instant) { lock.withLock { typing.typed(at: instant) } }

  /// How notifications are presented at `now` (`TypingActivity`).
  func presentation(now: ContinuousClock.Instant) -> PresentationOptions {
    lock.withLock { typing.presentation(now: now) }
  }
}

import Notify
import NotifyCore

/// The presenter's rules as a value: the messages still owed, in order, the unread count
/// that badges show, and when to try again. Time comes in as an argument; presenting,
/// probing and waiting are the caller's (`MessagePresenter`), which reports back.
///
/// - Each message is presented until it is shown, then never again: a later message
///   failing does not bring back an earlier one.
/// - A sink that refused for sure (`unavailable`: no server) is tried again, oldest
///   first, at once when a new message arrives, else after a backoff (1 s doubling to
///   30 s).
/// - A call that failed in another way may have shown the bubble (a timed-out D-Bus call
///   stays queued for a hung server, which shows it when it wakes up): the message is
///   not sent again. After a timeout nothing more is sent until the server answers a
///   probe, so later messages do not pile up behind the hung one.
/// - The badge is the unread count when the message is shown, so it never goes down
///   until the user reads; reading sets it to 0.
/// - The messages shown on screen since the user last read are remembered: reading hands
///   their ids back, to withdraw their bubbles.
struct MessageOutbox: Sendable {
  /// What the caller should do next.
  enum Action: Hashable, Sendable {
    /// Present this message with this badge, then report with `presented(_:_:now:)`.
    case present(ChatMessage, badge: Int)
    /// Ask whether the notification server answers again, then report with `probed`.
    case probe
    /// Nothing to do until a message or a read arrives, or until the instant (if any).
    case wait(until: ContinuousClock.Instant?)
  }

  /// How presenting a message ended.
  enum Outcome: Hashable, Sendable {
    /// The sink showed it.
    case shown
    /// The sink said for sure that it did not show it: try again later.
    case refused
    /// The sink may have shown it (a timeout, or a failure after the sink took it).
    case inDoubt
    /// It can never be shown (invalid content): give it up.
    case rejected

    /// The outcome a failure of `LocalNotificationCenter.add` stands for.
    init(_ error: NotificationError) {
      switch error {
      case .serverUnavailable: self = .refused
      case .invalidContent, .soundRejected: self = .rejected
      default: self = .inDoubt
      }
    }
  }

  static let firstBackoff: Duration = .seconds(1)
  static let longestBackoff: Duration = .seconds(30)
  /// How many shown ids are remembered until the user reads; older ones are forgotten, so
  /// a client nobody reads does not grow without end (their bubbles then stay up).
  static let rememberedShown = 256

  /// Messages not shown yet, oldest first.
  private(set) var owed: [ChatMessage] = []
  /// Messages since the user last read, capped at the largest badge.
  private(set) var unread: Int
  /// The ids of the messages shown on screen since the user last read, oldest first.
  private(set) var shownSinceRead: [String] = []
  /// A call timed out: the server must answer a probe before it gets another message.
  private(set) var serverSuspect = false
  /// The delay after the last failure; nil after a success.
  private var backoff: Duration?
  /// No attempt before this instant; nil: at once.
  private var retryAt: ContinuousClock.Instant?

  /// An outbox counting on from `unread` (the badge a previous run left).
  init(unread: Int) {
    self.unread = min(max(unread, 0), Validator.maxBadge)
  }

  /// A message arrived: one more unread, owed after the others. A new message is also
  /// the moment to try the owed ones again.
  mutating func received(_ message: ChatMessage) {
    unread = min(unread + 1, Validator.maxBadge)
    owed.append(message)
    retryAt = nil
  }

  /// The user read everything. Returns the ids of the messages shown on screen since the
  /// last read, oldest first, whose bubbles are now to be withdrawn.
  @discardableResult
  mutating func markedRead() -> [String] {
    unread = 0
    defer { shownSinceRead.removeAll() }
    return shownSinceRead
  }

  /// What to do at `now`.
  func nextAction(now: ContinuousClock.Instant) -> Action {
    guard let first = owed.first else { return .wait(until: nil) }
    if let retryAt, now < retryAt { return .wait(until: retryAt) }
    if serverSuspect { return .probe }
    return .present(first, badge: unread)
  }

  /// Presenting the message `id` ended with `outcome`. `onScreen` is false for a message
  /// shown in the transcript only (presentation `.none`): it has no bubble to withdraw.
  mutating func presented(
    _ id: String, _ outcome: Outcome, now: ContinuousClock.Instant, onScreen: Bool = true
  ) {
    guard owed.first?.id == id else { return }
    switch outcome {
    case .shown:
      owed.removeFirst()
      backoff = nil
      retryAt = nil
      if onScreen {
        shownSinceRead.append(id)
        if shownSinceRead.count > Self.rememberedShown { shownSinceRead.removeFirst() }
      }
    case .rejected:
      owed.removeFirst()
    case .inDoubt:
      owed.removeFirst()
      serverSuspect = true
      backOff(now: now)
    case .refused:
      backOff(now: now)
    }
  }

  /// The probe found the server answering, or not.
  mutating func probed(answered: Bool, now: ContinuousClock.Instant) {
    if answered {
      serverSuspect = false
      backoff = nil
      retryAt = nil
    } else {
      backOff(now: now)
    }
  }

  /// Drops the backoff: the next action is an attempt (going offline tries once more).
  mutating func retryNow() {
    retryAt = nil
  }

  /// Takes every owed message out, oldest first (to hand them to the daemon).
  mutating func takeOwed() -> [ChatMessage] {
    defer { owed.removeAll() }
    return owed
  }

  private mutating func backOff(now: ContinuousClock.Instant) {
    let delay = backoff.map { min($0 * 2, Self.longestBackoff) } ?? Self.firstBackoff
    backoff = delay
    retryAt = now + delay
  }
}

import Foundation

/// What the session knows about itself; read and written from the reader tasks.
final class SessionState: @unchecked Sendable {
  // Safe: every stored property is only touched with `lock` held.
  private let lock = NSLock()
  private var currentNick: String
  private var isRegistered = false
  private var isLeaving = false
  private var numbering = MessageNumbering()

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

  /// The id of the next message that becomes a notification.
  func nextMessageID() -> String { lock.withLock { numbering.next() } }
}

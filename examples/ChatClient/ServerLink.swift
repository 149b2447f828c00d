import Foundation

/// The client's way to the IRC server across reconnects: the connection of the current
/// stay, if one is up. What is sent while none is up is dropped, and the sender is told.
final class ServerLink: @unchecked Sendable {
  // Safe: `current` and `goodbye` are only touched with `lock` held; the connection's own
  // calls are made after the lock is let go (they take the connection's lock).
  private let lock = NSLock()
  private var current: IRCConnection?
  private var goodbye: String?

  /// Makes `connection` the one lines go to. A link the client is leaving says goodbye on
  /// it at once.
  func use(_ connection: IRCConnection) {
    let leaving: String? = lock.withLock {
      current = connection
      return goodbye
    }
    if let leaving { Self.quit(connection, leaving) }
  }

  /// `connection` is gone: nothing goes to it any more.
  func drop(_ connection: IRCConnection) {
    lock.withLock { if current === connection { current = nil } }
  }

  /// Sends `message` on the current connection; false when none is up.
  @discardableResult
  func send(_ message: IRCMessage) -> Bool {
    guard let connection = lock.withLock({ current }) else { return false }
    connection.send(message)
    return true
  }

  /// Leaves the server: QUIT with `text` on the current connection, which is then shut
  /// down, and on any later one.
  func quit(_ text: String) {
    let connection: IRCConnection? = lock.withLock {
      goodbye = text
      return current
    }
    if let connection { Self.quit(connection, text) }
  }

  private static func quit(_ connection: IRCConnection, _ text: String) {
    connection.send(IRCMessage("QUIT", text))
    connection.shutdown()
  }
}

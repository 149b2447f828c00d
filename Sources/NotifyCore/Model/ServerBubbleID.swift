/// The id a notification server gave a bubble (`Notify`'s return value), and the server
/// instance that gave it: the session bus's id and the server's unique name
/// (`DesktopSink.serverInstance`). Ids only mean something to that instance: another one
/// (a restarted server, another login's bus) may use the same number for someone else's
/// bubble, so an id is sent as `replaces_id` or closed only where `server` answers.
public struct ServerBubbleID: Hashable, Sendable {
  /// The server's id of the bubble.
  public var id: UInt32
  /// The server instance that gave it (`bus id/unique name`); nil when it was not known,
  /// and then the id is never sent back to a server.
  public var server: String?

  /// Creates an id.
  public init(_ id: UInt32, server: String?) {
    self.id = id
    self.server = server
  }

  /// The id to send as `replaces_id` to the server instance `answering` now: this one when
  /// that instance gave it, else 0 (a new bubble).
  public func replacesID(on answering: String?) -> UInt32 {
    guard let server, server == answering else { return 0 }
    return id
  }
}

extension DesktopSink {
  /// The server id of `key`'s last bubble, sent as `replaces_id` when it is shown again.
  public func serverID(for key: DesktopNotificationKey) -> UInt32? {
    session.serverIDs[key]
  }

  /// Every known server id, for a store to persist (see also `onServerIDChange`).
  public var allServerIDs: [DesktopNotificationKey: UInt32] { session.serverIDs }

  /// Restores server ids persisted by a store, so a restarted process still replaces
  /// bubbles the same server showed. Ids only mean something to the server that gave them.
  public func restoreServerIDs(_ ids: [DesktopNotificationKey: UInt32]) {
    session.restore(ids)
  }
}

extension DesktopSink {
  /// The server id of `key`'s last bubble as this sink saw it, sent as `replaces_id` when it
  /// is shown again and no store keeps the ids (`storeKeepsServerIDs`); a store gets each one
  /// in the delivery's receipt instead (`DeliveryReceipt.bubble`).
  public func serverID(for key: DesktopNotificationKey) -> UInt32? {
    session.serverIDs[key]
  }
}

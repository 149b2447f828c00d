import CSystemd
import NotifyCore

extension DesktopSink {
  /// Takes the app's notification `id` off the screen (`CloseNotification`), whichever
  /// process showed it: the server id is the one this sink knows, else `stored` (the store
  /// keeps every shown notification's id and the server instance that gave it) when the
  /// server answering now gave it. Returns false when neither applies: the bubble is not
  /// on this server's screen, and an id from another server would close someone else's.
  /// The server's `NotificationClosed` echo (reason 3) is not reported: the caller records
  /// the withdrawal.
  public func withdraw(app: String, id: String, stored: ServerBubbleID?) throws(NotifyError) -> Bool {
    let key = DesktopNotificationKey(app: app, id: id)
    let target: UInt32? = try withConnection(needsServer: true) { connection throws(BusFailure) -> UInt32? in
      let instance = serverInstance(on: connection)
      let fromStore = stored.flatMap { $0.server != nil && $0.server == instance ? $0.id : nil }
      guard let serverID = session.serverIDs[key] ?? fromStore else { return nil }
      let message = try connection.methodCall(
        destination: DesktopSink.busName, path: DesktopSink.objectPath, interface: DesktopSink.interface,
        member: "CloseNotification")
      try message.append(serverID)
      _ = try connection.call(
        message, timeout: configuration.callTimeout, operation: "calling CloseNotification")
      return serverID
    }
    guard let serverID = target else { return false }
    // The caller forgets the stored id with the withdrawal it records.
    _ = session.closed(serverID)
    return true
  }
}

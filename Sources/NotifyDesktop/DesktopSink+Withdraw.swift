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
  public func withdraw(app: String, id: String, stored: (serverID: UInt32, server: String?)?)
    throws(NotifyError)
    -> Bool
  {
    let key = DesktopNotificationKey(app: app, id: id)
    let target: UInt32? = try withConnection(needsServer: true) { connection throws(BusFailure) -> UInt32? in
      let fromStore = stored.flatMap { stored in
        stored.server != nil && stored.server == serverInstance(on: connection) ? stored.serverID : nil
      }
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
    if let (_, change) = session.closed(serverID) { report(change.map { [$0] } ?? []) }
    return true
  }
}

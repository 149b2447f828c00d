import CSystemd
import NotifyCore

extension DesktopSink {
  /// Takes the app's notification `id` off the screen (`CloseNotification`), whichever
  /// process showed it: the server id is the one this sink knows, else `storedServerID`
  /// (the store keeps every shown notification's id). Returns false when neither is known.
  /// The server's `NotificationClosed` echo (reason 3) is not reported: the caller records
  /// the withdrawal.
  public func withdraw(app: String, id: String, storedServerID: UInt32?) throws(NotifyError) -> Bool {
    let key = DesktopNotificationKey(app: app, id: id)
    guard let serverID = session.serverIDs[key] ?? storedServerID else { return false }
    try withConnection(needsServer: true) { connection throws(BusFailure) in
      let message = try connection.methodCall(
        destination: DesktopSink.busName, path: DesktopSink.objectPath, interface: DesktopSink.interface,
        member: "CloseNotification")
      try message.append(serverID)
      _ = try connection.call(
        message, timeout: configuration.callTimeout, operation: "calling CloseNotification")
    }
    if let (_, change) = session.closed(serverID) { report(change.map { [$0] } ?? []) }
    return true
  }
}

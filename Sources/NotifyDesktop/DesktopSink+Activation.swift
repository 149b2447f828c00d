import CSystemd
import NotifyCore

extension DesktopSink {
  /// Asks the app that owns (or can be D-Bus-activated as) `busName` to handle a click:
  /// `org.freedesktop.Application.ActivateAction(actionKey, [<notification id>],
  /// {activation-token, desktop-startup-id})` at `objectPath`. The bus daemon starts the
  /// app when it is not running. The call is sent without waiting for the app: a slow
  /// start must not hold up the firing loop. Returns false when nobody owns the name and
  /// no service file can start it.
  public func activateApplication(
    busName: String, objectPath: String, actionKey: String, notificationID: String, activationToken: String?
  ) throws(NotifyError) -> Bool {
    let reachable: Bool
    do throws(BusFailure) {
      let connection = try ready(needsServer: false)
      reachable = try Self.canReach(busName, on: connection, timeout: configuration.callTimeout)
      guard reachable else { return false }
      let message = try connection.methodCall(
        destination: busName, path: objectPath, interface: "org.freedesktop.Application",
        member: "ActivateAction")
      try message.append(actionKey)
      try message.container("a", "v") { () throws(BusFailure) in
        try message.container("v", "s") { () throws(BusFailure) in try message.append(notificationID) }
      }
      try message.container("a", "{sv}") { () throws(BusFailure) in
        if let activationToken {
          try message.appendEntry("activation-token", .string(activationToken))
          try message.appendEntry("desktop-startup-id", .string(activationToken))
        }
      }
      try BusFailure.check(
        sd_bus_message_set_expect_reply(message.handle, 0), "marking ActivateAction one-way")
      try connection.send(message, operation: "calling ActivateAction")
    } catch {
      throw NotifyError(.unavailable, "could not ask \(busName) to open: \(error)", fix: nil)
    }
    return reachable
  }

  /// Whether `name` has an owner or a service file that starts one.
  static func canReach(_ name: String, on connection: BusConnection, timeout: Duration) throws(BusFailure)
    -> Bool
  {
    for member in ["ListNames", "ListActivatableNames"] {
      let message = try connection.busCall(member)
      let reply = try connection.call(message, timeout: timeout, operation: "calling \(member)")
      if try reply.readStringArray().contains(name) { return true }
    }
    return false
  }
}

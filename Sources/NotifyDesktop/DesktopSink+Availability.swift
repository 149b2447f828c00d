extension DesktopSink {
  /// True when a notification server answers `GetCapabilities` on the session bus within
  /// `timeout`: what `--sink auto` asks. Opens and closes its own connection; when the
  /// sink is wanted anyway, `try? DesktopSink()` answers the same question in one go.
  public static func serverAvailable(
    configuration: Configuration = Configuration(), timeout: Duration = .seconds(2)
  ) -> Bool {
    do throws(BusFailure) {
      let connection = try BusConnection(
        address: configuration.busAddress, description: configuration.connectionName)
      let message = try connection.methodCall(
        destination: busName, path: objectPath, interface: interface, member: "GetCapabilities")
      _ = try connection.call(message, timeout: timeout, operation: "calling GetCapabilities")
      return true
    } catch {
      return false
    }
  }
}

/// Who answers as the notification server, and what it can do (`GetServerInformation`,
/// `GetCapabilities`): what `notify status` shows.
public struct NotificationServerInformation: Hashable, Sendable {
  public var name: String
  public var vendor: String
  public var version: String
  public var specVersion: String
  public var capabilities: [String]
}

extension DesktopSink {
  /// The notification server on the session bus, or nil when none answers within `timeout`.
  /// Opens and closes its own connection, and shows nothing.
  public static func serverInformation(
    configuration: Configuration = Configuration(), timeout: Duration = .seconds(2)
  ) -> NotificationServerInformation? {
    do throws(BusFailure) {
      let connection = try BusConnection(
        address: configuration.busAddress, description: configuration.connectionName)
      let info = try connection.call(
        try connection.methodCall(
          destination: busName, path: objectPath, interface: interface, member: "GetServerInformation"),
        timeout: timeout, operation: "calling GetServerInformation")
      let (name, vendor, version, spec) = (
        try info.readString(), try info.readString(), try info.readString(), try info.readString()
      )
      let capabilities = try connection.call(
        try connection.methodCall(
          destination: busName, path: objectPath, interface: interface, member: "GetCapabilities"),
        timeout: timeout, operation: "calling GetCapabilities")
      return NotificationServerInformation(
        name: name, vendor: vendor, version: version, specVersion: spec,
        capabilities: try capabilities.readStringArray())
    } catch {
      return nil
    }
  }
}

extension DesktopSink {
  /// Why the session bus cannot be reached (its daemon does not answer `GetId` within
  /// `timeout`), or nil when it answers: `notify status` tells no bus from no server.
  public static func sessionBusProblem(
    configuration: Configuration = Configuration(), timeout: Duration = .seconds(2)
  ) -> String? {
    do throws(BusFailure) {
      let connection = try BusConnection(
        address: configuration.busAddress, description: configuration.connectionName)
      _ = try connection.call(
        try connection.busCall("GetId"),
        timeout: timeout, operation: "calling GetId")
      return nil
    } catch {
      return "\(error)"
    }
  }
}

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

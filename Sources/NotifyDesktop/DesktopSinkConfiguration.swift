extension DesktopSink {
  /// How the desktop sink talks to the bus.
  public struct Configuration: Sendable {
    /// How long one D-Bus call may take before it fails, so a hung server cannot block
    /// the caller. Default 5 s.
    public var callTimeout: Duration
    /// The session bus address; nil uses this process's session bus (`sd_bus_open_user`,
    /// from `DBUS_SESSION_BUS_ADDRESS` or `XDG_RUNTIME_DIR`). Only ever a session bus.
    public var busAddress: String?
    /// The connection's description in bus debugging tools.
    public var connectionName: String
    /// How long one attempt to start the server by D-Bus activation may take
    /// (`init(followingServer:)`, `startServerIfActivatable()`). Default 2 s.
    public var activationTimeout: Duration = .seconds(2)
    /// How long after a failed start the next one is tried. Default 30 s.
    public var activationRetry: Duration = .seconds(30)

    /// Creates a configuration.
    public init(
      callTimeout: Duration = .seconds(5), busAddress: String? = nil, connectionName: String = "notify"
    ) {
      self.callTimeout = callTimeout
      self.busAddress = busAddress
      self.connectionName = connectionName
    }
  }
}

import NotifyCore

extension DesktopSink {
  /// Connects to the session bus without needing a notification server on it: what
  /// `--sink auto` keeps, to hear one arrive (`NameOwnerChanged`) and go. `serverPresent`
  /// tells whether one answers now.
  ///
  /// Throws `NotifyError.unavailable` (exit 69) when there is no session bus.
  public convenience init(followingServer configuration: Configuration) throws(NotifyError) {
    try self.init(configuration: configuration, requiresServer: false)
  }

  /// Sets `serverPresent`, telling `onServerPresenceChange` when it changed.
  func noteServerPresent(_ present: Bool, owner: String?) {
    guard present != serverPresent else { return }
    serverPresent = present
    onServerPresenceChange?(present, owner)
  }

  /// A failure of a call to the server: a server that nobody owns any more is gone.
  func noteCallFailure(_ failure: BusFailure) {
    if failure.isNoServer { noteServerPresent(false, owner: nil) }
  }
}

extension DesktopSink {
  /// Starts the notification server by D-Bus activation when nobody owns its name: what
  /// `--sink auto` tries before a delivery goes to stdout. A failed start (no service
  /// file, or its program exited) means "no server yet": the next try comes
  /// `activationRetry` later at the earliest, each bounded by `activationTimeout`, and a
  /// server that starts by other means is heard meanwhile (`NameOwnerChanged`). True when
  /// a server answers now.
  public func startServerIfActivatable() -> Bool {
    if serverPresent { return true }
    let now = ContinuousClock.now
    if let last = lastActivationAttempt, last.duration(to: now) < configuration.activationRetry {
      return false
    }
    lastActivationAttempt = now
    do throws(BusFailure) {
      let connection = try ready(needsServer: false)
      let message = try connection.busCall("StartServiceByName")
      try message.append(DesktopSink.busName)
      try message.append(UInt32(0))
      _ = try connection.call(
        message, timeout: configuration.activationTimeout, operation: "starting the notification server")
      try readCapabilities(on: connection)
      logger.notice("started the notification server by D-Bus activation")
      return true
    } catch {
      logger.notice(
        "no notification server yet (\(error)); trying again in \(configuration.activationRetry) at the earliest, or as soon as one appears on the bus"
      )
      return false
    }
  }

  /// `NameHasOwner` for the server's name: asks the bus, starts nothing.
  func nameHasOwner(on connection: BusConnection) throws(BusFailure) -> Bool {
    let message = try connection.busCall("NameHasOwner")
    try message.append(DesktopSink.busName)
    let reply = try connection.call(
      message, timeout: configuration.callTimeout, operation: "calling NameHasOwner")
    return try reply.readBool()
  }
}

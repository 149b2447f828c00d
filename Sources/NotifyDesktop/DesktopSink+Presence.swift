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

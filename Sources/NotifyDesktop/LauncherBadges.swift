import NotifyCore

/// The badges a process has published, by app: docks only see a badge while the
/// connection that emitted it stays on the bus, so they are emitted again on each new one.
struct LauncherBadges {
  private var counts: [String: Int] = [:]

  /// Remembers `count` as `app`'s badge.
  mutating func set(app: String, count: Int) { counts[app] = count }

  /// The badge last published for `app`.
  func count(of app: String) -> Int? { counts[app] }

  /// Every remembered badge, as the signal to emit.
  var entries: [LauncherEntry] {
    counts.sorted { $0.key < $1.key }.map { LauncherEntry(app: $0.key, count: $0.value) }
  }
}

extension DesktopSink {
  /// Shows `count` on `app`'s launcher by emitting `com.canonical.Unity.LauncherEntry.Update`
  /// (`application://APP.desktop`, `count`, `count-visible` false when 0). Docks only see
  /// it while this connection stays on the bus, so the sink remembers the last count per
  /// app and emits it again after a reconnect.
  public func publishBadge(app: String, count: Int) throws {
    // Once per count: a delivery publishes its badge and the firer's badge sync would
    // publish the same count again (every change was broadcast twice). A new connection
    // emits every remembered badge anyway.
    if badges.count(of: app) == count, connection?.isOpen == true { return }
    badges.set(app: app, count: count)
    try withConnection(needsServer: false) { connection throws(BusFailure) in
      try emitBadge(LauncherEntry(app: app, count: count), on: connection)
    }
  }

  /// Emits one LauncherEntry Update signal.
  func emitBadge(_ entry: LauncherEntry, on connection: BusConnection) throws(BusFailure) {
    let message = try connection.signal(
      path: entry.objectPath, interface: LauncherEntry.interface, member: "Update")
    try entry.write(to: message)
    try connection.send(message, operation: "emitting the LauncherEntry Update signal")
  }
}

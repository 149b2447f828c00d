import NotifyDesktop

/// Which version of the interface each connection was written for (`SetClientVersion`),
/// and so which error names it is answered with: a connection that never said is one
/// written for version 3, which knows none of the names later versions added, and gets the
/// names version 3 sent for those failures. Bounded, as `Subscriptions` is, and forgotten
/// when the connection leaves the bus.
struct ClientVersions {
  private var versions: [String: UInt32] = [:]
  /// The most connections remembered at once; past it, a connection is answered as one of
  /// version 3 (its calls still work; only the new names are lost to it).
  static let connections = 4096
  /// The version a connection that never called `SetClientVersion` is written for.
  static let unannounced: UInt32 = 3

  /// `connection` was written for `version`.
  mutating func set(_ version: UInt32, for connection: String) {
    guard versions[connection] != nil || versions.count < Self.connections else { return }
    versions[connection] = version
  }

  /// The version `connection` was written for.
  func version(of connection: String) -> UInt32 { versions[connection] ?? Self.unannounced }

  /// `connection` left the bus.
  mutating func drop(_ connection: String) { versions[connection] = nil }
}

extension SchedulerError {
  /// The D-Bus error name for a client written for `version` of the interface: the errors
  /// added by version 4 go to a client of an earlier version under the name that version
  /// sent for the same failure (`InvalidArgs` for a sound, `Failed` for the store or the
  /// server, `StoreBusy` for a timed-out server), so it reads them as it always did.
  func name(forClientVersion version: UInt32) -> String {
    guard version < 4 else { return name }
    switch self {
    case .soundRejected: return SchedulerError.invalidArgs("").name
    case .storeUnavailable, .serverUnavailable: return SchedulerError.failed("").name
    case .serverTimedOut: return SchedulerError.storeBusy("").name
    case .limitReached, .invalidTrigger, .unknownID, .notAllowed, .storeBusy, .invalidArgs, .failed:
      return name
    }
  }
}

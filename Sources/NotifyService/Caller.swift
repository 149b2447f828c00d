import NotifyCore

/// Who is calling: the connection, what the bus daemon vouches for (its process and user),
/// and the sandbox its process runs in. Every method acts for the app `app(claimed:)`
/// returns, and only there is it decided: outside a sandbox the caller names its app, as
/// `notify --app` does; a Flatpak app acts for itself only.
struct Caller: Hashable, Sendable {
  /// The caller's unique bus name (`:1.42`): where its signals go.
  var connection: String
  /// The caller's process, when the bus says.
  var pid: Int32?
  /// The caller's user, when the bus says.
  var uid: UInt32?
  /// The caller's sandbox (`Sandbox.decide` of what its process shows).
  var sandbox: Sandbox = .none

  /// Refuses a caller whose user is not `owner` (the daemon's): the store is one user's.
  func checkUser(is owner: UInt32) throws(SchedulerError) {
    guard uid == owner else {
      throw .notAllowed(
        "the caller runs as user \(uid.map(String.init) ?? "unknown"), not \(owner): notify serves its own user only; run the program as that user"
      )
    }
  }

  /// The app the call acts for: outside a sandbox the one the caller names, checked as
  /// `--app` is; in Flatpak its own, which it may name or leave empty (`""`: mine); any other
  /// is refused, as is every call from a sandbox notify cannot identify.
  func app(claimed: String) throws(SchedulerError) -> String {
    switch sandbox {
    case .none:
      break
    case .flatpak(let own):
      guard claimed.isEmpty || claimed == own else {
        throw .notAllowed(
          "a sandboxed app acts for itself only: this caller is the Flatpak app '\(own)' (its /.flatpak-info), not '\(Escaper.visible(claimed, limit: 128))'; pass '\(own)' or an empty app id"
        )
      }
      return own
    case .unverified(let reason):
      throw .notAllowed(
        "notify cannot tell who is calling: \(reason); a connection is served for the process that made it, while that process runs: connect again from the process that calls"
      )
    case .unidentified(let reason):
      throw .notAllowed(
        "the caller runs in a sandbox notify cannot identify (\(reason)): only Flatpak apps are recognised, by their /.flatpak-info; run the program as a Flatpak app or outside a sandbox"
      )
    }
    guard !claimed.isEmpty else {
      throw .invalidArgs(
        "the app id is empty: name your app (the first argument), as in notify --app ID; [A-Za-z0-9._-]{1,128}"
      )
    }
    do { try Validator.app(claimed) } catch { throw SchedulerError.from(error) }
    return claimed
  }
}

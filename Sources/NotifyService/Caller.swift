import NotifyCore

/// Who is calling: the connection and what the bus daemon vouches for (its process and
/// user). Every method acts for the app `app(claimed:)` returns, and only there is it
/// decided: outside a sandbox the caller names its app, as `notify --app` does.
struct Caller: Hashable, Sendable {
  /// The caller's unique bus name (`:1.42`): where its signals go.
  var connection: String
  /// The caller's process, when the bus says.
  var pid: Int32?
  /// The caller's user, when the bus says.
  var uid: UInt32?

  /// Refuses a caller whose user is not `owner` (the daemon's): the store is one user's.
  func checkUser(is owner: UInt32) throws(SchedulerError) {
    guard uid == owner else {
      throw .notAllowed(
        "the caller runs as user \(uid.map(String.init) ?? "unknown"), not \(owner): notify serves its own user only; run the program as that user"
      )
    }
  }

  /// The app the call acts for: the one the caller names, checked as `--app` is.
  func app(claimed: String) throws(SchedulerError) -> String {
    guard !claimed.isEmpty else {
      throw .invalidArgs(
        "the app id is empty: name your app (the first argument), as in notify --app ID; [A-Za-z0-9._-]{1,128}"
      )
    }
    do { try Validator.app(claimed) } catch { throw .invalidArgs(error.description) }
    return claimed
  }
}

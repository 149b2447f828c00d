import NotifyCore
import NotifyDesktop

/// What a call to the scheduler failed with: each case is one named D-Bus error
/// (`io.github.notify.Scheduler1.Error.<name>`), its message the CLI's text for the same
/// failure. The store is unchanged after every one of them except `limitReached` and
/// `unknownID`, whose messages say what did take effect.
public enum SchedulerError: Error, Equatable, CustomStringConvertible {
  /// The 64-pending limit discarded a notification of the batch (its message names every
  /// id discarded by the call).
  case limitReached(String)
  /// A trigger the rules refuse (no fire date, an unknown zone or repeat unit, a bad rule).
  case invalidTrigger(String)
  /// Ids that were not pending (Cancel) or not on screen (Withdraw); the others took effect.
  case unknownID(String)
  /// The caller may not act for this app: another user, a sandboxed app naming another app,
  /// a sandbox notify cannot identify.
  case notAllowed(String)
  /// The store stayed locked by another process past its busy timeout: try again.
  case storeBusy(String)
  /// Wrong argument types, unknown keys, text or batches over their bounds, content the rules refuse.
  case invalidArgs(String)
  /// Anything else (the store unreadable): `org.freedesktop.DBus.Error.Failed`.
  case failed(String)

  /// The interface's name for this error; nil for the daemon's own failures, which are
  /// `org.freedesktop.DBus.Error.Failed`.
  var interfaceName: SchedulerInterface.ErrorName? {
    switch self {
    case .limitReached: .limitReached
    case .invalidTrigger: .invalidTrigger
    case .unknownID: .unknownID
    case .notAllowed: .notAllowed
    case .storeBusy: .storeBusy
    case .invalidArgs: .invalidArgs
    case .failed: nil
    }
  }

  /// The D-Bus error name.
  public var name: String {
    interfaceName.map { SchedulerInterface.errorPrefix + $0.rawValue } ?? "org.freedesktop.DBus.Error.Failed"
  }

  /// The message sent with the error.
  public var description: String {
    switch self {
    case .limitReached(let text), .invalidTrigger(let text), .unknownID(let text), .notAllowed(let text),
      .storeBusy(let text), .invalidArgs(let text), .failed(let text):
      text
    }
  }

  /// The error for a failure of the store or the rules, `invalid` for invalid data (the
  /// trigger's fields say `invalidTrigger`, the content's `invalidArgs`).
  static func from(_ error: NotifyError, invalid: (String) -> SchedulerError = SchedulerError.invalidArgs)
    -> SchedulerError
  {
    let text = error.description
    switch error.kind {
    case .usage, .invalidData: return invalid(text)
    case .temporary: return .storeBusy(text)
    case .notTakenEffect: return .limitReached(text)
    case .noInput, .unavailable, .ioError: return .failed(text)
    }
  }
}

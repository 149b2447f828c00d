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
  /// A sound the request names or sends that cannot be used (not a plain name, not
  /// playable, changed while it was copied).
  case soundRejected(String)
  /// The store cannot be opened, read, written or synced, or its file is damaged.
  case storeUnavailable(String)
  /// No notification server answers on the session bus (`Present`, `Withdraw`).
  case serverUnavailable(String)
  /// The notification server did not answer `Notify` in time: it may show it all the same.
  case serverTimedOut(String)
  /// Anything else, the daemon's own failures: `org.freedesktop.DBus.Error.Failed`.
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
    case .soundRejected: .soundRejected
    case .storeUnavailable: .storeUnavailable
    case .serverUnavailable: .serverUnavailable
    case .serverTimedOut: .serverTimedOut
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
      .storeBusy(let text), .invalidArgs(let text), .soundRejected(let text), .storeUnavailable(let text),
      .serverUnavailable(let text), .serverTimedOut(let text), .failed(let text):
      text
    }
  }

  /// The same kind of error with the message `text`.
  func with(_ text: String) -> SchedulerError {
    switch self {
    case .limitReached: .limitReached(text)
    case .invalidTrigger: .invalidTrigger(text)
    case .unknownID: .unknownID(text)
    case .notAllowed: .notAllowed(text)
    case .storeBusy: .storeBusy(text)
    case .invalidArgs: .invalidArgs(text)
    case .soundRejected: .soundRejected(text)
    case .storeUnavailable: .storeUnavailable(text)
    case .serverUnavailable: .serverUnavailable(text)
    case .serverTimedOut: .serverTimedOut(text)
    case .failed: .failed(text)
    }
  }

  /// The error for a failure of the store, the rules or the sinks: the one table from the
  /// core's reason to the D-Bus error. Invalid data goes to `invalid` (`invalidArgs`, or
  /// `invalidTrigger` where the call site reads a trigger) unless the reason names a
  /// trigger's field itself. The message is the error's words; nothing here reads them.
  static func from(_ error: NotifyError, invalid: (String) -> SchedulerError = SchedulerError.invalidArgs)
    -> SchedulerError
  {
    let text = error.description
    switch error.reason {
    case .invalid(.repeatCount, _), .invalid(.rule, _), .invalid(.exclusions, _): return .invalidTrigger(text)
    case .invalid, .inputMissing, .unclassified(.usage), .unclassified(.invalidData), .unclassified(.noInput):
      return invalid(text)
    case .soundRefused: return .soundRejected(text)
    case .limitReached: return .limitReached(text)
    case .notFound, .unclassified(.notTakenEffect): return .unknownID(text)
    case .storeBusy: return .storeBusy(text)
    case .storeUnreadable, .storeCorrupt, .unclassified(.ioError): return .storeUnavailable(text)
    case .noServer, .unclassified(.unavailable): return .serverUnavailable(text)
    case .serverTimedOut(mayHaveShownIt: true): return .serverTimedOut(text)
    case .notAllowed: return .notAllowed(text)
    case .serverTimedOut(mayHaveShownIt: false), .notAvailableInSandbox, .unclassified(.temporary):
      return .failed(text)
    }
  }
}

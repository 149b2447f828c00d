extension NotifyError {
  /// What was wrong, as a value. Each layer reads its own answer from it through one table:
  /// the exit code here (`kind`), the library's public case (`NotificationError`), the
  /// D-Bus error name (`SchedulerError`). The words are for people and decide nothing.
  public enum Reason: Hashable, Sendable {
    /// A field's value breaks one of its rules (SPEC.md §1): which field, which rule and
    /// bound. Exit 65.
    case invalid(Field, Violation)
    /// A sound named by the content cannot be used: the file is not a plain name, is not
    /// playable, or changed while it was copied. Carries the name or path given. Exit 65.
    case soundRefused(String)
    /// The 64-pending limit discarded the new notification: it fires after all 64 of the
    /// app's pending ones. Carries the id discarded. Exit 1.
    case limitReached(id: String)
    /// The ids named are not there (not pending, not on screen, no such calendar). Exit 1.
    case notFound([String])
    /// Another process held the store with no progress for the busy timeout; trying again
    /// may succeed. Carries the holder's process id when it is known. Exit 75.
    case storeBusy(holder: Int32?)
    /// The store cannot be opened, read or written (permissions, a full disk, a read-only
    /// file system). Exit 74.
    case storeUnreadable
    /// The store's file is damaged or not a notify database: trying again never helps.
    /// Exit 74.
    case storeCorrupt
    /// No notification server answers on the session bus, or it refused the call. Exit 69.
    case noServer
    /// The notification server did not answer in time; with `mayHaveShownIt`, the call
    /// was `Notify` and the notification may be on screen all the same. Exit 75.
    case serverTimedOut(mayHaveShownIt: Bool)
    /// The caller may not act for this app (a sandboxed app naming another). Exit 64.
    case notAllowed
    /// The call has no equivalent where a sandboxed app's calls go (notify's service).
    /// Exit 69.
    case notAvailableInSandbox
    /// An input file is missing or cannot be opened. Carries its path. Exit 66.
    case inputMissing(path: String)
    /// A failure no mapping tells apart from others of its kind: the kind is the answer.
    case unclassified(Kind)

    /// The exit code's class for this reason: the one table the command line reads.
    public var kind: Kind {
      switch self {
      // Two flags that contradict each other are a misuse of the command, not bad data.
      case .invalid(_, .disagrees): .usage
      // A name already taken is valid; the call did not take effect because of what exists.
      case .invalid(_, .taken): .notTakenEffect
      case .invalid, .soundRefused: .invalidData
      case .limitReached, .notFound: .notTakenEffect
      case .storeBusy, .serverTimedOut: .temporary
      case .storeUnreadable, .storeCorrupt: .ioError
      case .noServer, .notAvailableInSandbox: .unavailable
      case .notAllowed: .usage
      case .inputMissing: .noInput
      case .unclassified(let kind): kind
      }
    }

    /// One reason of each case, for the tables' tests: every case must map somewhere.
    public static let examples: [Reason] =
      [
        .invalid(.title, .tooLong(characters: 250, limit: 200)), .invalid(.calendarName, .taken("work")),
        .soundRefused("ping.wav"),
        .limitReached(id: "b65"), .notFound(["a", "b"]), .storeBusy(holder: 42), .storeBusy(holder: nil),
        .storeUnreadable, .storeCorrupt, .noServer, .serverTimedOut(mayHaveShownIt: true),
        .serverTimedOut(mayHaveShownIt: false), .notAllowed, .notAvailableInSandbox,
        .inputMissing(path: "/nowhere"),
      ] + Kind.allCases.map { .unclassified($0) }
  }
}

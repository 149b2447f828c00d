import NotifyCore

/// Why a call of the library failed, as cases an app can switch on exhaustively: every
/// throwing API of `LocalNotificationCenter` and of the values an app builds throws this
/// one type.
///
/// ```swift
/// do {
///   try await center.add(NotificationRequest(content: content, trigger: .after(.seconds(600))))
/// } catch .limitReached {
///   // 64 of the app's notifications fire sooner: cancel some, or fire this one sooner.
/// } catch .storeBusy {
///   // another process held the store with no progress for 5 s: try again later.
/// } catch .invalidContent(let field, _, let context) {
///   print("\(field.map { "\($0)" } ?? "a value") breaks a rule: \(context)")
/// } catch {
///   print(error)  // what happened and what to do
/// }
/// ```
///
/// Each case carries what is known of the failure as values (which field, which rule and
/// bound, which ids) and a `Context` with the words for people; the words decide nothing.
/// A call that went through notify's service (inside a Flatpak sandbox) knows the case and
/// the words but not always the values, which are then nil or empty. `description` never
/// contains a notification's body or `userInfo`.
public enum NotificationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The 64-pending limit discarded the new notification itself: 64 others of the app fire
  /// sooner (it was recorded in history as `discarded`). Carries its id, when known.
  case limitReached(id: String?, Context)
  /// The content or trigger breaks a rule (a length, the JSON size, an unknown zone, an id
  /// that belongs to another app): which field and which rule, when known.
  case invalidContent(Field?, Violation?, Context)
  /// A sound named by the content is not a plain file name, not playable, or changed while
  /// it was copied, where no fallback applies. Carries the name or path given, when known.
  case soundRejected(sound: String?, Context)
  /// The ids named were not pending, not held and not on screen (those known).
  case notFound(ids: [String], Context)
  /// Another process held the store with no progress for the busy timeout (5 s); trying
  /// again may succeed. Carries the holder's process id, when known.
  case storeBusy(holder: Int32?, Context)
  /// The store cannot be opened, read or written (a missing folder, permissions, a full
  /// disk), or with `damaged` its file is corrupt: trying again never helps then.
  case storeUnavailable(damaged: Bool, Context)
  /// No notification server answered on the session bus (nothing was shown or withdrawn).
  case serverUnavailable(Context)
  /// The notification server got the call but did not answer in time: the notification may
  /// have been shown all the same.
  case serverTimedOut(Context)
  /// A temporary failure (a server or notify's service slow to answer); trying again may
  /// succeed.
  case temporary(Context)
  /// notify's service refused to act for this app: the process runs in a Flatpak sandbox and
  /// named another app, in a sandbox notify cannot identify, or as another user
  /// (`io.github.notify.Scheduler1.Error.NotAllowed`).
  case notAllowed(Context)
  /// The call has no equivalent where this center's calls go: inside a Flatpak sandbox they
  /// go to notify's service on the host, which has no method for it (docs/sandboxes.md
  /// in notify's repository); the words say why and what to do instead.
  case notAvailable(Context)

  /// Which field of a notification a value was given for (`title`, `userInfo`, an action's
  /// label, ...).
  public typealias Field = NotifyError.Field
  /// Which rule a value breaks, with the bound it passed (`.tooLong(characters: 250, limit: 200)`).
  public typealias Violation = NotifyError.Violation

  /// The words of a failure, for people: what happened and what to do.
  public struct Context: Hashable, Sendable, CustomStringConvertible {
    /// What happened.
    public var problem: String
    /// What to do about it, or nil when nothing can be done.
    public var fix: String?

    /// Words for a failure.
    public init(problem: String, fix: String? = nil) {
      self.problem = problem
      self.fix = fix
    }

    /// `problem: fix`.
    public var description: String { fix.map { "\(problem): \($0)" } ?? problem }
  }

  /// The words of this failure.
  public var context: Context {
    switch self {
    case .limitReached(_, let context), .invalidContent(_, _, let context), .soundRejected(_, let context),
      .notFound(_, let context), .storeBusy(_, let context), .storeUnavailable(_, let context),
      .serverUnavailable(let context), .serverTimedOut(let context), .temporary(let context),
      .notAllowed(let context), .notAvailable(let context):
      context
    }
  }

  /// What happened and what to do.
  public var description: String { context.description }

  /// The case's name without its values (`"limitReached"`), for tables that map cases
  /// (the tests' error tables) and logs.
  package var caseName: String {
    switch self {
    case .limitReached: "limitReached"
    case .invalidContent: "invalidContent"
    case .soundRejected: "soundRejected"
    case .notFound: "notFound"
    case .storeBusy: "storeBusy"
    case .storeUnavailable: "storeUnavailable"
    case .serverUnavailable: "serverUnavailable"
    case .serverTimedOut: "serverTimedOut"
    case .temporary: "temporary"
    case .notAllowed: "notAllowed"
    case .notAvailable: "notAvailable"
    }
  }
}

extension NotificationError {
  /// The case for an error of the library's inner layers: the one table from the core's
  /// reason (`NotifyError.Reason`) to the public case. The words come along as they are;
  /// nothing here reads them.
  package init(_ error: NotifyError) {
    let context = Context(problem: error.problem, fix: error.fix)
    switch error.reason {
    case .invalid(let field, let violation): self = .invalidContent(field, violation, context)
    case .soundRefused(let sound): self = .soundRejected(sound: sound, context)
    case .limitReached(let id): self = .limitReached(id: id, context)
    case .notFound(let ids): self = .notFound(ids: ids, context)
    case .storeBusy(let holder): self = .storeBusy(holder: holder, context)
    case .storeUnreadable: self = .storeUnavailable(damaged: false, context)
    case .storeCorrupt: self = .storeUnavailable(damaged: true, context)
    case .noServer: self = .serverUnavailable(context)
    case .serverTimedOut(mayHaveShownIt: true): self = .serverTimedOut(context)
    case .serverTimedOut(mayHaveShownIt: false): self = .temporary(context)
    case .notAllowed: self = .notAllowed(context)
    case .notAvailableInSandbox: self = .notAvailable(context)
    case .inputMissing: self = .invalidContent(nil, nil, context)
    case .unclassified(.notTakenEffect): self = .notFound(ids: [], context)
    case .unclassified(.usage), .unclassified(.invalidData), .unclassified(.noInput):
      self = .invalidContent(nil, nil, context)
    case .unclassified(.unavailable): self = .serverUnavailable(context)
    case .unclassified(.ioError): self = .storeUnavailable(damaged: false, context)
    case .unclassified(.temporary): self = .temporary(context)
    }
  }
}

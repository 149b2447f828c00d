/// A failure as a value: what was wrong (`reason`, structured cases naming the field and
/// the bound), and words for people that say what happened and what to do. The exit code
/// (`kind`), the library's public case and the D-Bus error name are each read from the
/// reason through one table; nothing tells failures apart by their words. See SPEC.md §5
/// "Exit codes".
public struct NotifyError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The class of failure; the raw value is the process exit code.
  public enum Kind: Int32, Sendable, CaseIterable {
    /// The operation did not take effect (an id was not pending, the new one was discarded).
    case notTakenEffect = 1
    /// Bad command-line usage.
    case usage = 64
    /// Invalid data: time, JSON, text, id, limits.
    case invalidData = 65
    /// An input file is missing.
    case noInput = 66
    /// A required service (the notification server) is unavailable.
    case unavailable = 69
    /// The store is unreadable or corrupt.
    case ioError = 74
    /// A temporary failure: the store was busy, a budget ran out.
    case temporary = 75
  }

  /// What was wrong.
  public var reason: Reason
  /// What happened, with the things it refers to left for each layer to name.
  public var problemText: ErrorText
  /// What to do about it, or nil when nothing can be done.
  public var fixText: ErrorText?

  /// An error whose words are generated from `reason` (`Reason.words`).
  public init(_ reason: Reason) {
    let words = reason.words
    self.init(reason, words.problem, fix: words.fix)
  }

  /// An error for `reason` with words of its own: `"\(term: .userInfo) is not JSON"`.
  public init(_ reason: Reason, _ problem: ErrorText, fix: ErrorText? = nil) {
    self.reason = reason
    self.problemText = problem
    self.fixText = fix
  }

  /// An error for `reason` with words of its own, as plain text.
  public init(_ reason: Reason, _ problem: String, fix: String? = nil) {
    self.init(reason, ErrorText(problem), fix: fix.map { ErrorText($0) })
  }

  /// An error no mapping tells apart from others of its kind (`Reason.unclassified`).
  /// A failure that a caller, the library or the D-Bus service must tell apart takes a
  /// `Reason` instead.
  public init(_ kind: Kind, _ problem: ErrorText, fix: ErrorText? = nil) {
    self.init(.unclassified(kind), problem, fix: fix)
  }

  /// An error no mapping tells apart from others of its kind, from plain text.
  public init(_ kind: Kind, _ problem: String, fix: String? = nil) {
    self.init(kind, ErrorText(problem), fix: fix.map { ErrorText($0) })
  }

  /// The same failure told in other words (a layer that names things its own way).
  public func reworded(_ problem: ErrorText, fix: ErrorText?) -> NotifyError {
    NotifyError(reason, problem, fix: fix)
  }

  /// The class of failure, read from the reason (`Reason.kind`).
  public var kind: Kind { reason.kind }

  /// For a sink's failure: the notification may have been shown all the same (the server
  /// got the call but did not answer in time). A firer does not try it again, which could
  /// show it twice; it records the delivery with this error as its note.
  public var mayHaveBeenShown: Bool { reason == .serverTimedOut(mayHaveShownIt: true) }

  /// The store's file is damaged (exit 74): trying again never helps, so a firer stops.
  public var isCorruptStore: Bool { reason == .storeCorrupt }

  /// What happened, naming things as the library does.
  public var problem: String { problemText.description }
  /// What to do, naming things as the library does.
  public var fix: String? { fixText?.description }

  /// The exit code for this error.
  public var exitCode: Int32 { kind.rawValue }

  /// `problem: fix`, naming things as the library does.
  public var description: String { rendered { $0.apiName } }

  /// `problem: fix`, with each `Term` named by `name` (the command line names its flags).
  public func rendered(_ name: (Term) -> String) -> String {
    let problem = problemText.rendered(name)
    guard let fixText else { return problem }
    return "\(problem): \(fixText.rendered(name))"
  }
}

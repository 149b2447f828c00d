/// A failure with a message that says what happened and what to do, and the sysexits
/// code the command line exits with. See SPEC.md §5 "Exit codes".
public struct NotifyError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The class of failure; the raw value is the process exit code.
  public enum Kind: Int32, Sendable {
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

  /// The class of failure.
  public var kind: Kind
  /// What happened, with the things it refers to left for each layer to name.
  public var problemText: ErrorText
  /// What to do about it, or nil when nothing can be done.
  public var fixText: ErrorText?
  /// For a sink's failure: the notification may have been shown all the same (the server
  /// got the call but did not answer in time). A firer does not try it again, which could
  /// show it twice; it records the delivery with this error as its note.
  public var mayHaveBeenShown = false
  /// The store's file is damaged (exit 74): trying again never helps, so a firer stops.
  public var isCorruptStore = false

  /// Creates an error whose text refers to `Term`s: `"\(term: .userInfo) is not JSON"`.
  public init(_ kind: Kind, _ problem: ErrorText, fix: ErrorText? = nil) {
    self.kind = kind
    self.problemText = problem
    self.fixText = fix
  }

  /// Creates an error from plain text.
  public init(_ kind: Kind, _ problem: String, fix: String? = nil) {
    self.init(kind, ErrorText(problem), fix: fix.map { ErrorText($0) })
  }

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

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
  /// What happened.
  public var problem: String
  /// What to do about it, or nil when nothing can be done.
  public var fix: String?

  /// Creates an error.
  public init(_ kind: Kind, _ problem: String, fix: String? = nil) {
    self.kind = kind
    self.problem = problem
    self.fix = fix
  }

  /// The exit code for this error.
  public var exitCode: Int32 { kind.rawValue }

  /// `problem: fix`, as printed after `notify: error: `.
  public var description: String {
    guard let fix else { return problem }
    return "\(problem): \(fix)"
  }
}

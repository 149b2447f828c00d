/// Why a calendar rule was refused: the part that is wrong (`BYMONTHDAY=32`), what is
/// wrong with it, and how to fix it. The command line exits 65 with it.
public struct RecurrenceRuleError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The offending part as written (escaped), or the whole rule when no one part is at fault.
  public var part: String
  /// What is wrong.
  public var problem: String
  /// What to do.
  public var fix: String

  /// Creates an error about `part`.
  public init(part: String, _ problem: String, fix: String) {
    self.part = part
    self.problem = problem
    self.fix = fix
  }

  /// `rule part 'BYMONTHDAY=32': a month day is 1 to 31 ...: use ...`.
  public var description: String { "rule part '\(part)': \(problem): \(fix)" }

  /// The error as the library reports invalid data (exit 65 on the command line).
  public var notifyError: NotifyError {
    NotifyError(.invalidData, "rule part '\(part)': \(problem)", fix: fix)
  }
}

/// Why a calendar rule was refused: the part that is wrong (`BYMONTHDAY=32`), what is
/// wrong with it, and how to fix it. The command line exits 65 with it (64 for a short
/// form that asks for what no rule can say).
public struct RecurrenceRuleError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The offending part as written (escaped), or the whole rule when no one part is at fault.
  public var part: String
  /// What is wrong.
  public var problem: String
  /// What to do.
  public var fix: String
  /// How the library reports it: invalid data, or usage for flags that cannot go together.
  public var kind: NotifyError.Kind

  /// Creates an error about `part`.
  public init(part: String, _ problem: String, fix: String, kind: NotifyError.Kind = .invalidData) {
    self.part = part
    self.problem = problem
    self.fix = fix
    self.kind = kind
  }

  /// `rule part 'BYMONTHDAY=32': a month day is 1 to 31 ...: use ...`.
  public var description: String { "rule part '\(part)': \(problem): \(fix)" }

  /// The error as the library reports it (exit 65 on the command line, or 64 for usage).
  public var notifyError: NotifyError {
    NotifyError(kind, "rule part '\(part)': \(problem)", fix: fix)
  }
}

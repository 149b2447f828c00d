import NotifyCore

/// Something in a calendar file that was skipped, and why: the rest of the file is still
/// read. Printed as `FILE:LINE: PROPERTY: problem`.
public struct CalendarWarning: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file, as the caller named it (empty for text given without one).
  public var file: String
  /// The 1-based line the problem is on; 0 for the file as a whole.
  public var line: Int
  /// The property or component at fault (`RRULE`, `VALARM`), or empty.
  public var property: String
  /// What is wrong and what happened to it (`skipped: ...`).
  public var problem: String

  /// Creates a warning.
  public init(file: String = "", line: Int, property: String, _ problem: String) {
    self.file = file
    self.line = line
    self.property = property
    self.problem = problem
  }

  /// `work/a.ics:12: RRULE: ...`, control characters made visible.
  public var description: String {
    var text = file.isEmpty ? "" : Escaper.visible(file) + ":"
    if line > 0 { text += "\(line):" }
    if !property.isEmpty { text += (text.isEmpty ? "" : " ") + Escaper.visible(property, limit: 60) + ":" }
    return text + (text.isEmpty ? "" : " ") + problem
  }

  /// The same warning about `file`.
  public func inFile(_ file: String) -> CalendarWarning {
    var copy = self
    copy.file = file
    return copy
  }
}

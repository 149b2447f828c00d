/// Why a `.desktop` file cannot be read, or cannot be launched by its `Exec` key.
///
/// Each description says what is wrong with the entry and what to do, in one sentence,
/// naming the section of the Desktop Entry Specification that has the rule.
public enum DesktopEntryError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The first group is not `[Desktop Entry]` (only comments and blank lines may precede it).
  case noDesktopEntryGroup
  /// A line (counted from 1) that is neither a group header, a `Key=Value` pair, a comment
  /// nor blank.
  case malformedLine(number: Int)
  /// `Type` is missing or not `Application`: there is no program to launch.
  case notAnApplication(type: String?)
  /// `Hidden=true`: the spec says to treat the entry as if it did not exist.
  case hidden
  /// There is no `Exec` key. A `DBusActivatable` entry needs none; that is for the caller to
  /// decide before asking for a command line.
  case noExec
  /// The `Exec` value breaks the quoting rules: an unbalanced quote, a reserved character
  /// outside quotes, an escape other than `\"` `` \` `` `\$` `\\` inside quotes, an empty
  /// command or program name, `=` in the program name.
  case malformedExec(String)
  /// A field code (`%z`) that is unknown, or a known one where it may not stand: `%c`, `%k`
  /// or `%i` inside quotes, any code but `%%` in the program name, a lone `%`.
  case invalidFieldCode(String)
  /// A command no Exec line can carry, when writing one (`DesktopEntry.execLine`): no
  /// program, an empty program name or one with `=`, a control character in an argument.
  case unwritableExec(String)

  /// What is wrong and what to do about it.
  public var description: String {
    switch self {
    case .noDesktopEntryGroup:
      "the file does not start with a [Desktop Entry] group: put that group first, with only comments "
        + "and blank lines before it (Desktop Entry spec, 'Basic format of the file')"
    case .malformedLine(let number):
      "line \(number) of the desktop entry is not a [group] header, a Key=Value pair, a comment or blank: "
        + "fix or remove that line (Desktop Entry spec, 'Basic format of the file')"
    case .notAnApplication(let type):
      "the desktop entry's Type is \(type.map { "'\($0)'" } ?? "missing"), not 'Application', so it names no "
        + "program: give the .desktop file of an application (Desktop Entry spec, 'Recognized desktop entry keys')"
    case .hidden:
      "the desktop entry says Hidden=true, which means the app was uninstalled for this user: give another "
        + "entry or remove the Hidden key (Desktop Entry spec, 'Recognized desktop entry keys')"
    case .noExec:
      "the desktop entry has no Exec key to launch it with: add an Exec key, or DBusActivatable=true if the app "
        + "supports D-Bus activation (Desktop Entry spec, 'Recognized desktop entry keys')"
    case .malformedExec(let problem):
      "the desktop entry's Exec line is malformed (\(problem)): fix the entry's Exec key "
        + "(Desktop Entry spec, 'The Exec key')"
    case .unwritableExec(let problem):
      "the command cannot be written as a desktop entry's Exec line (\(problem)): leave out what no "
        + "desktop file can carry (Desktop Entry spec, 'The Exec key')"
    case .invalidFieldCode(let code):
      DesktopEntry.knownFieldCodes.contains(code)
        ? "the desktop entry's Exec line has the field code \(Escaper.visible(code)) inside quotes or in the "
          + "program name, where it may not stand: fix the entry's Exec key (Desktop Entry spec, 'The Exec key')"
        : "the desktop entry's Exec line has an unknown field code \(Escaper.visible(code)): fix the entry's "
          + "Exec key, writing a literal percent sign as %% (Desktop Entry spec, 'The Exec key')"
    }
  }
}

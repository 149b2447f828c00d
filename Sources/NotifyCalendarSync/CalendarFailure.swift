import NotifyCalendar
import NotifyCore

/// Why adding, listing, removing, previewing or importing a calendar did not happen, as
/// cases. `notifyError` reads each into one `NotifyError` (its reason and its words), from which
/// the command line takes its exit code and the library its `NotificationError` case, as
/// for every other failure (decisions/0110); each names its terms (`--name`, `name`) its
/// own way.
public enum CalendarFailure: Error, Sendable, Equatable {
  /// The path, as the caller gave it, names no file or folder.
  case noSuchPath(String)
  /// The path, as the caller gave it, names no file (an import reads one file).
  case noSuchFile(String)
  /// The file exists but cannot be read (the warning names it and says why).
  case unreadable(CalendarWarning)
  /// The name is not 1 to 128 letters, digits, `.`, `_` and `-`.
  case invalidName(String)
  /// A calendar of that name is watched already (by any app).
  case nameTaken(String)
  /// No calendar has that name (none of the app's, when the question was about one app).
  case unknownName(String)
  /// A preview was asked for without a path.
  case noPath
  /// A preview's window does not start before it ends.
  case emptyWindow
  /// The store, or a value the store refused (an app id).
  case store(NotifyError)

  /// The failure as a value every door reads: the one table from the calendar layer's
  /// failures to `NotifyError` reasons, with the words for people.
  public var notifyError: NotifyError {
    switch self {
    case .noSuchPath(let path):
      NotifyError(
        .inputMissing(path: path), "no such file or folder: \(Escaper.visible(path))",
        fix: "name an existing vdir folder or .ics file")
    case .noSuchFile(let path):
      NotifyError(
        .inputMissing(path: path), "no such file: \(Escaper.visible(path))", fix: "name an existing .ics file"
      )
    case .unreadable(let warning):
      NotifyError(.inputMissing(path: warning.file), warning.description, fix: "name a readable .ics file")
    case .invalidName(let name):
      NotifyError(
        NotifyError.Reason.invalid(
          .calendarName,
          .characters(
            name, allowed: "letters, digits, '.', '_' and '-'", lengths: CalendarCatalog.nameLengths)))
    case .nameTaken(let name): NotifyError(NotifyError.Reason.invalid(.calendarName, .taken(name)))
    case .unknownName(let name):
      NotifyError(
        .notFound([name]), "no calendar is named '\(Escaper.visible(name))'" as ErrorText,
        fix: "see \(term: .calendarList)")
    case .noPath:
      NotifyError(
        .unclassified(.usage), "no calendar path was given", fix: "name a vdir folder or an .ics file")
    case .emptyWindow:
      NotifyError(
        .unclassified(.usage), "\(term: .windowStart) is not before \(term: .windowEnd)" as ErrorText,
        fix: "give a window whose start comes before its end")
    case .store(let error): error
    }
  }
}

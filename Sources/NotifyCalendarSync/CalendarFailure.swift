import NotifyCalendar
import NotifyCore

/// Why adding, removing or importing a calendar did not happen, as cases: the command
/// line words each as it always has and exits with its code; the library maps each to the
/// `NotificationError` case an app switches on.
public enum CalendarFailure: Error, Sendable {
  /// The path names no file or folder.
  case noSuchPath(String)
  /// The path names no file (an import reads one file).
  case noSuchFile(String)
  /// The file exists but cannot be read (the warning says why).
  case unreadable(CalendarWarning)
  /// The name is not 1 to 128 letters, digits, `.`, `_` and `-`.
  case invalidName(String)
  /// A calendar of that name is watched already.
  case nameTaken(String)
  /// No calendar (of the app asked about) has that name.
  case unknownName(String)
  /// The store, or a value the store refused (an app id).
  case store(NotifyError)
}

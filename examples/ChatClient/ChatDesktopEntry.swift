import Notify
import NotifyCore

/// The desktop entry that starts the chat client when one of its notifications is clicked
/// after it quit: the firer that holds the bubble (normally `notify daemon`) runs its `Exec`
/// line, and the client reads the click with `takeLaunchResponse()`.
///
/// ```swift
/// let entry = ChatDesktopEntry(command: ["/opt/chat-client", "--channel", "#notify"])
/// try entry.text()  // "[Desktop Entry]\n…Exec=/opt/chat-client --channel \"#notify\"\n"
/// ChatDesktopEntry.folder(environment: ["HOME": "/home/ada"])  // "/home/ada/.local/share/applications"
/// ```
struct ChatDesktopEntry: Hashable, Sendable {
  /// The program, by its absolute path, then its options.
  var command: [String]

  /// The name the entry shows where entries are listed.
  static let name = "Chat client (notify example)"

  /// The file's text. Throws `unwritableExec` when the command cannot be written as an Exec
  /// line (a control character in an option).
  func text() throws(DesktopEntryError) -> String {
    """
    [Desktop Entry]
    Type=Application
    Name=\(Self.name)
    Comment=Opens the chat conversation of a clicked notification
    Terminal=false
    NoDisplay=true
    Exec=\(try DesktopEntry.execLine(command))

    """
  }

  /// Where the user's desktop entries go: `$XDG_DATA_HOME/applications`, the data home being
  /// `~/.local/share` when the variable is unset, empty or relative (the XDG Base Directory
  /// spec says to ignore a relative one).
  static func folder(environment: [String: String], home: String? = nil) -> String {
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/applications" }
    return (environment["HOME"] ?? home ?? "") + "/.local/share/applications"
  }
}

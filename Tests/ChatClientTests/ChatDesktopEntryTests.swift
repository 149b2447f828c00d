import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones
import Testing

/// `ChatDesktopEntry`: the entry the client installs reads back, with notify's own
/// Desktop Entry parser, as an application that runs the client with its options.
struct ChatDesktopEntryTests {
  @Test func theEntryRunsTheClientWithItsOptions() throws {
    // Given the client's command, with options that need quoting
    let command = [
      "/opt/chat tools/chat-client", "--server", "irc.example.org:6667", "--nick", "ada", "--channel",
      "#notify",
      "--db", "/home/ada/100% notify.db", "--app", "chat",
    ]
    // When the entry's text is read back
    let entry = try DesktopEntry(parsing: try ChatDesktopEntry(command: command).text())
    // Then it is a hidden application, named, and its Exec runs exactly the command
    try entry.validateForLaunch()
    #expect(entry.name == ChatDesktopEntry.name)
    #expect(entry.hidden == false && entry.dbusActivatable == false)
    #expect(try entry.commandLine(entryPath: "/tmp/chat.desktop") == command)
  }

  @Test func anOptionWithANewlineIsRefused() {
    #expect(throws: DesktopEntryError.self) {
      try ChatDesktopEntry(command: ["/opt/chat-client", "--nick", "a\nb"]).text()
    }
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var environment: [String: String]
    var folder: String
    var testDescription: String { name }
  }

  static let folders: [Case] = [
    Case(
      name: "XDG_DATA_HOME", environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/ada"],
      folder: "/data/applications"),
    Case(
      name: "unset: HOME", environment: ["HOME": "/home/ada"], folder: "/home/ada/.local/share/applications"),
    Case(
      name: "empty: HOME", environment: ["XDG_DATA_HOME": "", "HOME": "/home/ada"],
      folder: "/home/ada/.local/share/applications"),
    Case(
      name: "relative: ignored, as the XDG spec says",
      environment: ["XDG_DATA_HOME": "data", "HOME": "/home/ada"],
      folder: "/home/ada/.local/share/applications"),
  ]

  @Test(arguments: folders)
  func theEntryGoesToTheUsersApplications(_ example: Case) {
    #expect(ChatDesktopEntry.folder(environment: example.environment) == example.folder)
  }
}

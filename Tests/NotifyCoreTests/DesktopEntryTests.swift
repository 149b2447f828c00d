import Testing

@testable import NotifyCore

@Suite("DesktopEntry: reading a .desktop file")
struct DesktopEntryTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var expected: Fields
    var testDescription: String { name }
  }

  /// The parsed keys a case checks; nil for a key it expects to be absent.
  struct Fields: Sendable, Equatable {
    var type: String? = "Application"
    var name: String? = nil
    var exec: String? = nil
    var tryExec: String? = nil
    var icon: String? = nil
    var dbusActivatable = false
    var hidden = false
    var path: String? = nil

    init(
      type: String? = "Application", name: String? = nil, exec: String? = nil, tryExec: String? = nil,
      icon: String? = nil, dbusActivatable: Bool = false, hidden: Bool = false, path: String? = nil
    ) {
      (self.type, self.name, self.exec, self.tryExec) = (type, name, exec, tryExec)
      (self.icon, self.dbusActivatable, self.hidden, self.path) = (icon, dbusActivatable, hidden, path)
    }

    init(_ entry: DesktopEntry) {
      self.init(
        type: entry.type, name: entry.name, exec: entry.exec, tryExec: entry.tryExec, icon: entry.icon,
        dbusActivatable: entry.dbusActivatable, hidden: entry.hidden, path: entry.path)
    }
  }

  static let cases: [Case] = [
    Case(
      name: "every key notify reads",
      text: """
        [Desktop Entry]
        Type=Application
        Name=Chat
        Exec=chat --new
        TryExec=chat
        Icon=org.example.Chat
        DBusActivatable=true
        Hidden=false
        Path=/srv/chat
        """,
      expected: Fields(
        name: "Chat", exec: "chat --new", tryExec: "chat", icon: "org.example.Chat", dbusActivatable: true,
        path: "/srv/chat")),
    Case(
      name: "comments and blank lines may precede the group",
      text: "# a comment\n\n   \n  # indented comment\n[Desktop Entry]\nType=Application\n# Name=Commented\n",
      expected: Fields()),
    Case(
      name: "keys of other groups are ignored",
      text: """
        [Desktop Entry]
        Type=Application
        Name=Chat
        Exec=chat

        [Desktop Action new-window]
        Name=New Window
        Exec=chat --new-window
        Icon=window
        """,
      expected: Fields(name: "Chat", exec: "chat")),
    Case(
      name: "localized keys are ignored, before or after the unlocalized one",
      text:
        "[Desktop Entry]\nName[de]=Plaudern\nName=Chat\nName[sr@latin]=Ćaskanje\nIcon[fr_FR.UTF-8]=chat-fr\n"
        + "Type=Application\nName[]=empty locale\n",
      expected: Fields(name: "Chat")),
    Case(
      name: "a repeated key: the last one wins, as in GLib",
      text: "[Desktop Entry]\nType=Application\nName=First\nExec=first\nName=Second\nExec=second\n",
      expected: Fields(name: "Second", exec: "second")),
    Case(
      name: "a repeated [Desktop Entry] group adds to the first, as in GLib",
      text: "[Desktop Entry]\nType=Application\nName=Chat\n[Other]\nIcon=other\n[Desktop Entry]\nIcon=chat\n",
      expected: Fields(name: "Chat", icon: "chat")),
    Case(
      name: "whitespace around '=' and before the line is ignored, after the value kept",
      text: "  [Desktop Entry]  \n\tType  =  Application\n  Name =\tChat App  \nExec=  chat\n",
      expected: Fields(name: "Chat App  ", exec: "chat")),
    Case(
      name: "CRLF line ends",
      text: "[Desktop Entry]\r\nType=Application\r\nName=Chat\r\nExec=chat\r\n",
      expected: Fields(name: "Chat", exec: "chat")),
    Case(
      name: "the general escapes are undone in string values",
      text: "[Desktop Entry]\nType=Application\nName=\\sa\\tb\\nc\\rd\\\\e\\s\nIcon=/x\\\\y\n",
      expected: Fields(name: " a\tb\nc\rd\\e ", icon: "/x\\y")),
    Case(
      name: "the Exec value is unescaped once: \\\\\\\\ is one escaped backslash for the quoting",
      text: "[Desktop Entry]\nType=Application\nExec=app \"a\\\\\\\\b\" \"\\\\$HOME\" a\\sb\n",
      expected: Fields(exec: "app \"a\\\\b\" \"\\$HOME\" a b")),
    Case(
      name: "other backslashes are kept as written, as GLib does",
      text: "[Desktop Entry]\nType=Application\nExec=app \"\\$HOME\" \\q\nName=end\\\n",
      expected: Fields(name: "end\\", exec: "app \"\\$HOME\" \\q")),
    Case(
      name: "unknown keys and an empty value",
      text: "[Desktop Entry]\nType=Application\nX-Custom=1\nKeywords=a;b;\nName=\nSpaced Key=ok\n",
      expected: Fields(name: "")),
    Case(
      name: "a non-application type is read as written",
      text: "[Desktop Entry]\nType=Link\nURL=https://example.org\n",
      expected: Fields(type: "Link")),
    Case(
      name: "a value keeps '=' and '#' after the first '='",
      text: "[Desktop Entry]\nType=Application\nExec=env A=1 app\nName=#1 = one\n",
      expected: Fields(name: "#1 = one", exec: "env A=1 app")),
    Case(
      name: "a combining mark after '=' stays in the value",
      text: "[Desktop Entry]\nType=Application\nName=\u{301}Chat\n",
      expected: Fields(name: "\u{301}Chat")),
  ]

  @Test("parsing", arguments: cases)
  func parsing(_ testCase: Case) throws {
    // Given the text of a .desktop file
    // When it is parsed
    let entry = try DesktopEntry(parsing: testCase.text)
    // Then the keys notify reads have the expected values
    #expect(Fields(entry) == testCase.expected)
  }

  @Test(
    "booleans: true and 1 (as GLib), with trailing whitespace, are true; anything else is false",
    arguments: [
      ("true", true), ("false", false), ("1", true), ("0", false), ("true  ", true), ("True", false),
      ("yes", false), ("truex", false), ("", false),
    ])
  func booleans(value: String, expected: Bool) throws {
    // Given DBusActivatable and Hidden with the same value
    let text = "[Desktop Entry]\nType=Application\nDBusActivatable=\(value)\nHidden=\(value)\n"
    // When parsed
    let entry = try DesktopEntry(parsing: text)
    // Then both read the same way
    #expect(entry.dbusActivatable == expected)
    #expect(entry.hidden == expected)
  }

  @Test("booleans default to false when absent")
  func booleansDefault() throws {
    let entry = try DesktopEntry(parsing: "[Desktop Entry]\nType=Application\n")
    #expect(!entry.dbusActivatable && !entry.hidden)
  }

  struct ErrorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var expected: DesktopEntryError
    var testDescription: String { name }
  }

  static let errorCases: [ErrorCase] = [
    ErrorCase(name: "an empty file", text: "", expected: .noDesktopEntryGroup),
    ErrorCase(name: "only comments", text: "# nothing\n\n", expected: .noDesktopEntryGroup),
    ErrorCase(
      name: "a key before any group", text: "Type=Application\n[Desktop Entry]\n",
      expected: .noDesktopEntryGroup),
    ErrorCase(
      name: "another group first", text: "[Other]\nA=b\n[Desktop Entry]\nType=Application\n",
      expected: .noDesktopEntryGroup),
    ErrorCase(
      name: "a lowercase group name", text: "[desktop entry]\nType=Application\n",
      expected: .noDesktopEntryGroup),
    ErrorCase(
      name: "a line that is no key, group or comment",
      text: "[Desktop Entry]\nType=Application\ngarbage\n", expected: .malformedLine(number: 3)),
    ErrorCase(
      name: "an unclosed group header", text: "[Desktop Entry\n", expected: .malformedLine(number: 1)),
    ErrorCase(name: "an empty group name", text: "# c\n[]\n", expected: .malformedLine(number: 2)),
    ErrorCase(
      name: "text after a group header", text: "[Desktop Entry] x\nType=Application\n",
      expected: .malformedLine(number: 1)),
    ErrorCase(
      name: "a group name with a bracket", text: "[Desktop Entry]\n[a[b]\n",
      expected: .malformedLine(number: 2)),
    ErrorCase(
      name: "an empty key", text: "[Desktop Entry]\n=Application\n", expected: .malformedLine(number: 2)),
    ErrorCase(
      name: "an unclosed locale", text: "[Desktop Entry]\nName[de=Chat\n", expected: .malformedLine(number: 2)
    ),
    ErrorCase(
      name: "text after a locale", text: "[Desktop Entry]\nName[de]x=Chat\n",
      expected: .malformedLine(number: 2)),
    ErrorCase(
      name: "a bad locale", text: "[Desktop Entry]\nName[d e]=Chat\n", expected: .malformedLine(number: 2)),
    ErrorCase(
      name: "a malformed line in another group, as GLib refuses the file",
      text: "[Desktop Entry]\nType=Application\n\n[Desktop Action x]\noops\n",
      expected: .malformedLine(number: 5)),
    ErrorCase(
      name: "a malformed line before any group", text: "oops\n[Desktop Entry]\n",
      expected: .malformedLine(number: 1)
    ),
  ]

  @Test("parse errors", arguments: errorCases)
  func parseErrors(_ testCase: ErrorCase) {
    // Given a file that breaks the format
    // When it is parsed
    // Then the error names what is wrong
    #expect(throws: testCase.expected) { try DesktopEntry(parsing: testCase.text) }
  }

  struct LaunchCase: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var expected: DesktopEntryError?
    var testDescription: String { name }
  }

  static let launchCases: [LaunchCase] = [
    LaunchCase(name: "an application", text: "Type=Application\nExec=chat", expected: nil),
    LaunchCase(
      name: "a D-Bus activatable application without Exec", text: "Type=Application\nDBusActivatable=true",
      expected: nil),
    LaunchCase(name: "no Type", text: "Exec=chat", expected: .notAnApplication(type: nil)),
    LaunchCase(name: "a link", text: "Type=Link\nExec=chat", expected: .notAnApplication(type: "Link")),
    LaunchCase(
      name: "a trailing space after the type, as for GLib", text: "Type=Application \nExec=chat",
      expected: .notAnApplication(type: "Application ")),
    LaunchCase(
      name: "a hidden application", text: "Type=Application\nHidden=true\nExec=chat", expected: .hidden),
    LaunchCase(
      name: "a hidden link: the type is checked first", text: "Type=Link\nHidden=true",
      expected: .notAnApplication(type: "Link")),
  ]

  @Test("validateForLaunch() and commandLine() check Type and Hidden", arguments: launchCases)
  func validateForLaunch(_ testCase: LaunchCase) throws {
    // Given an entry
    let entry = try DesktopEntry(parsing: "[Desktop Entry]\n" + testCase.text + "\n")
    // When it is checked for launching
    // Then it passes, or fails the same way commandLine() does
    if let expected = testCase.expected {
      #expect(throws: expected) { try entry.validateForLaunch() }
      #expect(throws: expected) { try entry.commandLine(entryPath: "/x.desktop") }
    } else {
      try entry.validateForLaunch()
    }
  }

  @Test("commandLine() throws noExec without Exec, also for a D-Bus activatable entry")
  func noExec() throws {
    // Given a launchable entry with no Exec, which the caller should activate by D-Bus
    let entry = try DesktopEntry(parsing: "[Desktop Entry]\nType=Application\nDBusActivatable=true\n")
    // When a command line is asked for anyway
    // Then there is none
    try entry.validateForLaunch()
    #expect(throws: DesktopEntryError.noExec) { try entry.commandLine(entryPath: "/x.desktop") }
  }

  @Test(
    "every error says what is wrong and what to do, in one sentence",
    arguments: [
      DesktopEntryError.noDesktopEntryGroup, .malformedLine(number: 7), .notAnApplication(type: nil),
      .notAnApplication(type: "Link"), .hidden, .noExec, .malformedExec("a double quote is not closed"),
      .invalidFieldCode("%z"), .invalidFieldCode("%c"),
    ])
  func descriptions(_ error: DesktopEntryError) {
    // Given an error
    let text = error.description
    // Then it is one sentence: the problem, a colon, the fix, and where the rule is
    #expect(text.first?.isLowercase == true)
    #expect(text.contains(": "))
    #expect(text.contains("(Desktop Entry spec, '"))
    #expect(!text.hasSuffix("."))
    #expect(!text.contains("\n"))
  }

  @Test(
    "error texts",
    arguments: [
      (
        DesktopEntryError.invalidFieldCode("%z"),
        "the desktop entry's Exec line has an unknown field code %z: fix the entry's Exec key, writing a literal "
          + "percent sign as %% (Desktop Entry spec, 'The Exec key')"
      ),
      (
        .invalidFieldCode("%c"),
        "the desktop entry's Exec line has the field code %c inside quotes or in the program name, where it may "
          + "not stand: fix the entry's Exec key (Desktop Entry spec, 'The Exec key')"
      ),
      (
        .invalidFieldCode("%\n"),
        "the desktop entry's Exec line has an unknown field code %\\u{a}: fix the entry's Exec key, writing a "
          + "literal percent sign as %% (Desktop Entry spec, 'The Exec key')"
      ),
      (
        .malformedLine(number: 3),
        "line 3 of the desktop entry is not a [group] header, a Key=Value pair, a comment or blank: fix or "
          + "remove that line (Desktop Entry spec, 'Basic format of the file')"
      ),
      (
        .notAnApplication(type: "Link"),
        "the desktop entry's Type is 'Link', not 'Application', so it names no program: give the .desktop file "
          + "of an application (Desktop Entry spec, 'Recognized desktop entry keys')"
      ),
    ])
  func errorTexts(error: DesktopEntryError, expected: String) {
    #expect(error.description == expected)
  }
}

import Testing

@testable import NotifyCore

@Suite("DesktopEntry+Exec: the command line of an entry, and desktop file ids")
struct DesktopEntryExecTests {
  static let entryPath = "/usr/share/applications/org.example.Chat.desktop"

  /// An application entry with `exec` as its Exec value (general escapes already undone).
  static func entry(exec: String, name: String? = "Chat App", icon: String? = "chat") -> DesktopEntry {
    var entry = try! DesktopEntry(parsing: "[Desktop Entry]\nType=Application\n")
    entry.exec = exec
    entry.name = name
    entry.icon = icon
    return entry
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var exec: String
    var expected: [String]
    var testDescription: String { name }
  }

  static let quotingCases: [Case] = [
    Case(name: "a program alone", exec: "chat", expected: ["chat"]),
    Case(
      name: "plain words", exec: "/usr/bin/chat --new -x=1", expected: ["/usr/bin/chat", "--new", "-x=1"]),
    Case(
      name: "runs of spaces, leading and trailing", exec: "  chat   a  b  ", expected: ["chat", "a", "b"]),
    Case(name: "a quoted argument keeps its spaces", exec: "chat \"a b  c\"", expected: ["chat", "a b  c"]),
    Case(
      name: "the four escapes inside quotes", exec: #"chat "\"q\" \`b\` \$HOME \\""#,
      expected: ["chat", #""q" `b` $HOME \"#]),
    Case(
      name: "reserved characters inside quotes are literal",
      exec: "chat \"a;b|c>d<e~f&g*h?i#j(k)l'm\tn\no\"", expected: ["chat", "a;b|c>d<e~f&g*h?i#j(k)l'm\tn\no"]),
    Case(name: "an empty quoted argument", exec: "chat \"\" x", expected: ["chat", "", "x"]),
    Case(
      name: "quotes covering part of an argument join it, as in GLib",
      exec: "chat --name=\"a b\" \"x\"y\"z\"",
      expected: ["chat", "--name=a b", "xyz"]),
    Case(name: "a quoted program", exec: "\"/opt/My Chat/chat\" x", expected: ["/opt/My Chat/chat", "x"]),
    Case(name: "unicode words", exec: "chat héllo 日本 ✓ 🎉", expected: ["chat", "héllo", "日本", "✓", "🎉"]),
    Case(
      name: "a combining mark after a quote does not hide the quote",
      exec: "chat \"\u{301}a b\" \u{301}c", expected: ["chat", "\u{301}a b", "\u{301}c"]),
    Case(name: "'=' in arguments is fine", exec: "env A=1 chat", expected: ["env", "A=1", "chat"]),
  ]

  @Test("quoting", arguments: quotingCases)
  func quoting(_ testCase: Case) throws {
    // Given an entry with the Exec value
    let entry = Self.entry(exec: testCase.exec)
    // When its command line is built
    // Then quoting is undone argument by argument
    #expect(try entry.commandLine(entryPath: Self.entryPath) == testCase.expected)
  }

  static let fieldCodeCases: [Case] = [
    Case(name: "%f alone disappears", exec: "chat %f x", expected: ["chat", "x"]),
    Case(name: "%F %u %U alone disappear", exec: "chat %F %u %U", expected: ["chat"]),
    Case(
      name: "a file code inside an argument expands to nothing", exec: "chat x%fy --open=%U",
      expected: [
        "chat", "xy", "--open=",
      ]),
    Case(
      name: "a file code inside quotes expands to nothing, as in GLib", exec: "sh -c \"chat %u\" \"%f\"",
      expected: ["sh", "-c", "chat ", ""]),
    Case(
      name: "the deprecated codes disappear", exec: "chat %d %D %n %N %v %m a%mb",
      expected: ["chat", "ab"]),
    Case(name: "%i is two arguments", exec: "chat %i x", expected: ["chat", "--icon", "chat", "x"]),
    Case(
      name: "%i glued to text splits there, as in GLib", exec: "chat a%ib",
      expected: ["chat", "a--icon", "chatb"]),
    Case(name: "%c is the name, one argument", exec: "chat %c", expected: ["chat", "Chat App"]),
    Case(name: "%c inside an argument", exec: "chat --title=%c!", expected: ["chat", "--title=Chat App!"]),
    Case(name: "%k is the entry's path", exec: "chat --from %k", expected: ["chat", "--from", entryPath]),
    Case(name: "%k inside an argument", exec: "chat -k=%k", expected: ["chat", "-k=" + entryPath]),
    Case(name: "%% is a percent sign", exec: "chat 100%% %%", expected: ["chat", "100%", "%"]),
    Case(name: "%% inside quotes too", exec: "chat \"50 %%\"", expected: ["chat", "50 %"]),
    Case(name: "%%c is a percent sign and c", exec: "chat %%c %%%c", expected: ["chat", "%c", "%Chat App"]),
    Case(name: "%% in the program name", exec: "/opt/100%%/chat", expected: ["/opt/100%/chat"]),
    Case(
      name: "codes next to quoted parts", exec: "chat \"a b\"%c %c\"x y\"",
      expected: ["chat", "a bChat App", "Chat Appx y"]),
  ]

  @Test("field codes", arguments: fieldCodeCases)
  func fieldCodes(_ testCase: Case) throws {
    // Given an entry named "Chat App" with the icon "chat"
    let entry = Self.entry(exec: testCase.exec)
    // When its command line is built for a known path
    // Then each field code is expanded as the spec says
    #expect(try entry.commandLine(entryPath: Self.entryPath) == testCase.expected)
  }

  struct ValueCase: Sendable, CustomTestStringConvertible {
    var name: String
    var exec: String
    var entryName: String?
    var icon: String?
    var entryPath: String
    var expected: [String]
    var testDescription: String { name }
  }

  static let valueCases: [ValueCase] = [
    ValueCase(
      name: "no Icon: %i expands to nothing", exec: "chat %i a%ib", entryName: nil, icon: nil,
      entryPath: entryPath, expected: ["chat", "ab"]),
    ValueCase(
      name: "an empty Icon: %i expands to nothing, per the spec", exec: "chat %i", entryName: nil, icon: "",
      entryPath: entryPath, expected: ["chat"]),
    ValueCase(
      name: "an Icon with spaces stays one argument", exec: "chat %i", entryName: nil,
      icon: "/opt/My Icons/chat.svg", entryPath: entryPath,
      expected: ["chat", "--icon", "/opt/My Icons/chat.svg"]),
    ValueCase(
      name: "no Name: %c alone disappears", exec: "chat %c x%cy", entryName: nil, icon: nil,
      entryPath: entryPath, expected: ["chat", "xy"]),
    ValueCase(
      name: "an empty Name: %c is an empty argument, as in GLib", exec: "chat %c", entryName: "", icon: nil,
      entryPath: entryPath, expected: ["chat", ""]),
    ValueCase(
      name: "a Name with quotes, percent signs and a newline is passed as it is", exec: "chat %c",
      entryName: "It's \"50%\" %c\nnew", icon: nil, entryPath: entryPath,
      expected: ["chat", "It's \"50%\" %c\nnew"]),
    ValueCase(
      name: "an unknown location: %k expands to nothing", exec: "chat %k -k=%k", entryName: nil, icon: nil,
      entryPath: "", expected: ["chat", "-k="]),
  ]

  @Test("field codes with missing, empty and odd values", arguments: valueCases)
  func values(_ testCase: ValueCase) throws {
    // Given an entry whose Name and Icon are as the case says
    let entry = Self.entry(exec: testCase.exec, name: testCase.entryName, icon: testCase.icon)
    // When its command line is built
    // Then the codes expand to the values, or to nothing
    #expect(try entry.commandLine(entryPath: testCase.entryPath) == testCase.expected)
  }

  @Test("a file's Exec is unescaped twice: once as a string, once by the quoting rules")
  func doubleEscaping() throws {
    // Given a file with the spec's own examples: four backslashes for one, \\$ for a dollar sign
    let text = #"""
      [Desktop Entry]
      Type=Application
      Exec=chat "a\\\\b" "\\$HOME" "\\`x\\`" "\"q\"" a\sb "tab\there"
      """#
    // When it is parsed and its command line built
    let argv = try DesktopEntry(parsing: text).commandLine(entryPath: Self.entryPath)
    // Then each escape is undone once at each level
    #expect(argv == ["chat", #"a\b"#, "$HOME", "`x`", "\"q\"", "a", "b", "tab\there"])
  }

  struct ErrorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var exec: String
    var expected: DesktopEntryError
    var testDescription: String { name }
  }

  static let errorCases: [ErrorCase] = [
    ErrorCase(name: "an empty Exec", exec: "", expected: .malformedExec("it names no program")),
    ErrorCase(name: "only spaces", exec: "   ", expected: .malformedExec("it names no program")),
    ErrorCase(
      name: "an empty program name", exec: "\"\" x", expected: .malformedExec("the program name is empty")),
    ErrorCase(
      name: "'=' in the program name", exec: "A=1 chat",
      expected: .malformedExec("the program name contains '=', which the spec forbids there")),
    ErrorCase(
      name: "an unclosed quote", exec: "chat \"a b", expected: .malformedExec("a double quote is not closed")),
    ErrorCase(
      name: "a backslash ending an unclosed quote", exec: "chat \"a\\",
      expected: .malformedExec("a double quote is not closed")),
    ErrorCase(
      name: "another backslash inside quotes", exec: "chat \"a\\qb\"",
      expected: .malformedExec(
        "a backslash before 'q' inside quotes, where only \\\" \\` \\$ \\\\ are escapes")),
    ErrorCase(
      name: "a backslash before a newline inside quotes", exec: "chat \"a\\\nb\"",
      expected: .malformedExec(
        "a backslash before a newline inside quotes, where only \\\" \\` \\$ \\\\ are escapes")),
    ErrorCase(
      name: "an unescaped dollar sign inside quotes", exec: "chat \"$HOME\"",
      expected: .malformedExec("'$' inside quotes without the backslash the spec asks for")),
    ErrorCase(
      name: "an unescaped backtick inside quotes", exec: "chat \"`id`\"",
      expected: .malformedExec("'`' inside quotes without the backslash the spec asks for")),
    ErrorCase(
      name: "a single-quoted argument", exec: "chat 'a b'",
      expected: .malformedExec("a single quote outside quotes, where the spec reserves it")),
    ErrorCase(
      name: "a tab between arguments", exec: "chat\ta",
      expected: .malformedExec("a tab outside quotes, where the spec reserves it")),
    ErrorCase(name: "an unknown field code", exec: "chat %z", expected: .invalidFieldCode("%z")),
    ErrorCase(name: "a digit after %", exec: "chat %1", expected: .invalidFieldCode("%1")),
    ErrorCase(name: "a lone % ending an argument", exec: "chat 100% x", expected: .invalidFieldCode("%")),
    ErrorCase(name: "a lone % ending the line", exec: "chat 100%", expected: .invalidFieldCode("%")),
    ErrorCase(
      name: "a % before a space inside quotes", exec: "chat \"% \"", expected: .invalidFieldCode("% ")),
    ErrorCase(name: "%c inside quotes", exec: "chat \"%c\"", expected: .invalidFieldCode("%c")),
    ErrorCase(name: "%k inside quotes", exec: "chat \"x%ky\"", expected: .invalidFieldCode("%k")),
    ErrorCase(name: "%i inside quotes", exec: "chat \"%i\"", expected: .invalidFieldCode("%i")),
    ErrorCase(name: "%c quoted after its %", exec: "chat %\"c\"", expected: .invalidFieldCode("%c")),
    ErrorCase(name: "%c as the program", exec: "%c --new", expected: .invalidFieldCode("%c")),
    ErrorCase(name: "%f in the program name", exec: "chat%f x", expected: .invalidFieldCode("%f")),
    ErrorCase(name: "an unknown code in the program name", exec: "chat%z", expected: .invalidFieldCode("%z")),
  ]

  @Test("malformed Exec lines", arguments: errorCases)
  func errors(_ testCase: ErrorCase) {
    // Given an entry whose Exec breaks a rule of "The Exec key"
    let entry = Self.entry(exec: testCase.exec)
    // When its command line is built
    // Then the error says which rule
    #expect(throws: testCase.expected) { try entry.commandLine(entryPath: Self.entryPath) }
  }

  @Test(
    "every reserved character is refused outside quotes and kept inside",
    arguments: ["\t", "\n", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")", "`"])
  func reservedCharacters(_ character: String) throws {
    // Given the character in an unquoted argument
    let bare = Self.entry(exec: "chat a\(character)b")
    // When the command line is built
    // Then it is refused as malformed
    let error = #expect(throws: DesktopEntryError.self) { try bare.commandLine(entryPath: Self.entryPath) }
    guard case .malformedExec(let problem)? = error else {
      Issue.record("expected malformedExec, got \(String(describing: error))")
      return
    }
    #expect(problem.hasSuffix("outside quotes, where the spec reserves it"))
    // And inside quotes (escaped where the spec asks) it is a literal character
    let escape = "$`\\".contains(character) ? "\\" : ""
    let quoted = Self.entry(exec: "chat \"a\(escape)\(character)b\"")
    #expect(try quoted.commandLine(entryPath: Self.entryPath) == ["chat", "a\(character)b"])
  }

  // MARK: - DesktopFileID

  @Test(
    "desktop file ids: plain file-name stems only",
    arguments: [
      ("org.example.Chat", true), ("chat", true), ("org.example.Chat-App_2", true), ("a.b.c", true),
      ("x-", true), (String(repeating: "a", count: 255), true),
      ("", false), ("../x", false), ("a/b", false), ("/etc/passwd", false), (".hidden", false), (".", false),
      ("..", false), (String(repeating: "a", count: 256), false), ("a b", false), ("é", false),
      ("a\u{0}b", false),
      ("chat\n", false), ("a:b", false), ("a\\b", false),
    ])
  func fileIDs(name: String, valid: Bool) {
    // Given a candidate id
    // When it is made a desktop file id
    let id = DesktopFileID(name)
    // Then only a plain stem is accepted, and it names "<id>.desktop"
    #expect((id != nil) == valid)
    if let id {
      #expect(id.fileName == name + ".desktop")
      #expect(id.description == name)
    }
  }

  @Test(
    "bus names and object paths",
    arguments: [
      ("org.example.Chat-App", "org.example.Chat-App", "/org/example/Chat_App"),
      ("org.example.FooViewer", "org.example.FooViewer", "/org/example/FooViewer"),
      ("org._7_zip.Archiver", "org._7_zip.Archiver", "/org/_7_zip/Archiver"),
      ("io.github.a-b.c_d", "io.github.a-b.c_d", "/io/github/a_b/c_d"),
      ("chat", nil, nil),
      ("org.7zip.Archiver", nil, nil),
      ("9org.example", nil, nil),
      ("org..example", nil, nil),
      ("org.example.", nil, nil),
      ("org.example.-x", "org.example.-x", "/org/example/_x"),
    ] as [(String, String?, String?)])
  func busNames(name: String, busName: String?, objectPath: String?) throws {
    // Given a valid desktop file id
    let id = try #require(DesktopFileID(name))
    // When its D-Bus names are derived
    // Then an id that is no valid bus name has neither
    #expect(id.busName == busName)
    #expect(id.objectPath == objectPath)
  }

  @Test("a bus name of 255 bytes is valid")
  func longBusName() throws {
    let name = "org." + String(repeating: "a", count: 251)
    let id = try #require(DesktopFileID(name))
    #expect(id.busName == name)
    #expect(id.objectPath == "/org/" + String(repeating: "a", count: 251))
  }
}

import Foundation
import NotifyTestSupport
import Testing

@testable import NotifyCore

/// Checks `DesktopEntry.commandLine(entryPath:)` against an implementation nobody here wrote:
/// GLib's `gio launch`, which runs an entry's Exec the way GNOME does. Each entry's program
/// is a script that writes the argv it was given to a file.
///
/// `gio launch` reads the file as a key file and knows no location for it, so %k expands to
/// nothing there; notify's side runs with `entryPath: ""`, which means the same.
@Suite(
  "DesktopEntry against GLib's gio launch", .serialized, .ownThreads,
  .enabled(if: GioLauncher.isUsable, "needs /usr/bin/gio (Debian: libglib2.0-bin) able to launch an entry"))
struct DesktopEntryGioOracleTests {
  /// Cases per run; the first seed is `NOTIFY_GIO_ORACLE_SEED` when set.
  static let caseCount = 100
  static let firstSeed =
    ProcessInfo.processInfo.environment["NOTIFY_GIO_ORACLE_SEED"].flatMap { UInt64($0) }
    ?? 20_251_123

  @Test("random Exec lines: gio runs what notify computes, and notify rejects what breaks the spec")
  func randomLines() throws {
    var launcher = try GioLauncher()
    var valid = 0
    var broken = 0
    var brokenThatGioRan = 0
    for index in 0..<Self.caseCount {
      // Given an entry with a random Exec line, from a seed of its own
      let seed = Self.firstSeed &+ UInt64(index)
      var generator = ExecLineGenerator(seed: seed, programs: launcher.programs)
      let line = generator.line()
      let context =
        "seed \(seed) (rerun it first with NOTIFY_GIO_ORACLE_SEED=\(seed)), Exec=\(Escaper.visible(line.exec)),"
        + " Name=\(line.name.map { Escaper.visible($0) } ?? "none"), Icon=\(line.icon ?? "none")"
      // When notify parses it and builds its command line, and gio launches it
      let entry = try DesktopEntry(parsing: line.fileText)
      #expect(entry.exec == line.exec && entry.name == line.name && entry.icon == line.icon, "\(context)")
      let ours = Result { () throws(DesktopEntryError) in try entry.commandLine(entryPath: "") }
      let gio = try launcher.launch(line.fileText)
      // Then a valid line runs with notify's argv, and a broken one is refused by notify
      if let breakage = line.breakage {
        broken += 1
        if case .ran = gio { brokenThatGioRan += 1 }
        #expect(throws: DesktopEntryError.self, "\(context): it has \(breakage), yet notify accepted it") {
          try ours.get()
        }
      } else {
        valid += 1
        switch ours {
        case .success(let argv): #expect(gio == .ran(argv), "\(context): notify computed \(argv)")
        case .failure(let error):
          Issue.record("\(context): notify refused a valid line: \(error); gio: \(gio)")
        }
      }
    }
    // And the run covered enough of both kinds
    #expect(valid >= Self.caseCount / 2 && broken >= Self.caseCount / 10, "valid \(valid), broken \(broken)")
    print(
      "gio oracle: \(valid) valid lines ran alike; of \(broken) lines the spec forbids, notify refused all"
        + " and gio ran \(brokenThatGioRan) (first seed \(Self.firstSeed))")
  }

  /// What one side does with an entry.
  enum Outcome: Equatable, Sendable, CustomStringConvertible {
    /// The program ran with these arguments after itself.
    case ran([String])
    /// gio refused to launch.
    case refused
    /// notify threw.
    case error(DesktopEntryError)

    var description: String {
      switch self {
      case .ran(let arguments): "ran with \(arguments)"
      case .refused: "refused"
      case .error(let error): "threw \(error)"
      }
    }
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    /// The file, `{P}` standing for the program as Exec writes it.
    var text: String
    var notify: Outcome
    var gio: Outcome
    /// Whether the program lives in a folder named "100%" (written "100%%" in Exec).
    var percentProgram = false
    var testDescription: String { name }
  }

  /// An application entry with `lines` after its Type.
  static func app(_ lines: String) -> String { "[Desktop Entry]\nType=Application\n" + lines + "\n" }

  static let cases: [Case] = [
    // Where the spec is loose or silent, notify does what GLib does.
    Case(
      name: "a repeated key: the last one wins",
      text: app("Name=First\nExec={P} first %c\nName=Second\nExec={P} second %c"),
      notify: .ran(["second", "Second"]), gio: .ran(["second", "Second"])),
    Case(
      name: "a repeated [Desktop Entry] group adds to the first",
      text: app("Exec={P} %c\n[Other]\nName=other\n[Desktop Entry]\nName=merged"),
      notify: .ran(["merged"]), gio: .ran(["merged"])),
    Case(
      name: "localized keys are ignored (gio runs in the C locale here)",
      text: app("Name[de]=Falsch\nName=Richtig\nName[fr]=Faux\nExec={P} %c"),
      notify: .ran(["Richtig"]), gio: .ran(["Richtig"])),
    Case(
      name: "CRLF line ends", text: app("Name=crlf\r\nExec={P} %c\r"), notify: .ran(["crlf"]),
      gio: .ran(["crlf"])),
    Case(
      name: "whitespace around '=' is dropped, after the value kept",
      text: app("Name =  a\\sb  \nExec = {P} %c"), notify: .ran(["a b  "]), gio: .ran(["a b  "])),
    Case(
      name: "a single backslash before $ in quotes survives the string unescaping",
      text: app("Exec={P} \"\\$HOME\" \"\\\\$PATH\""), notify: .ran(["$HOME", "$PATH"]),
      gio: .ran(["$HOME", "$PATH"])),
    Case(
      name: "file codes inside quotes expand to nothing", text: app("Exec={P} \"%f\" \"a %U b\""),
      notify: .ran(["", "a  b"]), gio: .ran(["", "a  b"])),
    Case(
      name: "%i glued to text splits there", text: app("Icon=chat\nExec={P} a%ib %i"),
      notify: .ran(["a--icon", "chatb", "--icon", "chat"]), gio: .ran(["a--icon", "chatb", "--icon", "chat"])),
    Case(
      name: "an empty Name makes %c an empty argument", text: app("Name=\nExec={P} %c end"),
      notify: .ran(["", "end"]), gio: .ran(["", "end"])),
    Case(
      name: "no Name makes %c disappear", text: app("Exec={P} %c x%cy"), notify: .ran(["xy"]),
      gio: .ran(["xy"])),
    Case(
      name: "no known location makes %k disappear", text: app("Exec={P} %k -k=%k"), notify: .ran(["-k="]),
      gio: .ran(["-k="])),
    Case(
      name: "quotes covering part of an argument, and runs of spaces",
      text: app("Exec=  {P}   --name=\"a b\"c   \"\"  "), notify: .ran(["--name=a bc", ""]),
      gio: .ran(["--name=a bc", ""])),
    Case(
      name: "%% and the deprecated codes", text: app("Exec={P} 100%% %d%D%n%N%v%m %%c"),
      notify: .ran(["100%", "%c"]), gio: .ran(["100%", "%c"])),
    // Both refuse.
    Case(
      name: "an empty Exec", text: app("Exec="), notify: .error(.malformedExec("it names no program")),
      gio: .refused),
    Case(
      name: "an unclosed quote", text: app("Exec={P} \"a b"),
      notify: .error(.malformedExec("a double quote is not closed")), gio: .refused),
    Case(
      name: "a field code in the program name", text: app("Exec={P}%f x"),
      notify: .error(.invalidFieldCode("%f")),
      gio: .refused),
    Case(
      name: "a Type with a trailing space", text: app("Exec={P}\nType=Application "),
      notify: .error(.notAnApplication(type: "Application ")), gio: .refused),
    Case(
      name: "a first group other than [Desktop Entry]",
      text: "[Other]\nA=b\n[Desktop Entry]\nType=Application\nExec={P}\n",
      notify: .error(.noDesktopEntryGroup),
      gio: .refused),
    Case(
      name: "a malformed line", text: app("Exec={P}\noops"), notify: .error(.malformedLine(number: 4)),
      gio: .refused),
    // Where GLib accepts what the spec forbids, notify follows the spec.
    Case(
      name: "%c inside quotes: gio passes the name with its shell quoting in it",
      text: app("Name=It's\nExec={P} \"%c\""), notify: .error(.invalidFieldCode("%c")),
      gio: .ran(["'It'\\''s'"])),
    Case(
      name: "%i inside quotes without an Icon: gio passes an empty argument", text: app("Exec={P} \"%i\""),
      notify: .error(.invalidFieldCode("%i")), gio: .ran([""])),
    Case(
      name: "unknown field codes: gio drops them", text: app("Exec={P} a%zb %1"),
      notify: .error(.invalidFieldCode("%z")), gio: .ran(["ab"])),
    Case(
      name: "a lone % at the end: gio keeps it", text: app("Exec={P} 100%"),
      notify: .error(.invalidFieldCode("%")),
      gio: .ran(["100%"])),
    Case(
      name: "reserved characters outside quotes: gio keeps them", text: app("Exec={P} a;b a>b ~c"),
      notify: .error(.malformedExec("';' outside quotes, where the spec reserves it")),
      gio: .ran(["a;b", "a>b", "~c"])),
    Case(
      name: "a single-quoted argument: gio unquotes it as a shell would", text: app("Exec={P} 'a b'"),
      notify: .error(.malformedExec("a single quote outside quotes, where the spec reserves it")),
      gio: .ran(["a b"])),
    Case(
      name: "a tab outside quotes: gio splits there", text: app("Exec={P} a\\tb"),
      notify: .error(.malformedExec("a tab outside quotes, where the spec reserves it")),
      gio: .ran(["a", "b"])),
    Case(
      name: "an unescaped $ inside quotes: gio keeps it", text: app("Exec={P} \"$HOME\""),
      notify: .error(.malformedExec("'$' inside quotes without the backslash the spec asks for")),
      gio: .ran(["$HOME"])),
    Case(
      name: "another backslash inside quotes: gio keeps it", text: app("Exec={P} \"a\\\\qb\""),
      notify: .error(
        .malformedExec("a backslash before 'q' inside quotes, where only \\\" \\` \\$ \\\\ are escapes")),
      gio: .ran(["a\\qb"])),
    // Where GLib departs from the spec, notify follows the spec.
    Case(
      name: "an empty Icon: gio passes --icon and an empty argument, the spec says nothing",
      text: app("Icon=\nExec={P} %i"), notify: .ran([]), gio: .ran(["--icon", ""])),
    Case(
      name: "a relative Icon ending in .png: gio strips the extension",
      text: app("Icon=chat.png\nExec={P} %i"),
      notify: .ran(["--icon", "chat.png"]), gio: .ran(["--icon", "chat"])),
    Case(
      name: "Hidden=true: gio launches anyway, the spec says the entry counts as deleted",
      text: app("Hidden=true\nExec={P} x"), notify: .error(.hidden), gio: .ran(["x"])),
    Case(
      name: "%% in the program name: gio looks up the name before expanding and finds nothing",
      text: app("Exec={P} x"), notify: .ran(["x"]), gio: .refused, percentProgram: true),
  ]

  @Test(
    "hand-picked entries: where GLib and notify agree, and where notify follows the spec instead",
    arguments: cases)
  func handPicked(_ testCase: Case) throws {
    // Given the entry, its program a script that records its argv
    var launcher = try GioLauncher()
    let program = testCase.percentProgram ? launcher.percentProgram : launcher.plainProgram
    let written = testCase.percentProgram ? program.replacingOccurrences(of: "%", with: "%%") : program
    let text = testCase.text.replacingOccurrences(of: "{P}", with: written)
    // When notify builds its command line and gio launches it
    let ours: Outcome
    do {
      let argv = try DesktopEntry(parsing: text).commandLine(entryPath: "")
      #expect(argv.first == program)
      ours = .ran(Array(argv.dropFirst()))
    } catch {
      ours = .error(error)
    }
    var gio = try launcher.launch(text)
    if case .ran(let argv) = gio {
      #expect(argv.first == program)
      gio = .ran(Array(argv.dropFirst()))
    }
    // Then each does what the case documents
    #expect(ours == testCase.notify)
    #expect(gio == testCase.gio)
  }
}

/// GLib's `gio launch` in a clean environment: no DISPLAY, no session bus, HOME in a
/// temporary folder.
struct GioLauncher {
  static let gio = "/usr/bin/gio"

  /// Whether gio exists and launches a trivial entry; prints why not when it does not.
  static let isUsable: Bool = {
    guard FileManager.default.isExecutableFile(atPath: gio) else {
      print("skipping the gio oracle: \(gio) is missing (Debian: apt-get install libglib2.0-bin)")
      return false
    }
    do {
      var launcher = try GioLauncher()
      let outcome = try launcher.launch(DesktopEntryGioOracleTests.app("Exec=\(launcher.plainProgram) probe"))
      guard outcome == .ran([launcher.plainProgram, "probe"]) else {
        print("skipping the gio oracle: gio launch of a trivial entry gave \(outcome)")
        return false
      }
      return true
    } catch {
      print("skipping the gio oracle: \(error)")
      return false
    }
  }()

  /// What gio did with an entry: the program's whole argv, or a refusal.
  typealias Outcome = DesktopEntryGioOracleTests.Outcome

  let folder = TemporaryFolder(prefix: "notify-gio")
  /// The argv-recording script at a path without spaces.
  let plainProgram: String
  /// The same script in a folder whose name needs quoting.
  let spacedProgram: String
  /// The same script in a folder named "100%".
  let percentProgram: String
  var programs: [String] { [plainProgram, spacedProgram] }
  private var launches = 0

  init() throws {
    plainProgram = folder.file("dump-args.sh")
    spacedProgram = folder.file("dump ✓ dir/dump-args.sh")
    percentProgram = folder.file("100%/dump-args.sh")
    try FileManager.default.createDirectory(atPath: folder.file("home"), withIntermediateDirectories: true)
    // Writes its arguments, $0 first, each ended by a NUL, to $DUMP_TO; the rename makes the
    // file appear whole.
    let script = #"""
      #!/bin/sh
      { printf '%s\0' "$0"; for argument in "$@"; do printf '%s\0' "$argument"; done; } >"$DUMP_TO.part"
      mv "$DUMP_TO.part" "$DUMP_TO"

      """#
    for program in [plainProgram, spacedProgram, percentProgram] {
      let folder = (program as NSString).deletingLastPathComponent
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      guard
        FileManager.default.createFile(
          atPath: program, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
      else { throw GioLauncherError("cannot write \(program)") }
    }
  }

  /// Runs `gio launch` on an entry with `text` and waits for its program's argv. A launch
  /// whose program never ran although gio said it started it is tried once more (a clean-clone
  /// run saw it once in about 300 launches on a loaded machine: gio exited 0, no argv came);
  /// twice is an error.
  mutating func launch(_ text: String) throws -> Outcome {
    do {
      return try launchOnce(text)
    } catch let error as GioLauncherError where error.programDidNotRun {
      print("gio oracle: \(error); launching once more")
      return try launchOnce(text)
    }
  }

  private mutating func launchOnce(_ text: String) throws -> Outcome {
    launches += 1
    let entry = folder.file("entry-\(launches).desktop")
    let dump = folder.file("entry-\(launches).argv")
    let errors = folder.file("entry-\(launches).stderr")
    try Data(text.utf8).write(to: URL(fileURLWithPath: entry))
    let environment = [
      "PATH": "/usr/bin:/bin", "HOME": folder.file("home"), "XDG_DATA_DIRS": "/usr/share", "DUMP_TO": dump,
      // gio only announces a launch on the session bus; this keeps it off everyone's bus and
      // from autolaunching one.
      "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent",
    ]
    let pid = try CommandRunner.spawn([Self.gio, "launch", entry], environment: environment, stderr: errors)
    var status: Int32 = 0
    guard waitUntil(timeout: 30, { waitpid(pid, &status, WNOHANG) == pid }) else {
      kill(pid, SIGKILL)
      CommandRunner.wait(pid)
      throw GioLauncherError("gio launch did not exit within 30 s")
    }
    guard CommandRunner.exitCode(ofWaitStatus: status) == 0 else { return .refused }
    // gio exits once the program is started; the program writes its argv soon after.
    guard waitUntil(timeout: 30, { FileManager.default.fileExists(atPath: dump) }),
      let bytes = fileBytes(dump)
    else {
      let stderr = String(decoding: fileBytes(errors) ?? Data(), as: UTF8.self)
      throw GioLauncherError(
        "gio launch exited 0 but the program wrote no argv within 30 s; gio said: \(stderr)",
        programDidNotRun: true)
    }
    var arguments = bytes.split(separator: 0, omittingEmptySubsequences: false)
    arguments.removeLast()  // the empty field after the last NUL
    return .ran(arguments.map { String(decoding: $0, as: UTF8.self) })
  }
}

/// Why the oracle could not run gio.
struct GioLauncherError: Error, CustomStringConvertible {
  var description: String
  /// gio said it started the program, which never wrote its argv.
  var programDidNotRun = false
  init(_ description: String, programDidNotRun: Bool = false) {
    self.description = description
    self.programDidNotRun = programDidNotRun
  }
}

/// Random Exec lines from parts whose meaning is known: a valid line is one the spec allows
/// as notify reads it; a broken one has one part that breaks it.
struct ExecLineGenerator {
  struct Line {
    /// The Exec value, general escapes undone.
    var exec: String
    var name: String?
    var icon: String?
    /// What the generator broke, nil for a valid line.
    var breakage: String?
    /// The whole .desktop file.
    var fileText: String
  }

  var random: SeededGenerator
  let programs: [String]

  init(seed: UInt64, programs: [String]) {
    random = SeededGenerator(seed: seed)
    self.programs = programs
  }

  static let plainPieces =
    Array("abcxyzXYZ0129-_./:=,+@!^{}[]").map(String.init) + [
      "é", "ß", "日本", "✓", "🎉", "e\u{301}", "\u{301}",
    ]
  static let quotedPieces =
    plainPieces + [
      " ", "  ", "\t", "\n", "\r", "'", ">", "<", "~", "|", "&", ";", "*", "?", "#", "(", ")", "\\\"", "\\\\",
      "\\$", "\\`", "%%", "%f", "%U", "%d",
    ]
  static let loneCodes = ["%f", "%F", "%u", "%U", "%d", "%D", "%n", "%N", "%v", "%m", "%c", "%k", "%i", "%%"]
  static let names: [String?] = [
    nil, "Chat", "My Chat App", "It's \"quoted\"", "日本語 ✓ 🎉", "$HOME `x` \\back", "tab\there", "new\nline",
    "",
    " lead", "100% %c sure", "a=b;c", "",
  ]
  static let icons: [String?] = [
    nil, "chat", "org.example.Chat", "/opt/My Icons/chat.svg", "ïcon ✓", "o'brien",
  ]

  mutating func line() -> Line {
    let program = programs.randomElement(using: &random)!
    var arguments = (0..<Int.random(in: 0...6, using: &random)).map { _ in validArgument() }
    var breakage: String?
    if Int.random(in: 0..<5, using: &random) == 0 {
      let (broken, what) = brokenArgument()
      breakage = what
      if what == "an unclosed quote" {
        arguments.append(broken)
      } else {
        arguments.insert(broken, at: Int.random(in: 0...arguments.count, using: &random))
      }
    }
    let quoteProgram = program.contains(" ") || Bool.random(using: &random)
    var exec = spaces(0...2) + (quoteProgram ? quoted(program) : program)
    for argument in arguments { exec += spaces(1...3) + argument }
    exec += spaces(0...2)
    let name = Self.names.randomElement(using: &random)!
    let icon = Self.icons.randomElement(using: &random)!

    var text = "# generated\n[Desktop Entry]\nType=Application\n"
    if let name { text += "Name=\(fileValue(name))\n" }
    if Bool.random(using: &random) { text += "Name[de]=Falsch\n" }
    if let icon { text += "Icon=\(fileValue(icon))\n" }
    text += "Exec=\(fileValue(exec))\n"
    if Bool.random(using: &random) { text += "\n[Desktop Action other]\nExec=/bin/false %c\n" }
    return Line(exec: exec, name: name, icon: icon, breakage: breakage, fileText: text)
  }

  /// An argument the spec allows.
  mutating func validArgument() -> String {
    switch Int.random(in: 0..<7, using: &random) {
    case 0: return plainWord()
    case 1: return quotedWord()
    case 2: return plainWord() + quotedWord() + (Bool.random(using: &random) ? plainWord() : "")
    case 3: return "\"\""
    case 4: return Self.loneCodes.randomElement(using: &random)!
    case 5:
      let code = ["%c", "%k", "%i", "%%", "%f", "%u"].randomElement(using: &random)!
      return maybe(plainWord()) + code + maybe(plainWord())
    default:
      let code = ["%c", "%i", "%k"].randomElement(using: &random)!
      return Bool.random(using: &random) ? quotedWord() + code : code + quotedWord()
    }
  }

  /// An argument that breaks one rule, and what it breaks.
  mutating func brokenArgument() -> (String, String) {
    switch Int.random(in: 0..<7, using: &random) {
    case 0:
      return ("\"" + plainWord(), "an unclosed quote")
    case 1:
      let reserved = [";", ">", "<", "~", "|", "&", "*", "?", "(", ")", "$", "`", "'", "\\", "#", "\t", "\n"]
      let character = reserved.randomElement(using: &random)!
      return (plainWord() + character + plainWord(), "\(Escaper.visible(character)) outside quotes")
    case 2:
      return ("\"a\\qb\"", "a backslash before q inside quotes")
    case 3:
      let character = ["$", "`"].randomElement(using: &random)!
      return ("\"" + plainWord() + character + "x\"", "an unescaped \(character) inside quotes")
    case 4:
      let code = ["%z", "%1", "%Q", "%-"].randomElement(using: &random)!
      return (maybe(plainWord()) + code + maybe(plainWord()), "the unknown field code \(code)")
    case 5:
      return (plainWord() + "%", "a lone %")
    default:
      let code = ["%c", "%k", "%i"].randomElement(using: &random)!
      return ("\"" + maybe(plainWord()) + code + maybe(plainWord()) + "\"", "\(code) inside quotes")
    }
  }

  mutating func plainWord() -> String {
    (0..<Int.random(in: 1...6, using: &random)).map { _ in Self.plainPieces.randomElement(using: &random)! }
      .joined()
  }

  mutating func quotedWord() -> String {
    let pieces = (0..<Int.random(in: 0...6, using: &random)).map { _ in
      Self.quotedPieces.randomElement(using: &random)!
    }
    return "\"" + pieces.joined() + "\""
  }

  mutating func maybe(_ text: String) -> String { Bool.random(using: &random) ? text : "" }

  mutating func spaces(_ count: ClosedRange<Int>) -> String {
    String(repeating: " ", count: Int.random(in: count, using: &random))
  }

  /// `text` as a quoted Exec argument.
  func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      if "\"`$\\".unicodeScalars.contains(scalar) { out += "\\" }
      out.unicodeScalars.append(scalar)
    }
    return out + "\""
  }

  /// `value` as written after `Key=` in a file: the general escapes applied, a leading space
  /// (which the reader would drop) and some others written `\s`.
  mutating func fileValue(_ value: String) -> String {
    var out = ""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      case " " where out.isEmpty || Int.random(in: 0..<4, using: &random) == 0: out += "\\s"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

import Foundation
import NotifyTestSupport
import Testing

@testable import NotifyCore

/// `DesktopEntry.execLine(_:)`: writing an Exec value that launches exactly the given argv,
/// checked line by line, against notify's own parser, and against GLib's `gio launch`.
@Suite("DesktopEntry.execLine: an Exec value for an argv")
struct DesktopEntryExecLineTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var arguments: [String]
    /// The value after `Exec=`, as written in the file.
    var line: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "plain words stay bare", arguments: ["/usr/bin/chat", "--nick", "ada"],
      line: "/usr/bin/chat --nick ada"),
    Case(
      name: "'=' and brackets are not reserved", arguments: ["chat", "--x=[1]{2}"], line: "chat --x=[1]{2}"),
    Case(name: "a space asks for quotes", arguments: ["chat", "a b"], line: #"chat "a b""#),
    Case(name: "an empty argument is an empty pair of quotes", arguments: ["chat", ""], line: #"chat """#),
    Case(name: "a channel name: # is reserved", arguments: ["chat", "#notify"], line: ##"chat "#notify""##),
    Case(
      name: "the four escapes inside quotes, their backslashes escaped as a string value",
      arguments: ["chat", #"say "hi" `x` $HOME"#],
      line: #"chat "say \\"hi\\" \\`x\\` \\$HOME""#),
    Case(
      name: "a backslash is escaped in quotes, then as a string value", arguments: ["chat", #"C:\dir"#],
      line: #"chat "C:\\\\dir""#),
    Case(
      name: "other reserved characters are literal in quotes",
      arguments: ["chat", "a;b|c>d<e~f&g*h?i(j)k'l"],
      line: #"chat "a;b|c>d<e~f&g*h?i(j)k'l""#),
    Case(name: "% is doubled bare", arguments: ["chat", "100%", "%f"], line: "chat 100%% %%f"),
    Case(name: "% is doubled in quotes", arguments: ["chat", "50 %u"], line: #"chat "50 %%u""#),
    Case(
      name: "a program with a space is quoted", arguments: ["/opt/My Chat/chat"],
      line: #""/opt/My Chat/chat""#),
    Case(
      name: "non-ASCII stays as it is", arguments: ["chat", "héllo", "日本 ✓"], line: #"chat héllo "日本 ✓""#),
  ]

  @Test("quoting", arguments: cases)
  func quoting(_ testCase: Case) throws {
    // Given an argv; when its Exec line is written
    let line = try DesktopEntry.execLine(testCase.arguments)
    // Then it is quoted as the spec says, and reads back as the same argv
    #expect(line == testCase.line)
    #expect(try Self.roundTrip(line) == testCase.arguments)
  }

  struct Refusal: Sendable, CustomTestStringConvertible {
    var name: String
    var arguments: [String]
    var problem: String
    var testDescription: String { name }
  }

  static let refusals: [Refusal] = [
    Refusal(name: "no arguments", arguments: [], problem: "it names no program"),
    Refusal(name: "an empty program", arguments: ["", "x"], problem: "the program name is empty"),
    Refusal(
      name: "'=' in the program", arguments: ["A=1", "chat"],
      problem: "the program name contains '=', which the spec forbids there"),
    Refusal(
      name: "a newline", arguments: ["chat", "a\nb"],
      problem: "argument 2 holds the control character U+000A, which a desktop file string value cannot carry"
    ),
    Refusal(
      name: "a tab", arguments: ["chat", "ok", "a\tb"],
      problem: "argument 3 holds the control character U+0009, which a desktop file string value cannot carry"
    ),
    Refusal(
      name: "a carriage return in the program", arguments: ["chat\r"],
      problem: "argument 1 holds the control character U+000D, which a desktop file string value cannot carry"
    ),
    Refusal(
      name: "NUL", arguments: ["chat", "\u{0}"],
      problem: "argument 2 holds the control character U+0000, which a desktop file string value cannot carry"
    ),
    Refusal(
      name: "DEL", arguments: ["chat", "\u{7F}"],
      problem: "argument 2 holds the control character U+007F, which a desktop file string value cannot carry"
    ),
    Refusal(
      name: "a C1 control", arguments: ["chat", "\u{9B}31m"],
      problem: "argument 2 holds the control character U+009B, which a desktop file string value cannot carry"
    ),
  ]

  @Test("what no Exec line can carry is refused", arguments: refusals)
  func refusal(_ refusal: Refusal) {
    #expect(throws: DesktopEntryError.unwritableExec(refusal.problem)) {
      try DesktopEntry.execLine(refusal.arguments)
    }
  }

  /// Lines per run; the first seed is `NOTIFY_EXEC_LINE_SEED` when set.
  static let caseCount = 2000
  static let firstSeed =
    ProcessInfo.processInfo.environment["NOTIFY_EXEC_LINE_SEED"].flatMap { UInt64($0) } ?? 20_251_124

  @Test("random argvs read back the same through notify's parser")
  func randomArgvsRoundTrip() throws {
    for index in 0..<Self.caseCount {
      // Given a random argv, from a seed of its own
      let seed = Self.firstSeed &+ UInt64(index)
      var generator = ArgvGenerator(seed: seed)
      let argv = generator.argv(program: generator.argument(allowingEmpty: false, allowingEquals: false))
      // When its Exec line is written into an entry, and the entry is read and expanded
      let line = try DesktopEntry.execLine(argv)
      // Then the command line is the argv
      let read = try Self.roundTrip(line)
      #expect(
        read == argv, "seed \(seed) (rerun it first with NOTIFY_EXEC_LINE_SEED=\(seed)): Exec=\(line)")
      if read != argv { return }
    }
  }

  /// `line` written after `Exec=` in an application entry, read back by the parser.
  static func roundTrip(_ line: String) throws -> [String] {
    let text = "[Desktop Entry]\nType=Application\nName=Round trip\nExec=\(line)\n"
    return try DesktopEntry(parsing: text).commandLine(entryPath: "/tmp/round-trip.desktop")
  }
}

/// The same round trip through GLib's `gio launch` (`GioLauncher`, shared with
/// `DesktopEntryGioOracleTests`): what notify writes, GNOME runs as written.
@Suite(
  "DesktopEntry.execLine against GLib's gio launch", .serialized, .ownThreads,
  .enabled(if: GioLauncher.isUsable, "needs /usr/bin/gio (Debian: libglib2.0-bin) able to launch an entry"))
struct DesktopEntryExecLineGioTests {
  /// Launches per run (each one starts gio and a shell); the first seed is
  /// `NOTIFY_EXEC_LINE_SEED` when set.
  static let caseCount = 100

  @Test("random argvs: gio runs the program with exactly those arguments")
  func randomArgvsThroughGio() throws {
    var launcher = try GioLauncher()
    for index in 0..<Self.caseCount {
      // Given a random argv whose program is the argv-recording script (a path with a
      // space, "✓" and "/" for one of them)
      let seed = DesktopEntryExecLineTests.firstSeed &+ UInt64(index)
      var generator = ArgvGenerator(seed: seed)
      let argv = generator.argv(program: launcher.programs.randomElement(using: &generator.random)!)
      // When its Exec line is written into an entry and gio launches it
      let line = try DesktopEntry.execLine(argv)
      let outcome = try launcher.launch("[Desktop Entry]\nType=Application\nName=Gio\nExec=\(line)\n")
      // Then the program ran with exactly the argv
      #expect(
        outcome == .ran(argv),
        "seed \(seed) (rerun it first with NOTIFY_EXEC_LINE_SEED=\(seed)): Exec=\(line), wanted \(argv)")
    }
  }
}

/// Random argvs built from the pieces that matter to quoting: every reserved character,
/// `%` and would-be field codes, `=`, quotes, non-ASCII and combining marks, empty
/// arguments; never a control character (those are refused, see `refusal`).
struct ArgvGenerator {
  var random: SeededGenerator

  init(seed: UInt64) { random = SeededGenerator(seed: seed) }

  static let pieces: [String] =
    Array("abcXYZ019-_./:=,+@!^{}[]").map(String.init)
    // The characters the spec reserves, tab and newline aside (control characters).
    + [" ", "  ", "\"", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")", "`"]
    + [
      "%", "%f", "%U", "%c", "%i", "%k", "%%", "--", "--name=", "é", "ß", "日本", "✓", "🎉", "e\u{301}",
      "\u{301}",
    ]

  /// The program, then up to eight random arguments.
  mutating func argv(program: String) -> [String] {
    [program] + (0..<Int.random(in: 0...8, using: &random)).map { _ in argument() }
  }

  /// An argument of up to eight pieces; empty one time in ten unless refused.
  mutating func argument(allowingEmpty: Bool = true, allowingEquals: Bool = true) -> String {
    if allowingEmpty, Int.random(in: 0..<10, using: &random) == 0 { return "" }
    var pieces = Self.pieces
    if !allowingEquals { pieces.removeAll { $0.contains("=") } }
    return (0..<Int.random(in: 1...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }
      .joined()
  }
}

import Foundation
import NotifyTestSupport
import Testing

/// The man pages render without a groff warning, and their prose pairs its quotes and
/// parentheses (a page once read `('Europe/Berlin, ':Europe/Berlin'')`). The hand-written
/// sections in man/ are checked always (with groff); the whole pages as installed when
/// generate-manual is built (`swift build --product generate-manual`, which
/// `.ci/install-check` runs before the tests).
@Suite("man pages: no groff warnings, quotes and parentheses that pair up", .ownThreads)
struct ManualPageTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()
  static let generator = CommandRunner.product("generate-manual")
  static let hasGroff = TestEnvironment.isInstalled("groff")
  let folder = TemporaryFolder()

  /// The page rendered as plain ASCII text, one paragraph a line where it fits 200
  /// columns, and what groff warned of (every warning on).
  static func render(_ page: String) throws -> (text: String, warnings: String) {
    let result = try CommandRunner(executable: "groff").run(
      ["-mandoc", "-Tascii", "-P-cbou", "-ww", "-rLL=200n", page])
    #expect(result.status == 0, "groff \(page): \(result.stderr)")
    return (result.stdout, result.stderr)
  }

  /// The blank-line separated paragraphs of rendered text whose quotes or parentheses do
  /// not pair up, with the problem.
  static func unpaired(_ text: String) -> [String] {
    text.components(separatedBy: "\n\n").compactMap { paragraph in
      ProseBalance.problem(in: paragraph).map { "\($0)\n\(paragraph)" }
    }
  }

  @Test(
    "the check finds prose whose quotes or parentheses do not pair up, and passes prose that does",
    arguments: [
      ("a zone name ('Europe/Berlin, ':Europe/Berlin''), an absolute path", false),
      ("APP's notification sounds (notify sound install), default ~/.local/share), then each", false),
      ("(values: on, off", false),
      ("a button without 'open, a reply", false),
      ("a zone name ('Europe/Berlin' or ':Europe/Berlin'), an absolute path", true),
      ("APP's sounds (XDG_DATA_HOME defaults to ~/.local/share), then each", true),
      ("--user-info '{\"room\":\"4B\",\"k\":[1,{\"v\":null}]}' and --body \"Daily standup\"", true),
      ("marked \"held for quiet hours\"), and `notify list` (the app's own)", false),
      ("marked \"held for quiet hours\", and `notify list` (the app's own)", true),
    ])
  func check(text: String, pairs: Bool) {
    #expect((ProseBalance.problem(in: text) == nil) == pairs, "\(ProseBalance.problem(in: text) ?? "pairs")")
  }

  @Test(
    "man/'s sections (ENVIRONMENT, FILES, EXAMPLES, EXIT STATUS) render without warnings, their prose paired",
    .enabled(if: hasGroff, "needs groff (apt-get install groff-base)"))
  func handWritten() throws {
    // Given the sections in a page of their own
    let man = Self.repository.appendingPathComponent("man")
    let sections = try String(contentsOf: man.appendingPathComponent("notify.1.sections"), encoding: .utf8)
    let exits = try String(contentsOf: man.appendingPathComponent("exit-status.mdoc"), encoding: .utf8)
    let page = folder.file("sections.1")
    try
      (".Dd May 1, 2026\n.Dt NOTIFY 1\n.Os\n.Sh NAME\n.Nm notify\n.Nd sections\n" + sections
      + ".Sh EXIT STATUS\n" + exits).write(toFile: page, atomically: true, encoding: .utf8)
    // When groff renders it
    let (text, warnings) = try Self.render(page)
    // Then it warns of nothing, says all it should, and its quotes and parentheses pair up
    #expect(warnings.isEmpty, "\(warnings)")
    for heading in ["ENVIRONMENT", "FILES", "EXAMPLES", "EXIT STATUS"] {
      #expect(text.contains("\n\(heading)\n"))
    }
    #expect(text.contains("('Europe/Berlin' or ':Europe/Berlin')"), "\(text)")
    #expect(Self.unpaired(text).isEmpty, "\(Self.unpaired(text).joined(separator: "\n---\n"))")
  }

  @Test(
    "the installed pages render without warnings, prose paired, each help example on a line of its own, named for whatis",
    .enabled(if: hasGroff, "needs groff (apt-get install groff-base)"),
    .enabled(if: TestEnvironment.isInstalled("lexgrog"), "needs lexgrog (apt-get install man-db)"),
    .enabled(
      if: CommandRunner.isRegularExecutable(generator),
      "needs generate-manual beside notify (swift build --product generate-manual; .ci/install-check builds it)"
    ))
  func installed() throws {
    // Given the pages install.sh installs: generate-manual's, finished by finish-man-pages.sh
    let generated = folder.file("generated")
    let finished = folder.file("finished")
    try FileManager.default.createDirectory(atPath: generated, withIntermediateDirectories: true)
    let generate = try CommandRunner(executable: Self.generator).run(
      [CommandRunner.product("notify"), "--multi-page", "--output-directory", generated])
    try #require(generate.status == 0, "\(generate.stderr)")
    let finish = try CommandRunner(executable: "bash").run(
      [Self.repository.appendingPathComponent("scripts/finish-man-pages.sh").path, generated, finished])
    try #require(finish.status == 0, "\(finish.stderr)")
    let pages = try FileManager.default.contentsOfDirectory(atPath: finished).filter { $0.hasSuffix(".1") }
      .sorted()
    #expect(pages.count == HelpCommand.all.count, "\(pages)")
    for command in HelpCommand.all {
      let page = (["notify"] + command.path).joined(separator: "-") + ".1"
      // When groff renders each
      let (text, warnings) = try Self.render("\(finished)/\(page)")
      // Then it warns of nothing, its prose pairs up, and each example keeps a line
      #expect(warnings.isEmpty, "\(page): \(warnings)")
      // And whatis and apropos read its NAME line as the page's name (man-db's lexgrog)
      let whatis = try CommandRunner(executable: "/usr/bin/lexgrog").run(["\(finished)/\(page)"])
      #expect(
        whatis.status == 0 && whatis.stdout.contains(": \"\(page.dropLast(2)) - "),
        "\(page): \(whatis.stdout)")
      #expect(Self.unpaired(text).isEmpty, "\(page): \(Self.unpaired(text).joined(separator: "\n---\n"))")
      let lines = Set(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
      for example in command.examples {
        let trimmed = example.trimmingCharacters(in: .whitespaces)
        #expect(lines.contains(trimmed), "\(page): the example '\(trimmed)' shares a line:\n\(text)")
      }
    }
  }
}

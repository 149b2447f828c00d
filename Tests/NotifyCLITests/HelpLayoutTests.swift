import Foundation
import NotifyTestSupport
import Testing

/// `notify … --help` as a terminal shows it: swift-argument-parser wraps
/// each line of a discussion to the terminal's width, so prose is written one paragraph a
/// line and left to it, and examples are indented lines short enough for 80 columns. The
/// same text makes the man pages (generate-manual), hence the rules on what it may hold.
@Suite("help text: prose wraps at the terminal's width, examples stay whole", .ownThreads)
struct HelpLayoutTests {
  /// An example line may be this long, its indentation included: it fits an 80-column
  /// terminal, and a man page's DESCRIPTION at MANWIDTH=80 (indented by 5 more).
  static let exampleWidth = 74
  static let widths = [80, 200]

  static func endsSentence(_ line: String) -> Bool {
    let end = line.reversed().drop { ")\"'".contains($0) }.first
    return end.map { ".:!?".contains($0) } ?? false
  }

  @Test("the tree is read from the binary, every subcommand in it")
  func treeIsRead() {
    let names = Set(HelpCommand.all.map(\.description))
    #expect(HelpCommand.all.count >= 20, "\(names)")
    for name in ["notify", "notify schedule", "notify quiet", "notify settings", "notify sound check"] {
      #expect(names.contains(name), "\(name) missing from \(names)")
    }
  }

  @Test(
    "each example stays one line, as written; prose breaks only at a sentence's end or where the terminal ends",
    arguments: HelpCommand.all.flatMap { command in widths.map { (command, $0) } })
  func rendered(command: HelpCommand, columns: Int) throws {
    // Given the terminal's width in COLUMNS
    let notify = CommandRunner(environment: ["COLUMNS": "\(columns)"])
    // When the command's help is shown
    let result = try notify.run(command.path + ["--help"])
    #expect(result.status == 0, "\(result.stderr)")
    let top = try #require(result.stdout.components(separatedBy: "\nUSAGE: ").first)
    let lines = top.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let examples = Set(command.examples)
    // Then every example of the source is a line of its own, whole
    for example in command.examples {
      #expect(lines.contains(example), "\(command) at \(columns) columns broke '\(example)':\n\(top)")
    }
    for line in lines {
      #expect(line.count <= columns, "\(command): wider than \(columns) columns: '\(line)'")
      // And an indented `notify …` line is one of them, not a piece of one
      #expect(
        !(line.hasPrefix(" ") && line.drop { $0 == " " }.hasPrefix("notify ")) || examples.contains(line),
        "\(command) at \(columns) columns: '\(line)' is not an example of the source:\n\(top)")
    }
    // And within prose a line ends a sentence, or the next word would not have fitted
    for (line, next) in zip(lines, lines.dropFirst()) {
      guard !line.isEmpty, !next.isEmpty, !examples.contains(line), !examples.contains(next) else { continue }
      let nextWord = next.prefix { $0 != " " }.count
      #expect(
        Self.endsSentence(line) || line.count + 1 + nextWord >= columns,
        "\(command) at \(columns) columns: a hard line break after '\(line)':\n\(top)")
    }
  }

  @Test(
    "the source: one paragraph a line, examples indented and short, text a man page keeps",
    arguments: HelpCommand.all)
  func source(command: HelpCommand) {
    let texts = [command.abstract, command.discussion] + command.argumentTexts
    // generate-manual drops every character outside ASCII (µLaw became Law)
    for text in texts {
      let ascii = text.unicodeScalars.allSatisfy { $0.isASCII }
      #expect(ascii, "\(command): '\(text)' has characters a man page loses")
      #expect(ProseBalance.problem(in: text) == nil, "\(command): \(ProseBalance.problem(in: text) ?? "")")
    }
    #expect(
      Self.endsSentence(command.abstract), "\(command): the abstract '\(command.abstract)' ends no sentence")
    var afterExample = false
    let lines = command.discussion.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for line in command.discussion.isEmpty ? [] : lines {
      // mdoc warns of an empty line; a line starting with . or ' would be a roff request
      #expect(!line.isEmpty, "\(command): an empty line in the discussion")
      #expect(
        !line.hasPrefix(".") && !line.hasPrefix("'"), "\(command): '\(line)' starts like a roff request")
      if line.hasPrefix(" ") {
        #expect(
          line.count <= Self.exampleWidth, "\(command): the example '\(line)' is over \(Self.exampleWidth)")
        afterExample = true
      } else {
        // A paragraph is one line; after the examples a man page would run it into the last one
        #expect(Self.endsSentence(line), "\(command): '\(line)' is broken by hand")
        #expect(!afterExample, "\(command): prose '\(line)' after the examples")
      }
    }
  }
}

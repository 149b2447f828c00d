import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// The body markup subset an app may opt in to, checked against Pango, which
/// dunst and GNOME Shell parse bodies with.
struct BodyMarkupTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var input: String
    var markup: String
    var plain: String
    var testDescription: String { input }
  }

  @Test(arguments: [
    Case(input: "plain & <b>bold</b>", markup: "plain &amp; <b>bold</b>", plain: "plain & bold"),
    Case(input: "<B>up</B>", markup: "<b>up</b>", plain: "up"),
    Case(input: "<b><i>both</b> after", markup: "<b><i>both</i></b> after", plain: "both after"),
    Case(input: "<u>never closed", markup: "<u>never closed</u>", plain: "never closed"),
    Case(input: "stray</i> close", markup: "stray close", plain: "stray close"),
    Case(
      input: "<a href=\"https://example.org/?a=1&amp;b=2\">site</a>",
      markup: "<a href=\"https://example.org/?a=1&amp;b=2\">site</a>", plain: "site"),
    Case(
      input: "<a href='mailto:ada@example.org'>mail</a>",
      markup: "<a href=\"mailto:ada@example.org\">mail</a>", plain: "mail"),
    Case(input: "<a href=\"javascript:alert(1)\">click</a>", markup: "click", plain: "click"),
    Case(input: "<a href=\"file:///etc/passwd\">f</a>", markup: "f", plain: "f"),
    Case(input: "&lt;3 &#65;&#x42; &nope; &", markup: "&lt;3 AB &amp;nope; &amp;", plain: "<3 AB &nope; &"),
    Case(input: "quote \" ' >", markup: "quote &quot; &apos; &gt;", plain: "quote \" ' >"),
  ])
  func rendering(_ c: Case) throws {
    let parsed = try BodyMarkup(parsing: c.input)
    #expect(parsed.markup == c.markup)
    #expect(parsed.plain == c.plain)
  }

  @Test(
    "other tags, attributes and a lone '<' are refused, naming what and the fix",
    arguments: [
      "<script>x</script>", "<img src=x>", "<b class=\"x\">b</b>", "<a onclick=\"x\">a</a>", "a < b",
      "</span>",
    ])
  func refusals(_ input: String) {
    let error = #expect(throws: NotifyError.self) { try BodyMarkup(parsing: input) }
    #expect(error?.kind == .invalidData)
    #expect(error?.description.contains("the body's markup has") == true, "\(String(describing: error))")
  }

  @Test(
    "random bodies (seeded): Pango reads our markup as our plain text, and reading it again changes nothing")
  func againstPango() throws {
    var random = SeededGenerator(seed: 26_28)
    let pieces = [
      "<b>", "</b>", "<i>", "</i>", "<u>", "</u>", "<a href=\"https://x.org/?q=1&amp;r=2\">",
      "<a href='javascript:void(0)'>", "</a>", "&amp;", "&lt;", "&gt;", "&quot;", "&#65;", "&#x263A;", "&",
      "x",
      " ", "é", "\"", "'", ">", "\n", "日本",
    ]
    var inputs: [String] = []
    var parsed: [BodyMarkup] = []
    for _ in 0..<400 {
      let input = (0..<Int.random(in: 1...12, using: &random)).map { _ in
        pieces.randomElement(using: &random)!
      }
      .joined()
      inputs.append(input)
      parsed.append(try BodyMarkup(parsing: input))
    }
    let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/markup_oracle.py").path
    let result = try CommandRunner(executable: "/usr/bin/python3").run(
      [oracle], stdin: JSONValue.array(parsed.map { .string($0.markup) }).compactText, timeout: 60)
    try #require(result.status == 0, "\(result.stderr)")
    guard case .array(let answers) = try JSONValue.parse(result.stdout) else {
      Issue.record("not an array: \(result.stdout)")
      return
    }
    for (index, body) in parsed.enumerated() {
      #expect(answers[index] == .string(body.plain), "\(inputs[index]) -> \(body.markup)")
      #expect(try BodyMarkup(parsing: body.markup).markup == body.markup, "\(inputs[index])")
    }
  }
}

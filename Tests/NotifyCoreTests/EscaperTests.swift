import Testing

@testable import NotifyCore

@Suite("Escaper: untrusted text made safe")
struct EscaperTests {
  @Test(
    "visible() shows control and bidi characters as escapes",
    arguments: [
      ("plain", "plain"),
      ("bell\u{07}", "bell\\u{7}"),
      ("\u{1B}[31mred", "\\u{1b}[31mred"),
      ("del\u{7F}", "del\\u{7f}"),
      ("c1\u{9B}", "c1\\u{9b}"),
      ("line\nbreak\ttab", "line\\u{a}break\\u{9}tab"),
      ("cr\r", "cr\\u{d}"),
      ("rtl\u{202E}txt", "rtl\\u{202e}txt"),
      ("isolate\u{2066}", "isolate\\u{2066}"),
      ("sep\u{2028}", "sep\\u{2028}"),
      ("ünïcødé ✓ 🎉", "ünïcødé ✓ 🎉"),
    ])
  func visible(input: String, expected: String) {
    #expect(Escaper.visible(input) == expected)
  }

  @Test("visible(keepLines:) keeps newline and tab only")
  func keepLines() {
    #expect(Escaper.visible("a\nb\tc\u{1B}", keepLines: true) == "a\nb\tc\\u{1b}")
  }

  @Test(
    "visible(limit:) cuts after `limit` scalars with an ellipsis",
    arguments: [
      ("abcdef", 3, "abc…"), ("abc", 3, "abc"), ("", 0, ""), ("ab", 0, "…"),
    ])
  func limit(input: String, limit: Int, expected: String) {
    #expect(Escaper.visible(input, limit: limit) == expected)
  }

  @Test(
    "markup() escapes the five markup characters",
    arguments: [
      ("<b>bold</b>", "&lt;b&gt;bold&lt;/b&gt;"),
      ("Tom & Jerry", "Tom &amp; Jerry"),
      ("\"quoted\" 'single'", "&quot;quoted&quot; &apos;single&apos;"),
      ("&amp;", "&amp;amp;"),
      ("no markup ✓", "no markup ✓"),
      ("crlf\r\n<i>", "crlf\r\n&lt;i&gt;"),
    ])
  func markup(input: String, expected: String) {
    #expect(Escaper.markup(input) == expected)
  }

  @Test("markup() escapes '<' even when a combining mark joins it into one Character")
  func markupCombiningMark() {
    // Given '<' followed by U+0338, which Swift counts as a single Character
    let input = "<\u{0338}img src=x>"
    // When escaped
    let escaped = Escaper.markup(input)
    // Then no raw '<' or '>' reaches the notification server's markup parser
    #expect(!escaped.unicodeScalars.contains("<"))
    #expect(!escaped.unicodeScalars.contains(">"))
    #expect(escaped == "&lt;\u{0338}img src=x&gt;")
  }
}

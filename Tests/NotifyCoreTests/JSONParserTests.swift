import Foundation
import NotifyTestSupport
import Testing

@testable import NotifyCore

/// The strict JSON reader behind `--user-info`: RFC 8259 and nothing more, each key once,
/// integers exact; checked against Python's json module made as strict.
@Suite("JSON, strictly")
struct JSONParserTests {
  @Test(
    "what the RFC refuses, and what it leaves open, is refused with the reason",
    arguments: [
      (#"{"a":1,}"#, "a comma before }"), ("[1,2,]", "a comma before ]"),
      (#"{"a":1,"a":2}"#, "appears twice"), (#"{"n":12345678901234567890}"#, "does not fit in 64 bits"),
      ("{'a':1}", "not a string"), (#"{"a":NaN}"#, "cannot start a value"), ("[01]", "leading zero"),
      ("[1.]", "decimal point"), ("[1e]", "exponent"), ("[\"\u{1}\"]", "control character"),
      (#"["\ud800"]"#, "lone high surrogate"), (#"["\udc00"]"#, "lone low surrogate"),
      (#"["\x"]"#, "unknown escape"), ("[1] 2", "text after the value"), ("", "ends where a value"),
      ("[" + String(repeating: "[", count: 300), "nested deeper"), ("[1e999]", "too large"),
    ])
  func refused(text: String, reason: String) {
    #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(text) }
    do {
      _ = try JSONParser.parse(text)
    } catch {
      #expect(error.reason.contains(reason), "\(error.reason)")
    }
  }

  @Test("values come out exactly: integers past 2^53, escapes, surrogate pairs, whitespace")
  func exact() throws {
    #expect(try JSONParser.parse(#"{"n":9007199254740993}"#) == .object(["n": .int(9_007_199_254_740_993)]))
    #expect(try JSONParser.parse(#"[-9223372036854775808]"#) == .array([.int(.min)]))
    #expect(
      try JSONParser.parse(#" [ "a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00" ] "#)
        == .array([.string("a\"\\/\u{8}\u{C}\n\r\té😀")]))
    #expect(
      try JSONParser.parse("[1.5e2, -0.25, true, false, null, {}]")
        == .array([.double(150), .double(-0.25), .bool(true), .bool(false), .null, .object([:])]))
  }

  @Test(
    "accepts and refuses what Python's json does when made as strict, and reads the same values (seeded)",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
  func agreesWithPython() throws {
    var generator = SeededGenerator(seed: 20_261_123)
    var texts: [String] = []
    for _ in 0..<600 {
      var text = JSONParserTests.document(depth: 0, using: &generator)
      // Half of them broken in one of the ways people break JSON.
      if Bool.random(using: &generator) { text = JSONParserTests.mutate(text, using: &generator) }
      texts.append(text)
    }
    let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/json_oracle.py").path
    func ask(_ cases: [JSONValue]) throws -> [JSONValue] {
      let result = try CommandRunner(executable: "/usr/bin/python3").run(
        [oracle], stdin: JSONValue.array(cases).compactText, timeout: 60)
      try #require(result.status == 0, "\(result.stderr)")
      guard case .array(let answers) = try JSONValue.parse(result.stdout) else { throw CancellationError() }
      return answers
    }
    let verdicts = try ask(texts.map { .string($0) })
    var ours: [JSONValue] = []
    var accepted = 0
    for (text, verdict) in zip(texts, verdicts) {
      let parsed = try? JSONParser.parse(text)
      #expect(
        (parsed != nil) == (verdict != .null),
        "\(text.debugDescription): python \(verdict), notify \(parsed.map { "\($0)" } ?? "refused")")
      if let parsed, verdict != .null {
        ours.append(.array([.string(text), .string(parsed.compactText)]))
        accepted += 1
      }
    }
    // And what notify read, written back, is the same value to Python
    let same = try ask(ours)
    #expect(
      same.allSatisfy { $0 == .bool(true) }, "\(zip(ours, same).filter { $0.1 != .bool(true) }.prefix(3))")
    #expect(accepted > 100 && accepted < 600, "accepted \(accepted) of 600: the mutations should refuse some")
    print(
      "json oracle: \(texts.count) texts, \(accepted) accepted alike, \(texts.count - accepted) refused alike"
    )
  }

  static let pieces = ["\"", "\\", "\\u", "/", "é", "😀", "\\ud83d", "\\n", " ", "a", "0", "\u{7}"]

  static func scalar(using g: inout SeededGenerator) -> String {
    switch Int.random(in: 0..<8, using: &g) {
    case 0: return "null"
    case 1: return Bool.random(using: &g) ? "true" : "false"
    case 2: return String(Int64.random(in: .min ... .max, using: &g))
    case 3:
      return String(Int.random(in: -1000...1000, using: &g)) + "."
        + String(Int.random(in: 0...999, using: &g))
    case 4: return "\(Int.random(in: 1...9, using: &g))e\(Int.random(in: -20...20, using: &g))"
    case 5: return "9007199254740993"
    default:
      let parts = (0..<Int.random(in: 0...4, using: &g)).map { _ in
        ["a", "b c", "é", "😀", "\\n", "\\\"", "\\u00e9", "\\ud83d\\ude00", "\\/"].randomElement(using: &g)!
      }
      return "\"" + parts.joined() + "\""
    }
  }

  static func document(depth: Int, using g: inout SeededGenerator) -> String {
    guard depth < 4, Int.random(in: 0..<3, using: &g) > 0 else { return scalar(using: &g) }
    let count = Int.random(in: 0...4, using: &g)
    if Bool.random(using: &g) {
      return "[" + (0..<count).map { _ in document(depth: depth + 1, using: &g) }.joined(separator: ",") + "]"
    }
    let members = (0..<count).map { i in "\"k\(i)\": " + document(depth: depth + 1, using: &g) }
    return "{" + members.joined(separator: ", ") + "}"
  }

  /// One of the ways JSON gets broken, at a random place.
  static func mutate(_ text: String, using g: inout SeededGenerator) -> String {
    var characters = Array(text)
    let at = Int.random(in: 0...characters.count, using: &g)
    switch Int.random(in: 0..<9, using: &g) {
    case 0: characters.insert(",", at: at)
    case 1: if at < characters.count { characters.remove(at: at) }
    case 2: characters.insert(contentsOf: Array(pieces.randomElement(using: &g)!), at: at)
    case 3: return text.replacingOccurrences(of: "\"k1\"", with: "\"k0\"")
    case 4: return text + " 1"
    case 5: return text.replacingOccurrences(of: "9007199254740993", with: "99999999999999999999")
    case 6: characters.insert(contentsOf: Array("01"), at: at)
    case 7: return "[" + text + ",]"
    default: return text.replacingOccurrences(of: "\"", with: "'")
    }
    return String(characters)
  }
}

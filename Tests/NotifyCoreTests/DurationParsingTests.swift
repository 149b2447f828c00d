import Foundation
import Testing

@testable import NotifyCore

@Suite("TimeParser.duration: --in")
struct DurationParsingTests {
  @Test(
    "accepts units and sums",
    arguments: [
      ("90s", 90.0), ("10m", 600), ("2h", 7200), ("1d", 86_400), ("1w", 604_800), ("1h30m", 5400),
      ("1d2h", 93_600), ("30m1h", 5400), ("1w1d1h1m1s", 694_861), ("0h5m", 300), ("007s", 7),
      ("36525d", 3_155_760_000),
    ])
  func accepts(text: String, seconds: TimeInterval) throws {
    // Given a duration text; When it is parsed; Then it is that many seconds
    #expect(try TimeParser.duration(text) == seconds)
  }

  struct Failure: CustomTestStringConvertible, Sendable {
    let name: String
    let text: String
    /// Words the message must contain.
    let mentions: [String]
    var testDescription: String { name }
  }

  static let failures: [Failure] = [
    Failure(name: "empty", text: "", mentions: ["needs a duration", "90s"]),
    Failure(name: "zero", text: "0s", mentions: ["not greater than zero"]),
    Failure(name: "sum of zeros", text: "0h0m", mentions: ["not greater than zero"]),
    Failure(name: "negative", text: "-5m", mentions: ["negative"]),
    Failure(name: "explicit plus sign", text: "+5m", mentions: ["'+'", "without a number"]),
    Failure(name: "no unit", text: "90", mentions: ["no unit", "90s"]),
    Failure(name: "no number", text: "h", mentions: ["without a number"]),
    Failure(name: "unknown unit", text: "5x", mentions: ["unknown unit 'x'", "s (seconds)"]),
    Failure(name: "milliseconds are not a unit", text: "5ms", mentions: ["unknown unit 'ms'"]),
    Failure(name: "upper-case unit", text: "5H", mentions: ["unknown unit 'H'"]),
    Failure(name: "spelled-out unit", text: "5min", mentions: ["unknown unit 'min'"]),
    Failure(name: "fraction", text: "1.5h", mentions: ["fraction", "1h30m"]),
    Failure(name: "inner whitespace", text: "1h 30m", mentions: ["whitespace", "1h30m"]),
    Failure(name: "leading whitespace", text: " 5m", mentions: ["whitespace"]),
    Failure(name: "trailing whitespace", text: "5m ", mentions: ["whitespace"]),
    Failure(name: "unit twice", text: "1m1m", mentions: ["twice"]),
    Failure(name: "negative part", text: "1h-30m", mentions: ["unknown unit 'h-'"]),
    Failure(name: "integer overflow", text: "99999999999999999999s", mentions: ["too long", "36525d"]),
    Failure(name: "sum overflow", text: "36525d1s", mentions: ["too long"]),
    Failure(name: "over 100 years", text: "5219w", mentions: ["too long"]),
    Failure(name: "control character is shown escaped", text: "5\u{1B}m", mentions: ["\\u{1b}"]),
  ]

  @Test("rejects bad durations as invalid data with a fix", arguments: failures)
  func rejects(_ f: Failure) {
    // Given a bad duration; When it is parsed
    let error = #expect(throws: NotifyError.self) { try TimeParser.duration(f.text) }
    // Then it is invalid data (exit 65) that names the problem and the fix
    #expect(error?.kind == .invalidData)
    #expect(error?.exitCode == 65)
    #expect(error?.fix?.isEmpty == false)
    for word in f.mentions {
      #expect(error?.description.contains(word) == true, "\(error?.description ?? "") mentions \(word)")
    }
  }
}

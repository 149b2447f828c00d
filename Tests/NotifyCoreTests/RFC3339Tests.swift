import Foundation
import NotifyTestSupport
import Testing

@testable import NotifyCore

@Suite("RFC3339: writing and reading instants")
struct RFC3339Tests {
  @Test("an instant given in whole milliseconds keeps its millisecond, never the one before")
  func wholeMillisecondsSurviveDate() {
    // Given instants 15 ms apart from a whole millisecond, as a scheduler computes them
    // (Date counts from 2001: the value read back can fall a few hundred ns short)
    var generator = SeededGenerator(seed: 20_261_123)
    for _ in 0..<2000 {
      let millis = Int64.random(in: 1_700_000_000_000...1_900_000_000_000, using: &generator)
      let step = Int64.random(in: 0..<10_000, using: &generator) * 15
      let date = Date(timeIntervalSince1970: Double(millis) / 1000 + Double(step) * 0.001)
      // Then its millisecond is the intended one
      #expect(RFC3339.millisecondsSince1970(date) == millis + step, "\(date.timeIntervalSince1970)")
    }
  }

  @Test(
    "writes UTC with optional milliseconds",
    arguments: [
      (0.0, false, "1970-01-01T00:00:00Z"),
      (1_795_334_400.0, false, "2026-11-22T08:00:00Z"),
      (1_795_334_400.2509, true, "2026-11-22T08:00:00.250Z"),
      (1_795_334_400.9999, false, "2026-11-22T08:00:00Z"),
      (-0.5, true, "1969-12-31T23:59:59.500Z"),
      (-86_400.0, false, "1969-12-31T00:00:00Z"),
    ])
  func writes(seconds: TimeInterval, milliseconds: Bool, expected: String) {
    #expect(
      RFC3339.string(from: Date(timeIntervalSince1970: seconds), milliseconds: milliseconds) == expected)
  }

  @Test(
    "reads what it writes and RFC 3339 offsets",
    arguments: [
      ("2026-11-22T08:00:00Z", 1_795_334_400.0),
      ("2026-11-22T09:00:00+01:00", 1_795_334_400.0),
      ("2026-11-22T08:00:00.250Z", 1_795_334_400.25),
      ("2016-12-31T23:59:60Z", 1_483_228_800.0),
      ("1969-12-31T23:59:59Z", -1.0),
    ])
  func reads(text: String, seconds: TimeInterval) {
    #expect(RFC3339.date(from: text) == Date(timeIntervalSince1970: seconds))
  }

  @Test(
    "does not read wall-clock times or nonsense",
    arguments: ["2026-11-22T08:00:00", "08:00", "", "2026-02-30T00:00:00Z"])
  func rejects(text: String) {
    #expect(RFC3339.date(from: text) == nil)
  }
}

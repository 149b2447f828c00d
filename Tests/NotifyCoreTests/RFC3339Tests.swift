import Foundation
import Testing

@testable import NotifyCore

@Suite("RFC3339: writing and reading instants")
struct RFC3339Tests {
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

import Foundation
import NotifyTestSupport

@testable import NotifyCore

/// A literal UTC instant, parsed by Foundation (not by the code under test).
func utc(_ text: String) -> Date {
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions =
    text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
  guard let date = formatter.date(from: text) else { fatalError("bad literal instant \(text)") }
  return date
}

/// A zone that must exist in the tz database.
func zone(_ identifier: String) -> Zone { testZone(identifier) }

let utcZone = zone("UTC")
let berlin = zone("Europe/Berlin")
let newYork = zone("America/New_York")

/// Wall-clock components from `YYYY-MM-DDTHH:MM[:SS]`.
func wall(_ text: String) -> WallClock {
  let parts = text.split(whereSeparator: { "-T:".contains($0) }).map { Int($0)! }
  return WallClock(
    year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4],
    second: parts.count > 5 ? parts[5] : 0)
}

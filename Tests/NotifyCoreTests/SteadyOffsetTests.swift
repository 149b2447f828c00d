import Foundation
import NotifyTestSupport
import Testing

@testable import NotifyCore

/// The rule walk's shortcut: inside a stretch where the zone keeps one offset, a wall-clock
/// time resolves by subtraction to exactly what `ZoneResolver` gives, and near a
/// transition the shortcut declines.
struct SteadyOffsetTests {
  @Test(
    "random wall-clock times near and between transitions: the shortcut agrees with ZoneResolver or declines",
    arguments: [
      "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "America/Sao_Paulo",
    ])
  func agreesWithResolver(name: String) {
    let zone = testZone(name)
    var random = SeededGenerator(seed: 0x5EAD_0FF5)
    var decided = 0
    var declinedNearTransition = 0
    for _ in 0..<4000 {
      // Stretches start at instants spread over 1990-2060; walls from there to 400 days on,
      // half of them within a day of the stretch's end (the transition)
      let start = Int64.random(in: 631_152_000...2_871_763_200, using: &random)
      let steady = SteadyOffset(zone: zone, at: start)
      let wall: Int64
      if steady.until != .max, Bool.random(using: &random) {
        wall = steady.until + steady.offset + Int64.random(in: -2 * 86_400...2 * 86_400, using: &random)
      } else {
        wall = start + steady.offset + Int64.random(in: -86_400...(400 * 86_400), using: &random)
      }
      let clock = WallClock(localSeconds: wall)
      let expected = ZoneResolver.unixSeconds(for: clock, in: zone)
      guard let instant = steady.instant(of: wall) else {
        if abs(wall - steady.offset - steady.until) <= 86_400 { declinedNearTransition += 1 }
        continue
      }
      decided += 1
      #expect(instant == expected, "\(name): wall \(wall) in the stretch from \(start)")
      #expect(
        ZoneResolver.wallClock(for: Date(timeIntervalSince1970: TimeInterval(instant)), in: zone) == clock)
    }
    // Both ways were taken: most times are decided, and times by a transition are not
    #expect(decided > 500)
    #expect(name == "Asia/Kolkata" || declinedNearTransition > 100)
  }
}

import Foundation
import Testing

@testable import NotifyCore

/// `QuietRelease.nextLook`: after a wake-up that leaves something held, when the firer looks
/// again (the wake that holds must arm the end of quiet too, or quiet that ends by itself
/// would keep it held).
@Suite("QuietRelease.nextLook: the end of quiet is a deadline while anything is held")
struct QuietReleaseNextLookTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    var holding = true
    let quiet: QuietHours
    let now: String
    let look: String?
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "quiet on for 5 s: at their end", quiet: QuietHours(manual: .until(utc("2026-06-05T20:00:05Z"))),
      now: "2026-06-05T20:00:01Z", look: "2026-06-05T20:00:05Z"),
    Case(
      name: "a nightly window in Berlin, 23:00: 07:00 the next morning",
      quiet: QuietHours(schedule: quietSchedule("22:00", "07:00")), now: "2026-06-05T21:00:00Z",
      look: "2026-06-06T05:00:00Z"),
    Case(
      name: "manual quiet until 23:30 inside the window: the window's end",
      quiet: QuietHours(
        manual: .until(utc("2026-06-05T21:30:00Z")), schedule: quietSchedule("22:00", "07:00")),
      now: "2026-06-05T21:00:00Z", look: "2026-06-06T05:00:00Z"),
    Case(
      name: "quiet until turned off: none (turning it off commits, which wakes the firer)",
      quiet: QuietHours(manual: .untilTurnedOff), now: "2026-06-05T21:00:00Z", look: nil),
    Case(
      name: "quiet ended during the wake-up: at once",
      quiet: QuietHours(manual: .until(utc("2026-06-05T20:00:05Z"))),
      now: "2026-06-05T20:00:06Z", look: "2026-06-05T20:00:06Z"),
    Case(
      name: "nothing held: none", holding: false,
      quiet: QuietHours(schedule: quietSchedule("22:00", "07:00")),
      now: "2026-06-05T21:00:00Z", look: nil),
  ]

  @Test("when to look again", arguments: cases)
  func nextLook(_ c: Case) {
    // Given quiet hours, and a wake-up at `now` that leaves something held (or not)
    // When the firer asks when to look again
    let look = QuietRelease.nextLook(holding: c.holding, quiet: c.quiet, at: utc(c.now), in: berlin)
    // Then it is at the end of the quiet in force (or at once, or never by itself)
    #expect(look == c.look.map(utc))
  }

  @Test("during quiet hours only apps that may break through are released; after them, every app")
  func releasable() {
    let breaks = NotificationSettings(alerts: true, sounds: true, badges: true, breaksQuietHours: true)
    let apps = ["pager": breaks, "chat": NotificationSettings.allowAll]
    let during = QuietRelease.releasable(apps, quiet: true)
    #expect(Array(during.release.keys) == ["pager"])
    #expect(during.stillHeld)
    let after = QuietRelease.releasable(apps, quiet: false)
    #expect(Set(after.release.keys) == ["pager", "chat"])
    #expect(!after.stillHeld)
  }
}

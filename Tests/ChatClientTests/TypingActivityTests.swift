import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones
import Testing

/// `TypingActivity`: how long a typed line keeps the client's notifications in its
/// transcript, at the exact edges of the minute.
struct TypingActivityTests {
  let t0 = ContinuousClock.now

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    /// When `now` is, from the line typed at t0.
    var after: Duration
    var recent: Bool
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "the instant it was typed", after: .zero, recent: true),
    Case(name: "a nanosecond before it (a now read just earlier)", after: .nanoseconds(-1), recent: true),
    Case(name: "half a minute later", after: .seconds(30), recent: true),
    Case(name: "a nanosecond before the minute is over", after: .seconds(60) - .nanoseconds(1), recent: true),
    Case(name: "exactly a minute later", after: .seconds(60), recent: false),
    Case(name: "a nanosecond after the minute", after: .seconds(60) + .nanoseconds(1), recent: false),
    Case(name: "an hour later", after: .seconds(3600), recent: false),
  ]

  @Test(arguments: cases)
  func aLineTypedAtT0(_ example: Case) {
    // Given a line typed at t0
    var typing = TypingActivity()
    typing.typed(at: t0)
    // When asked at t0 + after
    let now = t0 + example.after
    // Then the client is in the foreground for exactly the minute after it
    #expect(typing.isRecent(now: now) == example.recent)
    #expect(typing.presentation(now: now) == (example.recent ? .none : .all))
  }

  @Test func nothingTypedPresentsFully() {
    let typing = TypingActivity()
    #expect(!typing.isRecent(now: t0))
    #expect(typing.presentation(now: t0) == .all)
  }

  @Test func eachLineStartsTheMinuteAgain() {
    // Given a line at t0 and another 50 s later
    var typing = TypingActivity()
    typing.typed(at: t0)
    typing.typed(at: t0 + .seconds(50))
    // Then the minute runs from the second one
    #expect(typing.isRecent(now: t0 + .seconds(109)))
    #expect(!typing.isRecent(now: t0 + .seconds(110)))
  }

  @Test func anEarlierInstantReportedLateDoesNotShortenIt() {
    // Given a line at t0 + 50 s, then one whose instant was read before it (another thread)
    var typing = TypingActivity()
    typing.typed(at: t0 + .seconds(50))
    typing.typed(at: t0)
    // Then the later one still counts
    #expect(typing.lastTyped == t0 + .seconds(50))
    #expect(typing.isRecent(now: t0 + .seconds(100)))
  }
}

import Foundation
import Testing

@testable import NotifyCore

/// What a catch-up missed, said once per app.
@Suite("MissedSummary: one bubble for what a sleep or a boot missed")
struct MissedSummaryTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  func missed(_ id: String, app: String = "a", lateBy: TimeInterval, title: String? = nil) -> HistoryEvent {
    HistoryEvent(
      at: now, app: app, notificationID: id, kind: .missed, reason: MissedSummary.expiredReason,
      occurrence: 1,
      fireDate: now - lateBy, late: true, detail: title.map { ["title": .string($0)] } ?? [:])
  }

  @Test(
    "one summary per app that missed several, newest first with how late; none for an app that missed one")
  func plan() throws {
    let summaries = MissedSummary.plan(
      [
        missed("m1", lateBy: 7200, title: "Standup"), missed("m2", lateBy: 600, title: "Lunch"),
        missed("b1", app: "b", lateBy: 60),
      ], at: now, makeID: { "missed-\($0)" })
    #expect(summaries.count == 1)
    let summary = try #require(summaries.first)
    #expect(summary.app == "a" && summary.id == "missed-a")
    #expect(summary.title == "2 notifications missed while the computer was asleep or off")
    #expect(summary.body == "Lunch (10 min late)\nStandup (2 h late)")
    #expect(summary.userInfo["missed"] == .array([.string("m2"), .string("m1")]))
    try Validator.notification(summary)
  }

  @Test(
    "how late, as a person reads it",
    arguments: [(45.0, "45 s"), (720, "12 min"), (11_100, "3 h 5 min"), (172_800, "2 days")])
  func lateText(seconds: Double, text: String) {
    #expect(MissedSummary.lateText(seconds) == text)
  }
}

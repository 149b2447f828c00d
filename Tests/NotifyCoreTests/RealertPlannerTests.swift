import Foundation
import Testing

@testable import NotifyCore

/// Alarms: what follows a delivery, and what stops it.
@Suite("RealertPlanner: re-alert until acknowledged")
struct RealertPlannerTests {
  let base = Date(timeIntervalSince1970: 1_800_000_000)

  func alarm(number: Int = 0, createdAt: Date? = nil) -> LocalNotification {
    LocalNotification(
      id: "wake", app: "a", schedule: Schedule(fireDate: .instant(base), repeatInterval: .day),
      title: "Wake up",
      realert: Realert(every: 300, times: 3, number: number), deliveredCount: 4,
      createdAt: createdAt ?? base - 1000)
  }

  @Test(
    "each delivery is followed by the next re-alert, every seconds later, until times are used up",
    arguments: [(0, 1, 2), (1, 2, 1), (2, 3, 0)])
  func next(delivered: Int, expectedNumber: Int, remaining: Int) throws {
    // Given delivery `delivered` of an alarm (every 5 min, 3 times), delivered late at base + 7 s
    let deliveredAt = base + 7
    // When the planner is asked what follows
    let next = try #require(
      RealertPlanner.next(after: alarm(number: delivered), occurrence: 4, deliveredAt: deliveredAt))
    // Then re-alert `expectedNumber` is due 300 s after the delivery, a one-shot copy
    #expect(next.number == expectedNumber)
    #expect(next.fireDate == deliveredAt + 300)
    #expect(next.remaining == remaining)
    #expect(next.copy.realert == Realert(every: 300, times: 3, number: expectedNumber, occurrence: 4))
    #expect(next.copy.schedule == Schedule(fireDate: .instant(deliveredAt + 300)))
    #expect(next.copy.deliveredCount == 0 && next.copy.createdAt == deliveredAt)
    #expect(next.copy.id == "wake" && next.copy.title == "Wake up")
  }

  @Test("no re-alert: after the last, without an alarm, when alerts are off, when acknowledged meanwhile")
  func none() {
    #expect(RealertPlanner.next(after: alarm(number: 3), occurrence: 1, deliveredAt: base) == nil)
    var plain = alarm()
    plain.realert = nil
    #expect(RealertPlanner.next(after: plain, occurrence: 1, deliveredAt: base) == nil)
    #expect(RealertPlanner.next(after: alarm(), occurrence: 1, deliveredAt: base, alerted: false) == nil)
    #expect(RealertPlanner.next(after: alarm(), occurrence: 1, deliveredAt: base, acknowledged: true) == nil)
  }

  @Test("the occurrence a re-alert re-alerts: the delivered one, or what the copy keeps, or its row's")
  func occurrence() {
    // The notification itself: the occurrence delivered
    #expect(RealertPlanner.occurrence(of: alarm(), delivered: 3) == 3)
    // A copy keeps the one it re-alerts, whatever its own (1) or its row say
    var copy = alarm(number: 2)
    copy.realert = Realert(every: 300, times: 3).copy(number: 2, occurrence: 5)
    #expect(RealertPlanner.occurrence(of: copy, delivered: 1, row: 4) == 5)
    // A copy stored before it kept one: its row's, else its own
    #expect(RealertPlanner.occurrence(of: alarm(number: 2), delivered: 1, row: 4) == 4)
    #expect(RealertPlanner.occurrence(of: alarm(number: 2), delivered: 1) == 1)
  }

  @Test("an acknowledgement counts from this delivery, or for a copy from the delivery it follows")
  func acknowledgedSince() {
    #expect(RealertPlanner.acknowledgedSince(alarm(), deliveredAt: base + 50) == base + 50)
    #expect(
      RealertPlanner.acknowledgedSince(alarm(number: 2, createdAt: base + 10), deliveredAt: base + 50) == base
        + 10)
  }

  @Test(
    "what acknowledges: a click, any action, a snooze, a close by the user; not an expiry or a program's close",
    arguments: [
      (HistoryEvent.Kind.activated, "default", true), (.activated, "archive", true),
      (.snoozed, "notify.snooze.600", true), (.dismissed, "dismissed-by-user", true),
      (.dismissed, "expired", false),
      (.dismissed, "closed-by-call", false), (.delivered, nil, false), (.cancelled, nil, false),
    ] as [(HistoryEvent.Kind, String?, Bool)])
  func acknowledges(kind: HistoryEvent.Kind, reason: String?, expected: Bool) {
    #expect(RealertPlanner.acknowledges(kind, reason: reason) == expected)
  }

  @Test(
    "limits: every 60 s to 1 day, 1 to 10 times; times alone is usage",
    arguments: [
      (60, 1, nil), (86_400, 10, nil), (59, 3, NotifyError.Kind.invalidData), (86_401, 3, .invalidData),
      (300, 0, .invalidData), (300, 11, .invalidData),
    ] as [(Int, Int, NotifyError.Kind?)])
  func limits(every: Int, times: Int, expected: NotifyError.Kind?) {
    do {
      let realert = try Realert.given(every: every, times: times)
      #expect(expected == nil && realert == Realert(every: every, times: times))
    } catch {
      #expect(error.kind == expected)
    }
  }

  @Test("the parts: none is no alarm, every alone re-alerts 3 times, times alone is refused")
  func parts() throws {
    #expect(try Realert.given(every: nil, times: nil) == nil)
    #expect(try Realert.given(every: 120, times: nil) == Realert(every: 120, times: 3))
    let error = #expect(throws: NotifyError.self) { try Realert.given(every: nil, times: 2) }
    #expect(error?.kind == .usage)
  }

  @Test("store text keeps a copy's number; JSON shows every and times")
  func text() {
    let copy = Realert(every: 300, times: 3, number: 2)
    #expect(Realert.fromStoreText(Realert.storeText(copy)) == copy)
    #expect(Realert.storeText(nil) == nil && Realert.fromStoreText("{") == nil)
    #expect(copy.jsonValue == .object(["every": .int(300), "times": .int(3)]))
  }
}

import Foundation
import NotifyCalendar
import Testing

@Suite("The rolling window of calendar alarms")
struct AlarmWindowTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  func candidates(_ count: Int, calendar: String = "c", digest: String = "d") -> [AlarmWindow.Candidate] {
    (0..<count).map {
      AlarmWindow.Candidate(
        id: "a\($0)", calendar: calendar, fireDate: now + TimeInterval($0 * 60 + 60), digest: digest)
    }
  }

  @Test("thousands of alarms: the soonest 56 are pending, leaving room in the 64 for the app's own")
  func capacity() {
    let plan = AlarmWindow.plan(
      candidates: candidates(5000), managed: [], stillPending: [], otherPending: 0, watermarks: ["c": now],
      now: now)
    #expect(plan.schedule.map(\.id) == (0..<56).map { "a\($0)" })
    // With 10 of the app's own pending, 46
    let crowded = AlarmWindow.plan(
      candidates: candidates(5000), managed: [], stillPending: [], otherPending: 10, watermarks: ["c": now],
      now: now)
    #expect(crowded.schedule.count == 46)
  }

  @Test("an alarm that left the store is done: the next comes in, it never comes back")
  func refill() {
    let stored = (0..<56).map {
      AlarmWindow.Managed(
        id: "a\($0)", calendar: "c", fireDate: now + TimeInterval($0 * 60 + 60), state: .pending, digest: "d")
    }
    // Given the first was delivered (no longer pending)
    let plan = AlarmWindow.plan(
      candidates: candidates(100), managed: stored, stillPending: Set((1..<56).map { "a\($0)" }),
      otherPending: 1,
      watermarks: ["c": now], now: now + 70)
    // Then it is done, and one more comes in (a snoozed copy of it is pending: 55 room)
    #expect(plan.consumed == ["a0"])
    #expect(plan.schedule.map(\.id) == [])
    let roomy = AlarmWindow.plan(
      candidates: candidates(100), managed: stored, stillPending: Set((1..<56).map { "a\($0)" }),
      otherPending: 0,
      watermarks: ["c": now], now: now + 70)
    #expect(roomy.schedule.map(\.id) == ["a56"])
    #expect(roomy.cancel.isEmpty)
    // And the watermark moves up to the earliest still outstanding, not past now
    #expect(roomy.watermarks["c"] == now + 70)
  }

  @Test("an edited alarm is replaced, a removed one cancelled, an unchanged one left alone")
  func edits() {
    let stored = [
      AlarmWindow.Managed(id: "a0", calendar: "c", fireDate: now + 60, state: .pending, digest: "d"),
      AlarmWindow.Managed(id: "a1", calendar: "c", fireDate: now + 120, state: .pending, digest: "d"),
      AlarmWindow.Managed(id: "gone", calendar: "c", fireDate: now + 130, state: .pending, digest: "d"),
    ]
    var list = candidates(2)
    list[1].digest = "edited"
    let plan = AlarmWindow.plan(
      candidates: list, managed: stored, stillPending: ["a0", "a1", "gone"], otherPending: 0,
      watermarks: ["c": now],
      now: now)
    #expect(plan.schedule.map(\.id) == ["a1"])
    #expect(plan.cancel == ["gone"])
  }

  @Test("the watermark never goes back; done alarms it passed are forgotten after a week, not before")
  func watermark() {
    let stored = [
      AlarmWindow.Managed(id: "old", calendar: "c", fireDate: now - 8 * 86_400, state: .done, digest: "d"),
      AlarmWindow.Managed(id: "recent", calendar: "c", fireDate: now - 600, state: .done, digest: "d"),
    ]
    let plan = AlarmWindow.plan(
      candidates: [], managed: stored, stillPending: [], otherPending: 0, watermarks: ["c": now + 5], now: now
    )
    #expect(plan.watermarks["c"] == now + 5)
    #expect(plan.forget == ["old"])
  }
}

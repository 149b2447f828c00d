import Foundation
import NotifyTestSupport
import Testing

@testable import NotifyCore

@Suite("Schedule limits: one-shots, repeatCount and until")
struct ScheduleLimitTests {
  let anchor = utc("2026-01-01T09:00:00Z")

  @Test("a one-shot has only occurrence 0")
  func oneShot() {
    // Given a notification that does not repeat
    let schedule = Schedule(fireDate: .instant(anchor))
    // Then only occurrence 0 exists
    #expect(schedule.occurrence(0, zones: testZones(utcZone)) == anchor)
    #expect(schedule.occurrence(1, zones: testZones(utcZone)) == nil)
    #expect(schedule.occurrence(-1, zones: testZones(utcZone)) == nil)
    #expect(schedule.upcoming(5, zones: testZones(utcZone)) == [anchor])
    #expect(schedule.upcoming(5, from: 1, zones: testZones(utcZone)) == [])
    // And the searches find it only from the right side
    #expect(schedule.firstOccurrence(atOrAfter: anchor - 1, zones: testZones(utcZone))?.date == anchor)
    #expect(schedule.firstOccurrence(atOrAfter: anchor, zones: testZones(utcZone))?.index == 0)
    #expect(schedule.firstOccurrence(atOrAfter: anchor + 1, zones: testZones(utcZone)) == nil)
    #expect(schedule.firstOccurrence(atOrAfter: anchor - 1, from: 1, zones: testZones(utcZone)) == nil)
    #expect(schedule.latestOccurrence(atOrBefore: anchor, zones: testZones(utcZone))?.index == 0)
    #expect(schedule.latestOccurrence(atOrBefore: anchor - 1, zones: testZones(utcZone)) == nil)
    #expect(schedule.latestOccurrence(atOrBefore: .distantFuture, zones: testZones(utcZone))?.date == anchor)
  }

  @Test("repeatCount N allows occurrences 0..<N", arguments: [1, 2, 3, 10])
  func repeatCount(_ count: Int) {
    // Given a daily repeat limited to `count` deliveries
    let schedule = Schedule(fireDate: .instant(anchor), repeatInterval: .day, repeatCount: count)
    let last = anchor + TimeInterval((count - 1) * 86_400)
    // Then the last one is occurrence count-1 and no more exist
    #expect(schedule.occurrence(count - 1, zones: testZones(utcZone)) == last)
    #expect(schedule.occurrence(count, zones: testZones(utcZone)) == nil)
    #expect(schedule.upcoming(100, zones: testZones(utcZone)).count == count)
    #expect(schedule.upcoming(100, from: count - 1, zones: testZones(utcZone)) == [last])
    #expect(
      schedule.latestOccurrence(atOrBefore: .distantFuture, zones: testZones(utcZone))?.index == count - 1)
    #expect(schedule.firstOccurrence(atOrAfter: last, zones: testZones(utcZone))?.index == count - 1)
    #expect(schedule.firstOccurrence(atOrAfter: last + 1, zones: testZones(utcZone)) == nil)
  }

  @Test("an until between occurrences ends the repeat at the occurrence before it")
  func untilBetweenOccurrences() {
    // Given a daily 09:00 repeat until noon on the third day
    let until = utc("2026-01-03T12:00:00Z")
    let schedule = Schedule(fireDate: .instant(anchor), repeatInterval: .day, until: until)
    // Then occurrences 0, 1 and 2 exist and 3 does not
    #expect(schedule.occurrence(2, zones: testZones(utcZone)) == utc("2026-01-03T09:00:00Z"))
    #expect(schedule.occurrence(3, zones: testZones(utcZone)) == nil)
    #expect(schedule.upcoming(10, zones: testZones(utcZone)).count == 3)
    // And the searches stop there too
    #expect(
      schedule.firstOccurrence(atOrAfter: utc("2026-01-03T10:00:00Z"), zones: testZones(utcZone)) == nil)
    let latest = schedule.latestOccurrence(atOrBefore: utc("2030-01-01T00:00:00Z"), zones: testZones(utcZone))
    #expect(latest?.index == 2)
    #expect(latest?.date == utc("2026-01-03T09:00:00Z"))
  }

  @Test("an until exactly on an occurrence includes it")
  func untilOnAnOccurrence() {
    let until = utc("2026-01-03T09:00:00Z")
    let schedule = Schedule(fireDate: .instant(anchor), repeatInterval: .day, until: until)
    #expect(schedule.occurrence(2, zones: testZones(utcZone)) == until)
    #expect(schedule.occurrence(3, zones: testZones(utcZone)) == nil)
  }

  @Test("an until before the anchor leaves no occurrence at all")
  func untilBeforeAnchor() {
    let schedule = Schedule(fireDate: .instant(anchor), repeatInterval: .day, until: anchor - 1)
    #expect(schedule.occurrence(0, zones: testZones(utcZone)) == nil)
    #expect(schedule.upcoming(3, zones: testZones(utcZone)).isEmpty)
    #expect(schedule.firstOccurrence(atOrAfter: .distantPast, zones: testZones(utcZone)) == nil)
    #expect(schedule.latestOccurrence(atOrBefore: .distantFuture, zones: testZones(utcZone)) == nil)
  }

  @Test("repeatCount and until together: whichever ends first")
  func countAndUntil() {
    let schedule = Schedule(
      fireDate: .instant(anchor), repeatInterval: .hour, repeatCount: 5, until: anchor + 2.5 * 3600)
    #expect(schedule.upcoming(10, zones: testZones(utcZone)).count == 3)
    let longer = Schedule(
      fireDate: .instant(anchor), repeatInterval: .hour, repeatCount: 2, until: anchor + 10 * 3600)
    #expect(longer.upcoming(10, zones: testZones(utcZone)).count == 2)
  }

  @Test("upcoming starts at the given index and asks for nothing when count is 0")
  func upcomingFromIndex() {
    let schedule = Schedule(fireDate: .instant(anchor), repeatInterval: .minute)
    #expect(schedule.upcoming(2, from: 10, zones: testZones(utcZone)) == [anchor + 600, anchor + 660])
    #expect(schedule.upcoming(0, zones: testZones(utcZone)).isEmpty)
  }
}

import Foundation
import NotifyTestSupport
import Testing

@testable import NotifyCore

@Suite("Schedule searches: first at-or-after and latest at-or-before")
struct ScheduleSearchTests {
  @Test("a minute repeat anchored 5 years ago is found by index, not by stepping")
  func minuteRepeatFiveYearsAgo() {
    // Given a minute repeat anchored 2021-06-01 08:00 UTC (1826 days before now)
    let schedule = Schedule(fireDate: .instant(utc("2021-06-01T08:00:00Z")), repeatInterval: .minute)
    let now = utc("2026-06-01T08:00:30Z")
    let minutes = 1826 * 1440
    // When searching around now
    let first = schedule.firstOccurrence(atOrAfter: now, zones: testZones(utcZone))
    let latest = schedule.latestOccurrence(atOrBefore: now, zones: testZones(utcZone))
    let exact = schedule.firstOccurrence(atOrAfter: utc("2026-06-01T08:00:00Z"), zones: testZones(utcZone))
    // Then the indices are exact
    #expect(first?.index == minutes + 1)
    #expect(first?.date == utc("2026-06-01T08:01:00Z"))
    #expect(latest?.index == minutes)
    #expect(latest?.date == utc("2026-06-01T08:00:00Z"))
    #expect(exact?.index == minutes)
  }

  @Test("a monthly repeat anchored decades ago is found from the calendar difference")
  func monthlyAnchoredLongAgo() {
    // Given Jan 31 2000 monthly at 09:00 UTC
    let schedule = Schedule(fireDate: .instant(utc("2000-01-31T09:00:00Z")), repeatInterval: .month)
    // Then Feb 2026 is occurrence 313 (clamped to the 28th) and Mar 2026 is 314
    let afterFebruary = schedule.firstOccurrence(
      atOrAfter: utc("2026-02-28T09:00:01Z"), zones: testZones(utcZone))
    #expect(afterFebruary?.index == 314)
    #expect(afterFebruary?.date == utc("2026-03-31T09:00:00Z"))
    let beforeMarch = schedule.latestOccurrence(
      atOrBefore: utc("2026-03-30T00:00:00Z"), zones: testZones(utcZone))
    #expect(beforeMarch?.index == 313)
    #expect(beforeMarch?.date == utc("2026-02-28T09:00:00Z"))
  }

  @Test("from: raises the lowest index a search may return")
  func fromIndex() {
    let anchor = utc("2026-01-01T00:00:00Z")
    let schedule = Schedule(fireDate: .instant(anchor), repeatInterval: .hour)
    #expect(schedule.firstOccurrence(atOrAfter: anchor, from: 5, zones: testZones(utcZone))?.index == 5)
    #expect(
      schedule.latestOccurrence(atOrBefore: anchor + 3 * 3600, from: 5, zones: testZones(utcZone)) == nil)
    #expect(
      schedule.latestOccurrence(atOrBefore: anchor + 9 * 3600, from: 5, zones: testZones(utcZone))?.index == 9
    )
    #expect(schedule.firstOccurrence(atOrAfter: anchor, from: -3, zones: testZones(utcZone))?.index == 0)
  }

  @Test("instants far outside the calendar do not trap")
  func extremes() {
    let schedule = Schedule(fireDate: .instant(utc("2026-01-31T09:00:00Z")), repeatInterval: .year)
    #expect(schedule.firstOccurrence(atOrAfter: .distantPast, zones: testZones(utcZone))?.index == 0)
    #expect(schedule.latestOccurrence(atOrBefore: .distantPast, zones: testZones(utcZone)) == nil)
    #expect(
      schedule.firstOccurrence(atOrAfter: Date(timeIntervalSince1970: 1e15), zones: testZones(utcZone)) == nil
    )
    let latest = schedule.latestOccurrence(
      atOrBefore: Date(timeIntervalSince1970: 1e15), zones: testZones(utcZone))
    #expect(latest != nil)
    let minutes = Schedule(fireDate: .instant(utc("2026-01-31T09:00:00Z")), repeatInterval: .minute)
    #expect(minutes.firstOccurrence(atOrAfter: .distantFuture, zones: testZones(utcZone))?.index != nil)
  }

  static let schedules: [(String, Schedule)] = [
    (
      "daily 02:30 Berlin",
      Schedule(fireDate: .wallClock(wall("2026-01-01T02:30"), .named("Europe/Berlin")), repeatInterval: .day)
    ),
    (
      "hourly New York",
      Schedule(
        fireDate: .wallClock(wall("2026-02-28T23:15"), .named("America/New_York")), repeatInterval: .hour)
    ),
    (
      "weekly Lord Howe",
      Schedule(
        fireDate: .wallClock(wall("2026-01-04T02:15"), .named("Australia/Lord_Howe")), repeatInterval: .week)
    ),
    (
      "monthly Jan 31 Berlin",
      Schedule(
        fireDate: .wallClock(wall("2026-01-31T02:30"), .named("Europe/Berlin")), repeatInterval: .month)
    ),
    ("yearly Feb 29", Schedule(fireDate: .instant(utc("2024-02-29T12:00:00.5Z")), repeatInterval: .year)),
    (
      "minutes with count",
      Schedule(fireDate: .instant(utc("2026-03-29T00:58:00Z")), repeatInterval: .minute, repeatCount: 150)
    ),
    (
      "daily with until",
      Schedule(
        fireDate: .instant(utc("2026-01-01T09:00:00Z")), repeatInterval: .day,
        until: utc("2026-04-01T00:00:00Z"))
    ),
  ]

  @Test("searches agree with a linear walk over the occurrences", arguments: schedules)
  func agreesWithLinearWalk(name: String, schedule: Schedule) {
    // Given the first 400 occurrences by direct computation
    let all = schedule.upcoming(400, zones: testZones(utcZone))
    #expect(zip(all, all.dropFirst()).allSatisfy { $0 < $1 }, "occurrences increase")
    // When searching just before, at and just after each one
    for probe in all.flatMap({ [$0 - 1, $0, $0 + 1] }) {
      let expectedFirst = all.firstIndex { $0 >= probe }
      let expectedLatest = all.lastIndex { $0 <= probe }
      let first = schedule.firstOccurrence(atOrAfter: probe, zones: testZones(utcZone))
      let latest = schedule.latestOccurrence(atOrBefore: probe, zones: testZones(utcZone))
      // Then the index-based searches find the same occurrences
      if all.count < 400 || probe < all[all.count - 1] {
        #expect(first?.index == expectedFirst, "first at or after \(probe)")
      }
      #expect(latest?.index == expectedLatest, "latest at or before \(probe)")
      #expect(latest.map { all[$0.index] } == latest?.date)
    }
  }
}

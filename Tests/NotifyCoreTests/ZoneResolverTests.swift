import Foundation
import Testing

@testable import NotifyCore

@Suite("ZoneResolver: wall-clock time to instant")
struct ZoneResolverTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let zone: String
    let wall: String
    let expected: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "Berlin winter (CET)", zone: "Europe/Berlin", wall: "2026-01-15T09:00",
      expected: "2026-01-15T08:00:00Z"),
    Case(
      name: "Berlin summer (CEST)", zone: "Europe/Berlin", wall: "2026-07-15T09:00",
      expected: "2026-07-15T07:00:00Z"),
    Case(
      name: "Berlin last minute before the gap", zone: "Europe/Berlin", wall: "2026-03-29T01:59",
      expected: "2026-03-29T00:59:00Z"),
    Case(
      name: "Berlin gap start 02:00 becomes 03:00", zone: "Europe/Berlin", wall: "2026-03-29T02:00",
      expected: "2026-03-29T01:00:00Z"),
    Case(
      name: "Berlin gap 02:30 becomes 03:30", zone: "Europe/Berlin", wall: "2026-03-29T02:30",
      expected: "2026-03-29T01:30:00Z"),
    Case(
      name: "Berlin gap 02:59:59 becomes 03:59:59", zone: "Europe/Berlin", wall: "2026-03-29T02:59:59",
      expected: "2026-03-29T01:59:59Z"),
    Case(
      name: "Berlin 03:00 after the gap", zone: "Europe/Berlin", wall: "2026-03-29T03:00",
      expected: "2026-03-29T01:00:00Z"),
    Case(
      name: "Berlin repeated 02:00 takes the first (CEST)", zone: "Europe/Berlin", wall: "2026-10-25T02:00",
      expected: "2026-10-25T00:00:00Z"),
    Case(
      name: "Berlin repeated 02:30 takes the first (CEST)", zone: "Europe/Berlin", wall: "2026-10-25T02:30",
      expected: "2026-10-25T00:30:00Z"),
    Case(
      name: "Berlin 03:00 after the repeat (CET)", zone: "Europe/Berlin", wall: "2026-10-25T03:00",
      expected: "2026-10-25T02:00:00Z"),
    Case(
      name: "New York gap 02:30 becomes 03:30", zone: "America/New_York", wall: "2026-03-08T02:30",
      expected: "2026-03-08T07:30:00Z"),
    Case(
      name: "New York repeated 01:30 takes the first (EDT)", zone: "America/New_York",
      wall: "2026-11-01T01:30", expected: "2026-11-01T05:30:00Z"),
    Case(
      name: "New York 00:59 before the repeat", zone: "America/New_York", wall: "2026-11-01T00:59",
      expected: "2026-11-01T04:59:00Z"),
    Case(
      name: "New York 02:00 after the repeat (EST)", zone: "America/New_York", wall: "2026-11-01T02:00",
      expected: "2026-11-01T07:00:00Z"),
    Case(
      name: "Lord Howe half-hour gap 02:15 becomes 02:45", zone: "Australia/Lord_Howe",
      wall: "2026-10-04T02:15", expected: "2026-10-03T15:45:00Z"),
    Case(
      name: "Samoa's skipped day moves forward a whole day", zone: "Pacific/Apia", wall: "2011-12-30T12:00",
      expected: "2011-12-30T22:00:00Z"),
    Case(
      name: "UTC is the identity", zone: "UTC", wall: "2026-03-29T02:30", expected: "2026-03-29T02:30:00Z"),
    Case(
      name: "before 1970", zone: "Europe/Berlin", wall: "1969-07-20T21:17:40",
      expected: "1969-07-20T20:17:40Z"),
    Case(name: "leap day", zone: "Asia/Tokyo", wall: "2028-02-29T09:00", expected: "2028-02-29T00:00:00Z"),
    Case(
      name: "far future keeps the rule", zone: "Europe/Berlin", wall: "2099-07-01T12:00",
      expected: "2099-07-01T10:00:00Z"),
  ]

  @Test("resolves wall-clock times, DST gaps forward and repeats to the first instance", arguments: cases)
  func resolves(_ c: Case) {
    // Given a wall-clock time in a zone
    // When it is resolved
    let instant = ZoneResolver.instant(for: wall(c.wall), in: zone(c.zone))
    // Then it is the expected instant
    #expect(instant == utc(c.expected))
  }

  @Test(
    "wallClock(for:in:) reads an instant's local components",
    arguments: [
      ("2026-03-29T01:30:00Z", "Europe/Berlin", "2026-03-29T03:30:00"),
      ("2026-10-25T00:30:00Z", "Europe/Berlin", "2026-10-25T02:30:00"),
      ("2026-10-25T01:30:00Z", "Europe/Berlin", "2026-10-25T02:30:00"),
      ("1969-12-31T23:59:59Z", "UTC", "1969-12-31T23:59:59"),
      ("2026-12-31T23:30:00Z", "Asia/Tokyo", "2027-01-01T08:30:00"),
      ("2026-01-01T03:00:00Z", "America/New_York", "2025-12-31T22:00:00"),
    ])
  func readsWallClock(instant: String, zoneName: String, expected: String) {
    // Given an instant; When it is read in a zone; Then the components match
    #expect(ZoneResolver.wallClock(for: utc(instant), in: zone(zoneName)).iso8601 == expected)
  }

  @Test("sub-second instants before 1970 round down to the earlier second")
  func subSecondBefore1970() {
    // Given half a second before the epoch
    let instant = Date(timeIntervalSince1970: -0.5)
    // When it is read in UTC; Then it is the last second of 1969
    #expect(ZoneResolver.wallClock(for: instant, in: utcZone).iso8601 == "1969-12-31T23:59:59")
  }

  @Test("every hour of a year in Berlin and New York survives the round trip", arguments: [berlin, newYork])
  func roundTrip(_ zone: Zone) {
    // Given each hour of 2026 as an instant
    let start = utc("2026-01-01T00:00:00Z")
    var repeatedHours = 0
    for hour in 0..<(365 * 24) {
      let instant = start + TimeInterval(hour * 3600)
      // When it is read as wall-clock time and resolved again
      let local = ZoneResolver.wallClock(for: instant, in: zone)
      let back = ZoneResolver.instant(for: local, in: zone)
      // Then it comes back, except the second instance of a repeated hour, which
      // resolves to the first one an hour earlier
      if back != instant {
        #expect(back == instant - 3600)
        repeatedHours += 1
      }
    }
    #expect(repeatedHours == 1)
  }

  @Test("out-of-range components carry over like a calendar would")
  func carriesOver() {
    // Given month 13 and day 32
    let instant = ZoneResolver.instant(for: WallClock(year: 2026, month: 13, day: 32, hour: 9), in: utcZone)
    // Then they count into the next year and month
    #expect(instant == utc("2027-02-01T09:00:00Z"))
  }
}

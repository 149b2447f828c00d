import Foundation
import NotifyTestSupport
import Testing

@testable import NotifyCore

@Suite("Schedule occurrences: repeats from the anchor without drift")
struct ScheduleOccurrenceTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let schedule: Schedule
    /// Expected instants of occurrences 0, 1, 2, ... or of the listed indices.
    let expected: [(index: Int, instant: String)]
    var testDescription: String { name }

    init(_ name: String, _ schedule: Schedule, _ expected: [String]) {
      self.name = name
      self.schedule = schedule
      self.expected = expected.enumerated().map { ($0.offset, $0.element) }
    }

    init(_ name: String, _ schedule: Schedule, indexed: [(Int, String)]) {
      self.name = name
      self.schedule = schedule
      self.expected = indexed.map { ($0.0, $0.1) }
    }
  }

  static func walls(_ text: String, _ zoneName: String, _ unit: RepeatInterval) -> Schedule {
    Schedule(fireDate: .wallClock(wall(text), .named(zoneName)), repeatInterval: unit)
  }

  static let cases: [Case] = [
    Case(
      "Jan 31 monthly for 14 months clamps to each month's last day",
      Schedule(fireDate: .instant(utc("2027-01-31T09:00:00Z")), repeatInterval: .month),
      [
        "2027-01-31T09:00:00Z", "2027-02-28T09:00:00Z", "2027-03-31T09:00:00Z", "2027-04-30T09:00:00Z",
        "2027-05-31T09:00:00Z", "2027-06-30T09:00:00Z", "2027-07-31T09:00:00Z", "2027-08-31T09:00:00Z",
        "2027-09-30T09:00:00Z", "2027-10-31T09:00:00Z", "2027-11-30T09:00:00Z", "2027-12-31T09:00:00Z",
        "2028-01-31T09:00:00Z", "2028-02-29T09:00:00Z",
      ]),
    Case(
      "Jan 31 monthly in Berlin keeps 09:00 local across DST",
      walls("2026-01-31T09:00", "Europe/Berlin", .month),
      [
        "2026-01-31T08:00:00Z", "2026-02-28T08:00:00Z", "2026-03-31T07:00:00Z", "2026-04-30T07:00:00Z",
      ]),
    Case(
      "daily 09:00 in Berlin across both DST changes",
      walls("2026-03-27T09:00", "Europe/Berlin", .day),
      indexed: [
        (0, "2026-03-27T08:00:00Z"), (1, "2026-03-28T08:00:00Z"), (2, "2026-03-29T07:00:00Z"),
        (3, "2026-03-30T07:00:00Z"), (211, "2026-10-24T07:00:00Z"), (212, "2026-10-25T08:00:00Z"),
        (213, "2026-10-26T08:00:00Z"),
      ]),
    Case(
      "daily 09:00 in New York across both DST changes",
      walls("2026-03-06T09:00", "America/New_York", .day),
      indexed: [
        (0, "2026-03-06T14:00:00Z"), (1, "2026-03-07T14:00:00Z"), (2, "2026-03-08T13:00:00Z"),
        (3, "2026-03-09T13:00:00Z"), (239, "2026-10-31T13:00:00Z"), (240, "2026-11-01T14:00:00Z"),
        (241, "2026-11-02T14:00:00Z"),
      ]),
    Case(
      "daily 02:30 in Berlin moves to 03:30 on the spring-forward day only",
      walls("2026-03-28T02:30", "Europe/Berlin", .day),
      ["2026-03-28T01:30:00Z", "2026-03-29T01:30:00Z", "2026-03-30T00:30:00Z"]),
    Case(
      "daily 02:30 in New York moves to 03:30 on the spring-forward day only",
      walls("2026-03-07T02:30", "America/New_York", .day),
      ["2026-03-07T07:30:00Z", "2026-03-08T07:30:00Z", "2026-03-09T06:30:00Z"]),
    Case(
      "daily 01:30 in New York fires once on the fall-back day, at the first instance",
      walls("2026-10-31T01:30", "America/New_York", .day),
      ["2026-10-31T05:30:00Z", "2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"]),
    Case(
      "hourly across Berlin's fall-back adds elapsed time (02:30 local twice)",
      walls("2026-10-25T00:30", "Europe/Berlin", .hour),
      [
        "2026-10-24T22:30:00Z", "2026-10-24T23:30:00Z", "2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z",
        "2026-10-25T02:30:00Z",
      ]),
    Case(
      "hourly across Berlin's spring-forward skips local 02:30",
      walls("2026-03-29T00:30", "Europe/Berlin", .hour),
      ["2026-03-28T23:30:00Z", "2026-03-29T00:30:00Z", "2026-03-29T01:30:00Z"]),
    Case(
      "Feb 29 yearly clamps to Feb 28 and comes back in leap years",
      Schedule(fireDate: .instant(utc("2024-02-29T12:00:00Z")), repeatInterval: .year),
      indexed: [
        (0, "2024-02-29T12:00:00Z"), (1, "2025-02-28T12:00:00Z"), (2, "2026-02-28T12:00:00Z"),
        (3, "2027-02-28T12:00:00Z"), (4, "2028-02-29T12:00:00Z"), (5, "2029-02-28T12:00:00Z"),
        (76, "2100-02-28T12:00:00Z"), (80, "2104-02-29T12:00:00Z"),
      ]),
    Case(
      "weekly in Berlin keeps the weekday and local time",
      walls("2026-03-22T09:00", "Europe/Berlin", .week),
      ["2026-03-22T08:00:00Z", "2026-03-29T07:00:00Z", "2026-04-05T07:00:00Z"]),
    Case(
      "daily for an absolute instant is 24 h in UTC",
      Schedule(fireDate: .instant(utc("2026-03-28T09:00:00Z")), repeatInterval: .day),
      ["2026-03-28T09:00:00Z", "2026-03-29T09:00:00Z", "2026-03-30T09:00:00Z"]),
    Case(
      "minute repeat across the 2016 leap second is exactly 60 s",
      Schedule(fireDate: .instant(utc("2016-12-31T23:58:00Z")), repeatInterval: .minute),
      ["2016-12-31T23:58:00Z", "2016-12-31T23:59:00Z", "2017-01-01T00:00:00Z", "2017-01-01T00:01:00Z"]),
    Case(
      "daily across the 2016 leap second is exactly 86400 s",
      Schedule(fireDate: .instant(utc("2016-12-31T12:00:00Z")), repeatInterval: .day),
      ["2016-12-31T12:00:00Z", "2017-01-01T12:00:00Z"]),
    Case(
      "sub-second part of an absolute anchor is kept by calendar repeats",
      Schedule(fireDate: .instant(utc("2026-01-31T09:00:00.250Z")), repeatInterval: .month),
      ["2026-01-31T09:00:00.250Z", "2026-02-28T09:00:00.250Z"]),
  ]

  @Test("occurrence k is the anchor plus k units", arguments: cases)
  func occurrences(_ c: Case) {
    for (index, instant) in c.expected {
      // When occurrence `index` is computed; Then it is the literal instant
      #expect(
        c.schedule.occurrence(index, zones: testZones(utcZone)) == utc(instant), "occurrence \(index)")
    }
  }

  @Test("upcoming lists the same instants as occurrence(k)", arguments: cases)
  func upcomingMatches(_ c: Case) {
    // Given the expected leading run of indices 0, 1, 2, ...
    let run = Array(c.expected.enumerated().prefix { $0.offset == $0.element.index }.map(\.element))
    // When upcoming lists that many; Then they match in order
    #expect(c.schedule.upcoming(run.count, zones: testZones(utcZone)) == run.map { utc($0.instant) })
  }

  @Test("the fall-back hourly repeat shows local 02:30 twice, one hour apart")
  func repeatedLocalHourAppearsTwice() {
    // Given an hourly repeat anchored at 00:30 on Berlin's fall-back day
    let schedule = Self.walls("2026-10-25T00:30", "Europe/Berlin", .hour)
    // When five occurrences are read back as Berlin wall-clock times
    let dates = schedule.upcoming(5, zones: testZones(utcZone))
    let locals = dates.map { ZoneResolver.wallClock(for: $0, in: berlin).iso8601 }
    // Then 02:30 appears twice and every step is 3600 s
    #expect(
      locals == [
        "2026-10-25T00:30:00", "2026-10-25T01:30:00", "2026-10-25T02:30:00", "2026-10-25T02:30:00",
        "2026-10-25T03:30:00",
      ])
    #expect(zip(dates, dates.dropFirst()).allSatisfy { $1.timeIntervalSince($0) == 3600 })
  }

  @Test("a wall-clock 01:30 on New York's fall-back day resolves to its first instance")
  func fallBackFirstInstance() {
    // Given a one-shot at 01:30 on 2026-11-01 in New York
    let schedule = Schedule(fireDate: .wallClock(wall("2026-11-01T01:30"), .named("America/New_York")))
    // Then it fires at 01:30 EDT, not an hour later at 01:30 EST
    #expect(schedule.occurrence(0, zones: testZones(utcZone)) == utc("2026-11-01T05:30:00Z"))
  }

  @Test("a local wall-clock schedule follows the system zone it is given")
  func localFollowsSystemZone() {
    // Given a daily 09:00 `local` schedule and a clock whose zone changes
    let schedule = Schedule(fireDate: .wallClock(wall("2026-06-01T09:00"), .local), repeatInterval: .day)
    let clock = ManualClock(now: utc("2026-06-01T00:00:00Z"), localZone: berlin, database: testZoneDatabase)
    // When the zone is Berlin, New York, then Tokyo
    let inBerlin = schedule.occurrence(1, zones: testZones(clock.zones.local))
    clock.setLocalZone(newYork)
    let inNewYork = schedule.occurrence(1, zones: testZones(clock.zones.local))
    clock.setLocalZone(zone("Asia/Tokyo"))
    let inTokyo = schedule.occurrence(1, zones: testZones(clock.zones.local))
    // Then 09:00 stays 09:00 local in each
    #expect(inBerlin == utc("2026-06-02T07:00:00Z"))
    #expect(inNewYork == utc("2026-06-02T13:00:00Z"))
    #expect(inTokyo == utc("2026-06-02T00:00:00Z"))
  }

  @Test("a named zone ignores the system zone")
  func namedIgnoresSystemZone() {
    let schedule = Self.walls("2026-06-01T09:00", "Europe/Berlin", .day)
    #expect(
      schedule.occurrence(3, zones: testZones(newYork))
        == schedule.occurrence(3, zones: testZones(zone("Asia/Tokyo"))))
  }
}

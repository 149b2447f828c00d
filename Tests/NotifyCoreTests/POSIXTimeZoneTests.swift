import Testing

@testable import NotifyCore

@Suite("POSIX TZ strings: parsing and the offset at an instant")
struct POSIXTimeZoneTests {
  struct Probe: CustomTestStringConvertible, Sendable {
    let name: String
    let rule: String
    /// Unix second, expected offset, abbreviation.
    let checks: [(Int64, Int, String)]
    var testDescription: String { name }
  }

  static let probes: [Probe] = [
    Probe(
      name: "Mm.w.d with a time: Central Europe", rule: "CET-1CEST,M3.5.0,M10.5.0/3",
      checks: [
        (1_774_746_000 - 1, 3600, "CET"), (1_774_746_000, 7200, "CEST"),
        (1_792_890_000 - 1, 7200, "CEST"), (1_792_890_000, 3600, "CET"),
      ]),
    Probe(
      name: "v3 negative transition times: Nuuk", rule: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0",
      checks: [
        (1_774_746_000 - 1, -7200, "-02"), (1_774_746_000, -3600, "-01"),
        (1_792_890_000 - 1, -3600, "-01"), (1_792_890_000, -7200, "-02"),
      ]),
    Probe(
      name: "v3 hours up to 167 either way", rule: "AAA3BBB,M3.2.0/167,M11.1.0/-167",
      checks: [
        (1_773_540_000 - 1, -10800, "AAA"), (1_773_540_000, -7200, "BBB"),
        (1_792_897_200 - 1, -7200, "BBB"), (1_792_897_200, -10800, "AAA"),
      ]),
    Probe(
      name: "Jn never counts February 29", rule: "AAA3BBB,J60/0,J300/0",
      checks: [(1_835_492_400 - 1, -10800, "AAA"), (1_835_492_400, -7200, "BBB")]),
    Probe(
      name: "n counts February 29", rule: "AAA3BBB,59/0,300/0",
      checks: [(1_835_406_000 - 1, -10800, "AAA"), (1_835_406_000, -7200, "BBB")]),
    Probe(
      name: "DST all year (RFC 8536 3.3.1)", rule: "EST5EDT,0/0,J365/25",
      checks: [
        (1_767_243_599, -14400, "EDT"), (1_782_907_200, -14400, "EDT"), (1_798_758_000, -14400, "EDT"),
      ]),
    Probe(
      name: "no DST, a quoted numeric name and minutes", rule: "<+0530>-5:30",
      checks: [(0, 19800, "+0530"), (1_782_907_200, 19800, "+0530")]),
    Probe(
      name: "DST without dates takes the US rule, as glibc", rule: "EST5EDT",
      checks: [(1_782_907_200, -14400, "EDT"), (1_767_243_599, -18000, "EST")]),
    Probe(
      name: "southern hemisphere: DST across the new year", rule: "<-03>3<-02>,M10.1.0/0,M3.5.0/0",
      checks: [(1_767_243_599, -7200, "-02"), (1_782_907_200, -10800, "-03")]),
  ]

  @Test("offsets and abbreviations at and around transitions", arguments: probes)
  func offsets(_ probe: Probe) throws {
    // Given the rule
    let zone = try Zone(posix: probe.rule)
    for (instant, offset, abbreviation) in probe.checks {
      // When asked about the instant, then the offset and name are the ones worked out by hand
      let type = zone.localTimeType(at: instant)
      #expect(type.utcOffset == offset, "\(probe.rule) at \(instant)")
      #expect(type.abbreviation == abbreviation, "\(probe.rule) at \(instant)")
    }
  }

  @Test("DST all year has no transition to name; a rule with DST has one within a year")
  func transitions() throws {
    #expect(try Zone(posix: "EST5EDT,0/0,J365/25").nextTransition(after: 1_782_907_200) == nil)
    #expect(try Zone(posix: "<+0530>-5:30").nextTransition(after: 0) == nil)
    #expect(
      try Zone(posix: "CET-1CEST,M3.5.0,M10.5.0/3").nextTransition(after: 1_774_746_000 - 10) == 1_774_746_000
    )
  }

  struct Bad: CustomTestStringConvertible, Sendable {
    let rule: String
    let mentions: String
    var testDescription: String { rule }
  }

  static let bad: [Bad] = [
    Bad(rule: "", mentions: "standard time name"),
    Bad(rule: "CET", mentions: "has no offset"),
    Bad(rule: "CE-1", mentions: "shorter than three letters"),
    Bad(rule: "CET-25", mentions: "hours 25 are not 0...24"),
    Bad(rule: "CET-1CEST,M3.5.0/168,M10.5.0/3", mentions: "hours 168 are not 0...167"),
    Bad(rule: "CET-1CEST,M13.5.0,M10.5.0/3", mentions: "month 13 is not 1...12"),
    Bad(rule: "CET-1CEST,M3.6.0,M10.5.0/3", mentions: "week 6 is not 1...5"),
    Bad(rule: "CET-1CEST,M3.5.7,M10.5.0/3", mentions: "weekday 7 is not 0...6"),
    Bad(rule: "CET-1CEST,J0,J300", mentions: "J0 is not 1...365"),
    Bad(rule: "CET-1CEST,366,300", mentions: "day 366 is not 0...365"),
    Bad(rule: "CET-1CEST,M3.5.0", mentions: "',' before the end date"),
    Bad(rule: "CET-1,M3.5.0,M10.5.0", mentions: "without a daylight saving time name"),
    Bad(rule: "CET-1CEST,M3.5.0,M10.5.0/3x", mentions: "the end of the rule"),
    Bad(rule: "<+05-5", mentions: "'>' closing"),
    Bad(rule: "CET-1:5", mentions: "two digits"),
  ]

  @Test("malformed rules are refused naming the part that is wrong", arguments: bad)
  func refused(_ bad: Bad) {
    let error = #expect(throws: ZoneError.self) { try Zone(posix: bad.rule) }
    #expect(error?.description.contains(bad.mentions) == true, "\(error?.description ?? "")")
  }
}

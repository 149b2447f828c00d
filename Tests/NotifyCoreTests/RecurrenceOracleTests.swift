import Foundation
import NotifyTestSupport
import Testing

@testable import NotifyCore

/// Checks calendar rules against an implementation nobody here wrote:
/// `Tests/Fixtures/rrule_oracle.py`, python-dateutil's `rrule` with `zoneinfo` (fold=0 is
/// SPEC.md §2's rule for gaps and repeated hours). Random rules from the supported
/// grammar, in zones with odd DST rules, anchored on and around DST changes; every
/// occurrence in a window, and first/latest queries at random instants, must agree.
@Suite(
  "Calendar rules against python-dateutil", .ownThreads,
  .enabled(if: RuleOracle.isUsable, "needs /usr/bin/python3 with dateutil and zoneinfo"))
struct RecurrenceOracleTests {
  /// Rules per run; the first seed is `NOTIFY_RRULE_ORACLE_SEED` when set.
  static let caseCount =
    ProcessInfo.processInfo.environment["NOTIFY_RRULE_ORACLE_CASES"].flatMap { Int($0) } ?? 300
  static let firstSeed =
    ProcessInfo.processInfo.environment["NOTIFY_RRULE_ORACLE_SEED"].flatMap { UInt64($0) } ?? 20_261_123

  @Test("random rules, zones and anchors: the same instants as dateutil, and the same answers to queries")
  func randomRules() throws {
    // Given random rules, each from a seed of its own
    let cases = (0..<Self.caseCount).map { index in
      let seed = Self.firstSeed &+ UInt64(index)
      var generator = SeededGenerator(seed: seed)
      return RuleCase(seed: seed, using: &generator)
    }
    // When dateutil and notify each expand them
    let answers = try RuleOracle.ask(cases)
    var occurrences = 0
    var queries = 0
    var empty = 0
    for (c, answer) in zip(cases, answers) {
      // A partial answer (dateutil's two seconds ran out on a busy machine) is compared as
      // far as it reached, less a day for times it may not have sorted in yet.
      let oracle = answer?.instants
      let cutoff =
        answer.map { $0.complete ? c.cutoff : min(c.cutoff, ($0.instants.last ?? 0) - 86_400) } ?? c.cutoff
      let began = Date()
      defer {
        if ProcessInfo.processInfo.environment["NOTIFY_RRULE_ORACLE_TRACE"] != nil {
          print(
            "case \(c.context): \(Date().timeIntervalSince(began)) s, \(oracle?.count ?? -1) from dateutil")
        }
      }
      let expected = (oracle ?? []).filter { $0 <= cutoff }
      var ours: [Int64] = []
      var index = 0
      while let date = c.schedule.occurrence(index, zones: testZones(c.zone)),
        Int64(date.timeIntervalSince1970) <= cutoff
      {
        ours.append(Int64(date.timeIntervalSince1970.rounded(.down)))
        index += 1
        if ours.count > expected.count + 5 { break }
      }
      // Then they agree on every occurrence in the window
      if ours != expected {
        let firstDifference =
          Array(zip(ours, expected)).firstIndex { $0 != $1 } ?? min(ours.count, expected.count)
        Issue.record(
          "\(c.context): notify has \(ours.count) occurrences, dateutil \(expected.count); first difference at index \(firstDifference): notify \(ours.dropFirst(firstDifference).first.map(c.describe) ?? "none"), dateutil \(expected.dropFirst(firstDifference).first.map(c.describe) ?? "none")"
        )
        continue
      }
      occurrences += expected.count
      if expected.isEmpty { empty += 1 }
      // And the first at or after, and the latest at or before, random instants are dateutil's
      var random = SeededGenerator(seed: c.seed ^ 0x5EED)
      let low = (expected.first ?? cutoff) - 86_400
      for _ in 0..<6 where low < cutoff {
        let t = Int64.random(in: low...cutoff, using: &random)
        let instant = Date(timeIntervalSince1970: TimeInterval(t))
        let after = expected.firstIndex { $0 >= t }
        let before = expected.lastIndex { $0 <= t }
        let first = c.schedule.firstOccurrence(atOrAfter: instant, zones: testZones(c.zone))
        let latest = c.schedule.latestOccurrence(atOrBefore: instant, zones: testZones(c.zone))
        if let after {
          #expect(
            first?.index == after && first.map { Int64($0.date.timeIntervalSince1970) } == expected[after],
            "\(c.context): first at or after \(c.describe(t))")
        }
        #expect(
          latest?.index == before
            && latest.map { Int64($0.date.timeIntervalSince1970) } == before.map { expected[$0] },
          "\(c.context): latest at or before \(c.describe(t)) is \(latest.map { c.describe(Int64($0.date.timeIntervalSince1970)) } ?? "none")"
        )
        queries += 1
      }
    }
    #expect(occurrences > Self.caseCount * 5, "only \(occurrences) occurrences compared")
    print(
      "rrule oracle: \(occurrences) occurrences of \(cases.count) rules (\(empty) with none in their window) and \(queries) queries agreed with dateutil (first seed \(Self.firstSeed))"
    )
  }
}

extension RecurrenceOracleTests {
  @Test(
    "rules started 50 years back: the occurrences around 2026, and their numbers, are dateutil's from the same start"
  )
  func rulesStartedLongAgo() throws {
    // Given random DAILY to YEARLY rules (BYDAY, BYMONTHDAY, BYSETPOS, EXDATE, COUNT,
    // UNTIL) anchored 50 years before 2026, and a few finer ones anchored weeks or years back
    var cases: [RuleCase] = []
    var seed = Self.firstSeed
    while cases.count < 40 {
      seed &+= 1
      var generator = SeededGenerator(seed: seed)
      let c = RuleCase(seed: seed, using: &generator, yearsBack: 50)
      if c.rule.frequency >= .daily { cases.append(c) }
    }
    for (index, text) in [
      "FREQ=HOURLY;INTERVAL=5;BYMINUTE=0,30", "FREQ=HOURLY;BYSETPOS=-1;BYMINUTE=10,20",
      "FREQ=MINUTELY;INTERVAL=7;BYSECOND=30", "FREQ=MINUTELY;INTERVAL=13",
      "FREQ=MINUTELY;INTERVAL=7;BYHOUR=1,2,3", "FREQ=HOURLY;INTERVAL=5;BYHOUR=1,2,3,4;BYMINUTE=0,29",
    ].enumerated() {
      let zones = [
        "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Chatham", "Europe/London",
        "America/Santiago",
      ]
      cases.append(
        try RuleCase(
          rule: try RecurrenceRule(parsing: text), zoneName: zones[index],
          start: WallClock(
            year: text.contains("HOURLY") ? 2022 : 2026, month: 2, day: 11, hour: 1, minute: 29),
          end: WallClock(year: 2026, month: 6, day: 1)))
    }
    // When dateutil lists every occurrence from the start
    let answers = try RuleOracle.ask(cases)
    var compared = 0
    var jumped = 0
    for (c, answer) in zip(cases, answers) {
      guard let answer, answer.complete, answer.instants.count > 2 else { continue }
      if RuleContext(rule: c.rule, start: c.start, zone: c.zone).isCounted { jumped += 1 }
      let expected = answer.instants
      var random = SeededGenerator(seed: c.seed ^ 0xFA5)
      for _ in 0..<3 {
        // Then a fresh schedule's first query, near the end, answers with dateutil's
        // occurrence and its number
        let schedule = try Schedule(fireDate: .wallClock(c.start, .named(c.zoneName)), rule: c.rule)
        let low = max(expected[expected.count / 2], c.cutoff - 200 * 86_400)
        guard low < c.cutoff else { break }
        let t = Int64.random(in: low...c.cutoff, using: &random)
        let instant = Date(timeIntervalSince1970: TimeInterval(t))
        let zones = testZones(c.zone)
        let first = schedule.firstOccurrence(atOrAfter: instant, zones: zones)
        let latest = schedule.latestOccurrence(atOrBefore: instant, zones: zones)
        let after = expected.firstIndex { $0 >= t }
        let before = expected.lastIndex { $0 <= t }
        // (none in dateutil's window: ours, if any, lies past it)
        let firstSeconds = first.map { Int64($0.date.timeIntervalSince1970) }
        #expect(
          after == nil
            ? firstSeconds.map { $0 > c.cutoff } ?? true
            : first?.index == after && firstSeconds == after.map { expected[$0] },
          "\(c.context): first at or after \(c.describe(t)) is #\(first?.index ?? -1), dateutil's #\(after ?? -1)"
        )
        #expect(
          latest?.index == before
            && latest.map { Int64($0.date.timeIntervalSince1970) } == before.map { expected[$0] },
          "\(c.context): latest at or before \(c.describe(t)) is #\(latest?.index ?? -1), dateutil's #\(before ?? -1)"
        )
        // And the occurrences after it are dateutil's next ones
        if let after {
          let upcoming = schedule.upcoming(4, from: after, zones: zones).map {
            Int64($0.timeIntervalSince1970)
          }
          .filter { $0 <= c.cutoff }
          let theirs = expected[after...].prefix(4).filter { $0 <= c.cutoff }
          #expect(upcoming == Array(theirs.prefix(upcoming.count)), "\(c.context): upcoming from #\(after)")
        }
        compared += 1
      }
    }
    #expect(compared > 60, "only \(compared) queries compared")
    // (rules whose times are counted, so that their queries jump, and the others, walked)
    #expect(jumped >= 25, "only \(jumped) rules had their times counted")
    print(
      "rrule oracle, rules from long ago: \(compared) queries agreed with dateutil, \(jumped) of the rules jumping"
    )
  }
}

/// One random rule, anchor and zone, and the window to compare.
struct RuleCase {
  static let zones = [
    "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Havana", "Pacific/Chatham",
    "America/St_Johns", "Europe/London", "Pacific/Auckland", "Antarctica/Troll", "Asia/Kolkata",
    "America/Santiago", "Asia/Tehran", "UTC",
  ]
  /// 2016-01-01 to 2030-01-01.
  static let range: Range<Int64> = 1_451_606_400..<1_893_456_000

  let seed: UInt64
  let zoneName: String
  let zone: Zone
  let rule: RecurrenceRule
  let start: WallClock
  let end: WallClock
  let schedule: Schedule
  /// Instants compared: up to two days before the window's end.
  let cutoff: Int64

  /// A hand-written case: the window runs from `start` to `end`.
  init(rule: RecurrenceRule, zoneName: String, start: WallClock, end: WallClock) throws {
    seed = UInt64(bitPattern: Int64(start.localSeconds))
    self.zoneName = zoneName
    zone = NotifyCoreTests.zone(zoneName)
    self.rule = rule
    self.start = start
    self.end = end
    cutoff = end.localSeconds - 3 * 86_400
    schedule = try Schedule(fireDate: .wallClock(start, .named(zoneName)), rule: rule)
  }

  /// A random case; `yearsBack` moves its anchor that many years before 2016-2030 and its
  /// window's end to the end of 2026.
  init(seed: UInt64, using random: inout SeededGenerator, yearsBack: Int? = nil) {
    self.seed = seed
    zoneName = Self.zones.randomElement(using: &random)!
    zone = NotifyCoreTests.zone(zoneName)
    // An anchor on or near a DST change half of the time, in or next to its gap or repeat
    var instant = Date(timeIntervalSince1970: TimeInterval(Int64.random(in: Self.range, using: &random)))
    if Bool.random(using: &random), let change = zone.nextTransition(after: instant) {
      instant = change + TimeInterval([-3600, -1800, 0, 1, 1800, 3600, 7200].randomElement(using: &random)!)
    }
    var wall = ZoneResolver.wallClock(for: instant, in: zone)
    if Int.random(in: 0..<3, using: &random) == 0 {
      // Shift by the usual gap so that some anchors are wall-clock times a gap skips
      wall = WallClock(localSeconds: wall.localSeconds - 1800)
    }
    if Int.random(in: 0..<3, using: &random) > 0 { wall.second = 0 }
    if let yearsBack {
      wall.year -= yearsBack
      wall.day = min(wall.day, CivilCalendar.daysInMonth(wall.month, of: wall.year))
    }
    start = wall
    var made: RecurrenceRule?
    while made == nil { made = Self.randomRule(start: wall, using: &random) }
    rule = made!
    let span: Int64 =
      switch rule.frequency {
      case .minutely: 2 * 86_400
      case .hourly: 12 * 86_400
      case .daily: 300 * 86_400
      case .weekly: 3 * 366 * 86_400
      case .monthly: 10 * 366 * 86_400
      case .yearly: 50 * 366 * 86_400
      }
    end =
      yearsBack == nil
      ? WallClock(localSeconds: wall.localSeconds + span) : WallClock(year: 2027, month: 1, day: 1)
    cutoff = end.localSeconds - 3 * 86_400
    if zoneName == "UTC", Bool.random(using: &random) {
      schedule = try! Schedule(
        fireDate: .instant(Date(timeIntervalSince1970: TimeInterval(wall.localSeconds))), rule: rule)
    } else {
      schedule = try! Schedule(fireDate: .wallClock(wall, .named(zoneName)), rule: rule)
    }
  }

  static func randomRule(start: WallClock, using random: inout SeededGenerator) -> RecurrenceRule? {
    func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    func some(_ values: [Int], upTo count: Int) -> [Int] {
      (0..<Int.random(in: 1...count, using: &random)).map { _ in values.randomElement(using: &random)! }
    }
    let frequency = RecurrenceRule.Frequency.allCases.randomElement(using: &random)!
    let interval = chance(60) ? 1 : Int.random(in: 2...5, using: &random)
    var byMonth: [Int] = []
    var byMonthDay: [Int] = []
    var byDay: [RecurrenceRule.WeekdayEntry] = []
    var byHour: [Int] = []
    var byMinute: [Int] = []
    var bySecond: [Int] = []
    var bySetPosition: [Int] = []
    let weekdays = RecurrenceRule.Weekday.allCases
    if chance(frequency >= .monthly ? 35 : 15) { byMonth = some(Array(1...12), upTo: 4) }
    if frequency != .weekly, chance(frequency >= .monthly ? 40 : 15) {
      byMonthDay = some(Array(1...31) + [-1, -2, -3, -7], upTo: 3)
    }
    if chance(45) {
      if frequency >= .monthly, chance(60) {
        // Ordinals only: dateutil reads a list mixing ordinal and plain weekdays as an
        // intersection, RFC 5545 (and notify) as a union.
        let ordinals =
          frequency == .yearly && byMonth.isEmpty ? [1, 2, 10, 20, 52, -1, -2] : [1, 2, 3, 4, 5, -1, -2]
        byDay = (0..<Int.random(in: 1...2, using: &random)).map { _ in
          .init(
            ordinal: ordinals.randomElement(using: &random)!, weekday: weekdays.randomElement(using: &random)!
          )
        }
      } else {
        byDay = (0..<Int.random(in: 1...3, using: &random)).map { _ in
          .init(weekday: weekdays.randomElement(using: &random)!)
        }
      }
    }
    let smallHours = [0, 1, 2, 3, 4, 23]
    if chance(frequency >= .daily ? 40 : 25) {
      byHour = some(chance(60) ? smallHours : Array(0...23), upTo: frequency >= .daily ? 3 : 8)
    }
    if chance(frequency >= .hourly ? 35 : 20) {
      byMinute = some(chance(60) ? [0, 15, 30, 45] : Array(0...59), upTo: 3)
    }
    if chance(8) { bySecond = some([0, 30, 59], upTo: 1) }
    // dateutil starts a WEEKLY rule's first week at DTSTART rather than at WKST, so its
    // BYSETPOS counts only that week's days from the start on; RFC 5545 (and notify) count
    // the whole week (RecurrenceRuleTests checks that case by hand).
    if frequency != .weekly, chance(20) { bySetPosition = some([1, 2, -1, -2, 3], upTo: 2) }
    var count: Int?
    var until: RecurrenceRule.Until?
    if chance(25) {
      count = Int.random(in: 1...60, using: &random)
    } else if chance(20) {
      let seconds = start.localSeconds + Int64.random(in: -86_400...(400 * 86_400), using: &random)
      until = .instant(Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
    var exclusions: [RecurrenceRule.Exclusion] = []
    if chance(25) {
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        var wall = start
        wall = WallClock(localSeconds: wall.localSeconds + Int64.random(in: 0...20, using: &random) * 86_400)
        exclusions.append(.wallClock(wall))
      }
    }
    let weekStart = chance(30) ? weekdays.randomElement(using: &random)! : .monday
    return try? RecurrenceRule(
      frequency: frequency, interval: interval, bySecond: bySecond, byMinute: byMinute, byHour: byHour,
      byDay: byDay, byMonthDay: byMonthDay, byMonth: byMonth, bySetPosition: bySetPosition, count: count,
      until: until, weekStart: weekStart, exclusions: exclusions)
  }

  /// How a failure names the case and how to rerun it alone.
  var context: String {
    "seed \(seed) (rerun it first with NOTIFY_RRULE_ORACLE_SEED=\(seed)): \(rule.text.replacingOccurrences(of: "\n", with: " ")) from \(start.iso8601) in \(zoneName)"
  }

  func describe(_ instant: Int64) -> String {
    let date = Date(timeIntervalSince1970: TimeInterval(instant))
    return "\(RFC3339.string(from: date)) (\(ZoneResolver.wallClock(for: date, in: zone).iso8601) local)"
  }

  /// The case as the oracle reads it.
  var json: JSONValue {
    .object([
      "rule": .string(rule.ruleText), "exdates": .array(rule.exclusions.map { .string($0.text) }),
      "zone": .string(zoneName), "start": .string(start.iso8601), "end": .string(end.iso8601),
    ])
  }
}

/// Runs `rrule_oracle.py` with Debian's Python.
enum RuleOracle {
  static let python = "/usr/bin/python3"
  static let script =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/rrule_oracle.py").path

  /// Whether the oracle runs; prints why not when it does not.
  static let isUsable: Bool = {
    guard FileManager.default.isExecutableFile(atPath: python) else {
      print("skipping the dateutil oracle: \(python) is missing (Debian: apt-get install python3-dateutil)")
      return false
    }
    // 02:30 and 03:30 on the day Berlin skips 02:00–03:00 are one instant, 01:30Z
    let probe = JSONValue.object([
      "rule": .string("FREQ=DAILY;BYHOUR=2,3;BYMINUTE=30;COUNT=4"), "exdates": .array([]),
      "zone": .string("Europe/Berlin"), "start": .string("2026-03-29T00:00:00"),
      "end": .string("2026-03-30T00:00:00"),
    ])
    do {
      let answers = try run(.object(["cases": .array([probe])]))
      guard let first = answers.first, first?.instants == [1_774_747_800], first?.complete == true else {
        print("skipping the dateutil oracle: it answered \(answers) for a known case")
        return false
      }
      return true
    } catch {
      print("skipping the dateutil oracle: \(error)")
      return false
    }
  }()

  /// Each case's instants by dateutil, and whether it listed them all (not cut short by
  /// its time limit); nil where it found none in time.
  static func ask(_ cases: [RuleCase]) throws -> [(instants: [Int64], complete: Bool)?] {
    let answers = try run(.object(["cases": .array(cases.map(\.json))]))
    guard answers.count == cases.count else {
      throw QuietOracleError("it answered \(answers.count) cases of \(cases.count)")
    }
    return answers
  }

  private static func run(_ input: JSONValue) throws -> [(instants: [Int64], complete: Bool)?] {
    let result = try CommandRunner(executable: python).run([script], stdin: input.compactText, timeout: 300)
    guard result.status == 0 else {
      throw QuietOracleError("\(script) exited \(result.status): \(result.stderr)")
    }
    guard case .object(let members) = try JSONValue.parse(result.stdout),
      case .array(let cases)? = members["results"]
    else { throw QuietOracleError("unexpected output: \(result.stdout.prefix(200))") }
    return try cases.map { answer in
      var complete = true
      var list = answer
      switch answer {
      case .null: return nil
      case .object(let members):
        guard let partial = members["partial"] else { throw QuietOracleError("unexpected answer \(answer)") }
        list = partial
        complete = false
      default: break
      }
      guard case .array(let values) = list else { throw QuietOracleError("unexpected answer \(answer)") }
      let instants = try values.map { value in
        guard case .int(let instant) = value else { throw QuietOracleError("unexpected instant \(value)") }
        return instant
      }
      return (instants, complete)
    }
  }
}

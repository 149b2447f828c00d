import Foundation
import NotifyTestSupport
import Testing

@testable import NotifyCore

/// Checks the schedule rules against an implementation nobody here wrote the calendar of:
/// `Tests/Fixtures/quiet_oracle.py`, on Python's datetime and zoneinfo (PEP 495's fold=0 is
/// SPEC.md §2's rule for gaps and repeated hours). Instants are drawn around DST changes and
/// around the instants `nextChange` names, where mistakes would hide.
@Suite(
  "QuietHours against Python's zoneinfo",
  .enabled(if: QuietOracle.isUsable, "needs /usr/bin/python3 with zoneinfo and the tz database"))
struct QuietHoursOracleTests {
  /// Schedules per run; the first seed is `NOTIFY_QUIET_ORACLE_SEED` when set.
  static let caseCount = 300
  static let firstSeed =
    ProcessInfo.processInfo.environment["NOTIFY_QUIET_ORACLE_SEED"].flatMap { UInt64($0) } ?? 20_261_123

  @Test("random schedules, zones and instants: quiet exactly when zoneinfo says, flipping at nextChange")
  func randomSchedules() throws {
    // Given random schedules in zones with odd DST rules, each from a seed of its own
    let cases = (0..<Self.caseCount).map { index in
      let seed = Self.firstSeed &+ UInt64(index)
      var generator = SeededGenerator(seed: seed)
      return OracleCase(seed: seed, using: &generator)
    }
    // When zoneinfo and notify each say whether each instant is quiet
    let answers = try QuietOracle.ask(cases)
    var instants = 0
    var flips = 0
    for (c, oracle) in zip(cases, answers) {
      let ours = c.instants.map { c.quiet.isQuiet(at: $0, in: c.zone) }
      // Then they agree everywhere
      for (index, instant) in c.instants.enumerated() where ours[index] != oracle[index] {
        let local = ZoneResolver.wallClock(for: instant, in: c.zone).iso8601
        let notify = ours[index] ? "quiet" : "not quiet"
        let zoneinfo = oracle[index] ? "quiet" : "not quiet"
        Issue.record(
          "\(c.context): at \(RFC3339.string(from: instant)) (\(local) local) notify says \(notify), zoneinfo \(zoneinfo)"
        )
      }
      instants += c.instants.count
      // And by zoneinfo's answers nothing flips from now to the second before nextChange, and at it
      // something does
      guard let flip = c.flip else { continue }
      flips += 1
      let quietNow = oracle[flip.now]
      #expect(
        oracle[flip.between] == quietNow && oracle[flip.before] == quietNow,
        "\(c.context): zoneinfo flips before nextChange \(RFC3339.string(from: c.instants[flip.at]))")
      #expect(
        oracle[flip.at] != quietNow,
        "\(c.context): zoneinfo does not flip at nextChange \(RFC3339.string(from: c.instants[flip.at]))")
    }
    #expect(flips >= Self.caseCount / 2, "only \(flips) schedules had a nextChange to check")
    print(
      "quiet oracle: \(instants) instants in \(cases.count) schedules agreed with zoneinfo, \(flips) nextChange"
        + " instants checked (first seed \(Self.firstSeed))")
  }
}

/// One random schedule in a zone, and the instants to ask about.
struct OracleCase {
  /// Zones with DST at odd hours or by odd amounts, and some without.
  static let zones = [
    "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Havana", "Pacific/Chatham",
    "America/St_Johns", "Australia/Adelaide", "Europe/London", "Pacific/Auckland", "Antarctica/Troll",
    "Asia/Kolkata", "UTC",
  ]
  /// 2016-01-01 to 2037-01-01: rules both sides agree on, whichever tz database each carries.
  static let range: Range<Int64> = 1_451_606_400..<2_114_380_800

  let seed: UInt64
  let zoneName: String
  let zone: Zone
  let quiet: QuietHours
  var instants: [Date] = []
  /// Indices into `instants`: a `now`, an instant between it and `nextChange(after: now)`,
  /// the second before that, and that.
  var flip: (now: Int, between: Int, before: Int, at: Int)?

  var schedule: QuietSchedule { quiet.schedule! }

  init(seed: UInt64, using random: inout SeededGenerator) {
    self.seed = seed
    zoneName = Self.zones.randomElement(using: &random)!
    zone = NotifyCoreTests.zone(zoneName)
    // Times near the small hours, where DST changes happen, half of the time
    func time() -> QuietSchedule.TimeOfDay {
      let hour =
        Bool.random(using: &random)
        ? [0, 1, 2, 3, 4, 23].randomElement(using: &random)! : Int.random(in: 0...23, using: &random)
      let minute =
        Int.random(in: 0..<10, using: &random) < 7
        ? [0, 15, 30, 45].randomElement(using: &random)! : Int.random(in: 0...59, using: &random)
      return QuietSchedule.TimeOfDay(hour: hour, minute: minute)
    }
    let from = time()
    let to = Int.random(in: 0..<10, using: &random) == 0 ? from : time()
    var days = Set(QuietSchedule.Weekday.allCases)
    if Int.random(in: 0..<10, using: &random) >= 3 {
      days = days.filter { _ in Bool.random(using: &random) }
      if days.isEmpty { days = [QuietSchedule.Weekday.allCases.randomElement(using: &random)!] }
    }
    quiet = QuietHours(schedule: QuietSchedule(from: from, to: to, days: days))

    func uniform() -> Date {
      Date(timeIntervalSince1970: TimeInterval(Int64.random(in: Self.range, using: &random)))
    }
    // A whole second within 30 hours of a DST change, or anywhere when the zone has none
    func nearChange() -> Date {
      guard let change = zone.nextTransition(after: uniform()) else { return uniform() }
      return change + TimeInterval(Int.random(in: -30 * 3600...30 * 3600, using: &random))
    }
    instants = [uniform(), uniform(), nearChange(), nearChange(), nearChange()]
    let now = nearChange()
    if let next = quiet.nextChange(after: now, in: zone) {
      let between =
        now + TimeInterval(Int64.random(in: 0..<Int64(next.timeIntervalSince(now)), using: &random))
      flip = (instants.count, instants.count + 1, instants.count + 2, instants.count + 3)
      instants += [now, between, next - 1, next]
    }
  }

  /// How a failure names the case and how to rerun it alone.
  var context: String {
    let days = schedule.days.sorted().map(\.shortName).joined(separator: ",")
    return
      "seed \(seed) (rerun it first with NOTIFY_QUIET_ORACLE_SEED=\(seed)): \(zoneName) \(schedule.from)–\(schedule.to) on \(days)"
  }

  /// The case as the oracle reads it.
  var json: JSONValue {
    .object([
      "zone": .string(zoneName), "from": .string(schedule.from.description),
      "to": .string(schedule.to.description),
      "days": .array(schedule.days.sorted().map { .int(Int64($0.rawValue)) }),
      "instants": .array(instants.map { .int(Int64($0.timeIntervalSince1970)) }),
    ])
  }
}

/// Runs `quiet_oracle.py` with Debian's Python.
enum QuietOracle {
  static let python = "/usr/bin/python3"
  static let script =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/quiet_oracle.py").path

  /// Whether the oracle runs and knows every zone; prints why not when it does not.
  static let isUsable: Bool = {
    guard FileManager.default.isExecutableFile(atPath: python) else {
      print("skipping the zoneinfo oracle: \(python) is missing (Debian: apt-get install python3)")
      return false
    }
    // Saturday 2026-03-28 22:00–02:30 in Berlin ends at 03:30 CEST, 01:30Z
    let probe = JSONValue.object([
      "zone": .string("Europe/Berlin"), "from": .string("22:00"), "to": .string("02:30"),
      "days": .array([.int(6)]),
      "instants": .array([.int(1_774_747_799), .int(1_774_747_800)]),
    ])
    let everyZone = OracleCase.zones.map { name in
      JSONValue.object([
        "zone": .string(name), "from": .string("00:00"), "to": .string("00:00"), "days": .array([]),
        "instants": .array([]),
      ])
    }
    do {
      let answers = try run(.object(["cases": .array([probe] + everyZone)]))
      guard answers.first == [true, false] else {
        print(
          "skipping the zoneinfo oracle: it answered \(answers.first ?? []) for a known case, not [true, false]"
        )
        return false
      }
      return true
    } catch {
      print("skipping the zoneinfo oracle: \(error)")
      return false
    }
  }()

  /// Whether each case's instants are quiet, by zoneinfo.
  static func ask(_ cases: [OracleCase]) throws -> [[Bool]] {
    let answers = try run(.object(["cases": .array(cases.map(\.json))]))
    guard answers.count == cases.count, zip(answers, cases).allSatisfy({ $0.count == $1.instants.count })
    else {
      throw QuietOracleError("it answered \(answers.count) cases of \(cases.count), or not every instant")
    }
    return answers
  }

  private static func run(_ input: JSONValue) throws -> [[Bool]] {
    let result = try CommandRunner(executable: python).run([script], stdin: input.compactText, timeout: 120)
    guard result.status == 0 else {
      throw QuietOracleError("\(script) exited \(result.status): \(result.stderr)")
    }
    guard case .object(let members) = try JSONValue.parse(result.stdout),
      case .array(let cases)? = members["results"]
    else { throw QuietOracleError("unexpected output: \(result.stdout.prefix(200))") }
    return try cases.map { answers in
      guard case .array(let values) = answers else { throw QuietOracleError("unexpected answers \(answers)") }
      return try values.map { value in
        guard case .bool(let quiet) = value else { throw QuietOracleError("unexpected answer \(value)") }
        return quiet
      }
    }
  }
}

struct QuietOracleError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// Checks calendars' alarms against an implementation nobody here wrote: recurring-ical-events
/// with icalendar (`Tests/Fixtures/ical_oracle.py`, in the venv `.ci/install-packages` makes).
/// Seeded random calendars (events and to-dos, rules with COUNT and UNTIL, RDATE, EXDATE,
/// overrides, THISANDFUTURE, cancelled occurrences, tz database zones, a VTIMEZONE of the
/// file's own, floating times, triggers before and after the start and end, absolute
/// triggers, REPEAT, acknowledged alarms, EMAIL alarms) go through `notify calendar
/// preview --json`, the built binary, and every alarm instant in the window must be the
/// oracle's: the same UID, RECURRENCE-ID, instant, action and summary.
///
/// Two things are left out of the comparison, each counted: alarms of all-day items (the
/// oracle adds a trigger to a DATE with date arithmetic, which drops its hours: -PT15M on
/// 2026-12-10 gives the date 2026-12-09) and alarms whose arithmetic spans a change of
/// their zone's offset (the oracle adds hours on the wall clock, RFC 5545 §3.3.6 and
/// notify exactly). `CalendarAlarmTests` checks both by hand.
@Suite(
  "Calendars' alarms against recurring-ical-events", .ownThreads,
  .enabled(if: ICalOracle.isUsable, ICalOracle.skipReason))
struct CalendarOracleTests {
  /// Calendars per run, and the first seed (`NOTIFY_ICAL_ORACLE_SEED` reruns one).
  static let caseCount =
    ProcessInfo.processInfo.environment["NOTIFY_ICAL_ORACLE_CASES"].flatMap { Int($0) } ?? 240
  static let firstSeed =
    ProcessInfo.processInfo.environment["NOTIFY_ICAL_ORACLE_SEED"].flatMap { UInt64($0) } ?? 20_261_205

  @Test("random calendars: the same alarm instants as recurring-ical-events, through notify calendar preview")
  func randomCalendars() throws {
    // Given random calendars, each from a seed of its own, grouped by the system zone they are read in
    let folder = TemporaryFolder(prefix: "notify-ical-oracle")
    let cases = (0..<Self.caseCount).map { index in
      let seed = Self.firstSeed &+ UInt64(index)
      var generator = SeededGenerator(seed: seed)
      return CalendarCase(seed: seed, using: &generator)
    }
    var compared = 0
    var excludedAllDay = 0
    var excludedNearChange = 0
    var calendarsWithAlarms = 0
    for zone in Set(cases.map(\.systemZone)).sorted() {
      let group = cases.filter { $0.systemZone == zone }
      var paths: [String] = []
      for c in group {
        let path = folder.file("case-\(c.seed).ics")
        try Data(c.text.utf8).write(to: URL(fileURLWithPath: path))
        paths.append(path)
      }
      // When notify previews them and the oracle lists them
      let ours = try ICalOracle.preview(
        paths: paths, from: group.map(\.from).min()!, to: group.map(\.to).max()!, zone: zone)
      let theirs = try ICalOracle.ask(group, zone: zone)
      for (c, answer) in zip(group, theirs) {
        let path = folder.file("case-\(c.seed).ics")
        guard case .success(let oracle) = answer else {
          if case .failure(let message) = answer {
            Issue.record("case \(c.seed): the oracle failed: \(message)")
          }
          continue
        }
        let mine = ours.filter {
          $0.file == path && ($0.fireDate ?? c.from) >= c.from && ($0.fireDate ?? c.from) < c.to
        }
        // Alarms of all-day items and of arithmetic across a zone change are not compared.
        let allDay = Set(oracle.filter(\.allDay).map(\.uid) + mine.filter(\.allDay).map(\.uid))
        var skip = allDay
        for alarm in mine + oracle.filter({ !$0.allDay }) where c.nearChange(alarm) { skip.insert(alarm.uid) }
        excludedAllDay += (mine + oracle).filter { allDay.contains($0.uid) }.count
        excludedNearChange +=
          (mine + oracle).filter { skip.contains($0.uid) && !allDay.contains($0.uid) }.count
        let expected = oracle.filter { !skip.contains($0.uid) }.map(\.key).sorted()
        let actual = mine.filter { !skip.contains($0.uid) }.map(\.key).sorted()
        // Then they agree, instant for instant
        if expected != actual {
          let missing = Set(expected).subtracting(actual).sorted().prefix(3)
          let extra = Set(actual).subtracting(expected).sorted().prefix(3)
          Issue.record(
            "case \(c.seed) (zone \(zone), NOTIFY_ICAL_ORACLE_SEED=\(c.seed) NOTIFY_ICAL_ORACLE_CASES=1): oracle \(expected.count), notify \(actual.count); only the oracle's: \(Array(missing)); only notify's: \(Array(extra))\n\(c.text)"
          )
          continue
        }
        compared += expected.count
        if !expected.isEmpty { calendarsWithAlarms += 1 }
      }
    }
    print(
      "ical oracle: \(compared) alarm instants of \(cases.count) calendars (\(calendarsWithAlarms) with some in their window) agreed with recurring-ical-events (first seed \(Self.firstSeed)); not compared: \(excludedAllDay) of all-day items, \(excludedNearChange) near a zone change"
    )
    // And the comparison is not empty
    #expect(compared > cases.count)
  }
}

/// One alarm instant as either side lists it.
struct ListedAlarm: Hashable {
  var file: String
  var uid: String
  var recurrenceID: String?
  var fireDate: String?
  var action: String
  var summary: String?
  var allDay: Bool

  var key: String { "\(uid) \(recurrenceID ?? "-") \(fireDate ?? "-") \(action) \(summary ?? "-")" }

  init(_ value: JSONValue, file: String = "") throws {
    guard case .object(let members) = value else { throw ICalOracleError("not an object: \(value)") }
    func text(_ key: String) -> String? {
      if case .string(let s)? = members[key] { return s }
      return nil
    }
    self.file = text("file") ?? file
    uid = text("uid") ?? ""
    recurrenceID = text("recurrenceId")
    fireDate = text("fireDate")
    action = text("action") ?? ""
    summary = text("summary")
    if case .bool(let b)? = members["allDay"] { allDay = b } else { allDay = false }
  }
}

struct ICalOracleError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// The oracle's interpreter and script.
enum ICalOracle {
  static let python =
    ProcessInfo.processInfo.environment["NOTIFY_ICAL_ORACLE_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
    ?? "/var/cache/notify-ci/ical-oracle/bin/python"
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/ical_oracle.py").path

  static let skipReason: Comment =
    "needs recurring-ical-events and icalendar in the venv bash .ci/install-packages makes (or NOTIFY_ICAL_ORACLE_PYTHON)"

  static let isUsable: Bool = {
    guard CommandRunner.isRegularExecutable(python) else {
      print("skipping the recurring-ical-events oracle: no \(python)")
      return false
    }
    let probe = try? CommandRunner(executable: python).run(
      ["-c", "import icalendar, recurring_ical_events"], timeout: 60)
    if probe?.status != 0 { print("skipping the recurring-ical-events oracle: \(probe?.stderr ?? "")") }
    return probe?.status == 0
  }()

  static func ask(_ cases: [CalendarCase], zone: String) throws -> [Result<[ListedAlarm], ICalOracleError>] {
    let input = JSONValue.object([
      "cases": .array(
        cases.map { .object(["ics": .string($0.text), "from": .string($0.from), "to": .string($0.to)]) })
    ])
    let result = try CommandRunner(executable: python, environment: ["TZ": zone]).run(
      [script], stdin: input.compactText, timeout: 300)
    guard result.status == 0 else {
      throw ICalOracleError("\(script) exited \(result.status): \(result.stderr)")
    }
    guard case .object(let members) = try JSONValue.parse(result.stdout),
      case .array(let answers)? = members["results"]
    else { throw ICalOracleError("unexpected output: \(result.stdout.prefix(200))") }
    return try answers.map { answer in
      if case .object(let error) = answer, case .string(let message)? = error["error"] {
        return .failure(ICalOracleError(message))
      }
      guard case .array(let list) = answer else { throw ICalOracleError("unexpected answer \(answer)") }
      return .success(try list.map { try ListedAlarm($0) })
    }
  }

  static func preview(paths: [String], from: String, to: String, zone: String) throws -> [ListedAlarm] {
    let result = try CommandRunner(environment: ["TZ": zone]).run(
      ["calendar", "preview"] + paths + ["--from", from, "--to", to, "--json"], timeout: 300)
    guard result.status == 0 else {
      throw ICalOracleError("preview exited \(result.status): \(result.stderr)")
    }
    guard case .array(let list) = try JSONValue.parse(result.stdout) else {
      throw ICalOracleError("preview printed \(result.stdout.prefix(200))")
    }
    return try list.map { try ListedAlarm($0) }
  }
}

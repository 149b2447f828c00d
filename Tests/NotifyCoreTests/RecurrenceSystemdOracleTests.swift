import Foundation
import NotifyTestSupport
import Testing

@testable import NotifyCore

/// Checks calendar rules against systemd's calendar events (`systemd-analyze calendar
/// --iterations=N --base-time=T`), for the rules both can say: weekdays, months, month days,
/// hours and minutes, every day (`FREQ=DAILY` with BY parts, systemd's `Mon,Wed *-MM-DD
/// HH:MM:00 Zone`). systemd skips a wall-clock time a DST gap swallows where SPEC.md §2 moves
/// it forward, and its handling of a repeated hour is its own, so occurrences within three
/// hours of a zone's transition are left out of the comparison on both sides.
@Suite(
  "Calendar rules against systemd's calendar events",
  .enabled(if: SystemdCalendar.isUsable, "needs systemd-analyze calendar with --base-time"))
struct RecurrenceSystemdOracleTests {
  static let caseCount = 40
  static let firstSeed =
    ProcessInfo.processInfo.environment["NOTIFY_RRULE_ORACLE_SEED"].flatMap { UInt64($0) } ?? 20_261_123

  @Test("random day-and-time rules: the same instants as systemd-analyze, away from DST changes")
  func randomRules() throws {
    var compared = 0
    for index in 0..<Self.caseCount {
      let seed = Self.firstSeed &+ UInt64(index)
      var random = SeededGenerator(seed: seed)
      // Given a random rule in a random zone, and a start
      let zoneName = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"]
        .randomElement(using: &random)!
      let zone = NotifyCoreTests.zone(zoneName)
      func some(_ values: [Int], upTo count: Int) -> [Int] {
        Array(
          Set(
            (0..<Int.random(in: 1...count, using: &random)).map { _ in values.randomElement(using: &random)! }
          )
        )
        .sorted()
      }
      let weekdays = Bool.random(using: &random) ? some(Array(0...6), upTo: 4) : []
      let months = Int.random(in: 0..<4, using: &random) == 0 ? some(Array(1...12), upTo: 4) : []
      let days = Int.random(in: 0..<3, using: &random) == 0 ? some(Array(1...31), upTo: 4) : []
      let hours = some([0, 1, 2, 3, 6, 9, 12, 17, 23], upTo: 3)
      let minutes = some([0, 15, 30, 45, 59], upTo: 2)
      let rule = try RecurrenceRule(
        frequency: .daily, bySecond: [0], byMinute: minutes, byHour: hours,
        byDay: weekdays.map { .init(weekday: RecurrenceRule.Weekday(rawValue: $0)!) }, byMonthDay: days,
        byMonth: months)
      // A rule whose parts cannot meet (February 30) is refused before it gets this far
      if rule.contradiction != nil { continue }
      let base = Int64.random(in: 1_577_836_800..<1_893_456_000, using: &random)  // 2020 to 2030
      let start = ZoneResolver.wallClock(for: Date(timeIntervalSince1970: TimeInterval(base)), in: zone)
      let schedule = try Schedule(fireDate: .wallClock(start, .named(zoneName)), rule: rule)
      let codes = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
      func list(_ values: [Int]) -> String {
        values.isEmpty ? "*" : values.map { String(format: "%02d", $0) }.joined(separator: ",")
      }
      let event =
        (weekdays.isEmpty ? "" : weekdays.map { codes[$0] }.joined(separator: ",") + " ")
        + "*-\(list(months))-\(list(days)) \(list(hours)):\(list(minutes)):00 \(zoneName)"
      // When systemd and notify each list the next occurrences after the start
      let wanted = 40
      // The start itself is the base time: systemd lists elapses strictly after it
      let startInstant = ZoneResolver.instant(for: start, in: zone)
      let theirs = try SystemdCalendar.elapses(event, after: startInstant, count: wanted)
      guard let last = theirs.last else {
        Issue.record("seed \(seed): systemd lists nothing for \(event)")
        continue
      }
      var ours: [Int64] = []
      var k = 0
      while let date = schedule.occurrence(k, zones: testZones(zone)),
        Int64(date.timeIntervalSince1970) <= last
      {
        if date > startInstant { ours.append(Int64(date.timeIntervalSince1970)) }
        k += 1
      }
      // Then they agree away from DST changes
      let nearChange = { (instant: Int64) -> Bool in
        let date = Date(timeIntervalSince1970: TimeInterval(instant))
        guard let next = zone.nextTransition(after: date - 3 * 3600) else { return false }
        return abs(next.timeIntervalSince(date)) <= 3 * 3600
      }
      let a = ours.filter { !nearChange($0) }
      let b = theirs.filter { !nearChange($0) }
      #expect(
        a == b,
        "seed \(seed): \(rule.ruleText) from \(start.iso8601) in \(zoneName) (systemd: \(event)): notify \(a.count), systemd \(b.count); first difference \(Array(zip(a, b)).first { $0 != $1 }.map { "\($0)" } ?? "at the end")"
      )
      compared += b.count
    }
    #expect(compared > Self.caseCount * 10)
    print(
      "systemd oracle: \(compared) occurrences of \(Self.caseCount) rules agreed with systemd-analyze calendar"
    )
  }
}

/// Runs `systemd-analyze calendar`.
enum SystemdCalendar {
  static let tool = "/usr/bin/systemd-analyze"

  static let isUsable: Bool = {
    guard FileManager.default.isExecutableFile(atPath: tool) else {
      print("skipping the systemd oracle: \(tool) is missing (Debian: apt-get install systemd)")
      return false
    }
    do {
      let got = try elapses(
        "Mon *-*-* 09:00:00 UTC", after: Date(timeIntervalSince1970: 1_893_456_000), count: 1)
      // 2030-01-01 is a Tuesday: the next Monday 09:00 UTC is 2030-01-07
      guard got == [1_894_006_800] else {
        print("skipping the systemd oracle: it answered \(got) for a known case")
        return false
      }
      return true
    } catch {
      print("skipping the systemd oracle: \(error)")
      return false
    }
  }()

  /// The next `count` elapses of `event` after `base`, as Unix seconds.
  static func elapses(_ event: String, after base: Date, count: Int) throws -> [Int64] {
    let baseText = "@\(Int64(base.timeIntervalSince1970))"
    let result = try CommandRunner(executable: tool, environment: ["TZ": "UTC", "SYSTEMD_COLORS": "0"]).run([
      "calendar", "--iterations=\(count)", "--base-time=\(baseText)", event,
    ])
    guard result.status == 0 else { throw QuietOracleError("systemd-analyze: \(result.stderr)") }
    // Lines such as "    Next elapse: Wed 2030-03-20 08:00:00 UTC" and "       Iter. #2: Mon ..."
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "EEE yyyy-MM-dd HH:mm:ss"
    return result.stdout.split(separator: "\n").compactMap { line in
      guard line.contains("Next elapse:") || line.contains("Iter. #"),
        let colon = line.firstIndex(of: ":")
      else { return nil }
      let text = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        .replacingOccurrences(of: " UTC", with: "")
      return formatter.date(from: text).map { Int64($0.timeIntervalSince1970) }
    }
  }
}

import Foundation
import NotifyTestSupport
import Testing

/// Rule flags that meant something else than they read, lists
/// that reached the store's limits, and durations refused with two exit codes. Each is
/// refused with the spec's exit code, a message naming the flag and the fix, and the
/// store byte for byte as it was. These run the built binary.
@Suite("Rule flags and their limits, end to end", .ownThreads)
struct RuleFlagLimitTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var arguments: [String]
    var status: Int32
    var says: [String]
    var testDescription: String { name }
  }

  /// `count` distinct `--except` times, a day apart from 2027-01-01 09:00.
  static func exceptTimes(_ count: Int) -> [String] {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let start = calendar.date(from: DateComponents(year: 2027, month: 1, day: 1))!
    return (0..<count).flatMap { offset -> [String] in
      let day = calendar.dateComponents(
        [.year, .month, .day], from: calendar.date(byAdding: .day, value: offset, to: start)!)
      return ["--except", String(format: "%04d-%02d-%02dT09:00", day.year!, day.month!, day.day!)]
    }
  }

  static let cases: [Case] = [
    Case(
      name: "--on mixing a weekday and a month day",
      arguments: ["schedule", "--at", "09:00", "--on", "mon,15", "x"], status: 64,
      says: ["--on mon", "--on 15", "two notifications", "--rrule 'FREQ=MONTHLY;BYMONTHDAY=15;BYDAY=MO'"]),
    Case(
      name: "--on mixing an nth weekday and the last day",
      arguments: ["schedule", "--at", "09:00", "--on", "2nd-tue,last", "x"], status: 64,
      says: ["--on 2nd-tue", "--on last", "--rrule 'FREQ=MONTHLY;BYMONTHDAY=-1;BYDAY=2TU'"]),
    Case(
      name: "700 --except times",
      arguments: ["schedule", "--at", "09:00", "--every", "1d"] + exceptTimes(700) + ["x"], status: 65,
      says: ["--except", "700", "at most"]),
    Case(
      name: "BYSECOND with two seconds",
      arguments: ["schedule", "--at", "09:00", "--rrule", "FREQ=MINUTELY;BYSECOND=0,30", "x"], status: 65,
      says: ["BYSECOND", "once a minute"]),
    Case(
      name: "negative --snooze", arguments: ["schedule", "--in", "1h", "--snooze", "-5m", "x"], status: 65,
      says: ["--snooze", "negative"]),
    Case(
      name: "negative --budget", arguments: ["fire-due", "--sink", "stdout", "--budget", "-5s"], status: 65,
      says: ["--budget", "negative"]),
    Case(
      name: "negative --misfire-grace", arguments: ["daemon", "--sink", "stdout", "--misfire-grace", "-5m"],
      status: 65, says: ["--misfire-grace", "negative"]),
    Case(
      name: "negative quiet --for", arguments: ["quiet", "on", "--for", "-1h"], status: 65,
      says: ["--for", "negative"]),
  ]

  @Test("is refused with the spec's exit code, naming the flag, and the store untouched", arguments: cases)
  func refused(_ c: Case) throws {
    // Given a store that already holds one notification
    let store = try SeededStore()
    // When the flag is given
    let result = try store.notify.run(c.arguments)
    // Then the exit code is the spec's, the message names the flag and the fix
    #expect(result.status == c.status, "stderr: \(result.stderr)")
    for text in c.says {
      #expect(result.stderr.contains(text), "missing '\(text)' in stderr: \(result.stderr)")
    }
    #expect(result.stderr.contains("notify: error:"), "stderr: \(result.stderr)")
    #expect(!result.stderr.contains("CHECK"), "stderr: \(result.stderr)")
    // And the store is byte for byte the same
    #expect(store.isUntouched)
  }

  @Test("--on with only weekdays and nth weekdays is still a union")
  func weekdaysStayAUnion() throws {
    let folder = TemporaryFolder()
    let notify = CommandRunner(environment: ["NOTIFY_DB": folder.file("notify.db"), "NOTIFY_APP": "tests"])
    let result = try notify.run(["schedule", "--at", "09:00", "--on", "mon,2nd-tue", "--json", "x"])
    #expect(result.status == 0, "stderr: \(result.stderr)")
    #expect(result.stdout.contains("FREQ=MONTHLY;BYDAY=MO,2TU"), "stdout: \(result.stdout)")
  }
}

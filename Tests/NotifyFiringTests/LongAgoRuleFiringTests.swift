import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// A rule that starts long ago (issue 25 item 1) holds no firer: `fire-due` jumps to now
/// rather than walking 535 million minutes, so another app's notification is delivered, and
/// `show --upcoming` answers with the next minutes. No timing is asserted: a walk from the
/// start would run past the runner's timeout.
@Suite(.ownThreads)
struct LongAgoRuleFiringTests {
  func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

  @Test("--at 1000-01-01T00:00 --every 1m, then another app's one-shot due in 2 s: fire-due delivers both")
  func minutelyFromYear1000() throws {
    // Given a minutely rule from year 1000 (UTC wall-clock times) of app "old"
    let f = try FiringFixture()
    let environment = ["TZ": "UTC", "NOTIFY_APP": "old"]
    let scheduled = try notify(
      ["schedule", "--id", "ancient", "--at", "1000-01-01T00:00", "--every", "1m", "--title", "minutely"],
      db: f.path, environment: environment)
    #expect(scheduled.status == 0, "\(scheduled.stderr)")
    // And app "test"'s one-shot due in 2 s
    try f.schedule("soon", at: Date() + 2)
    Thread.sleep(forTimeInterval: 2.2)
    // When fire-due runs
    let before = Date().timeIntervalSince1970
    let run = try notify(["fire-due", "--sink", "stdout"], db: f.path, environment: environment)
    // Then it exits 0 having delivered the one-shot, and the rule's latest minute, numbered
    // from year 1000 (1-based, SPEC.md §5)
    #expect(run.status == 0, "\(run.stderr)")
    let delivered = run.stdout.split(separator: "\n").compactMap { Delivered(line: String($0)) }
    #expect(delivered.contains { $0.app == "test" && $0.id == "soon" }, "\(run.stdout)")
    let ancient = try #require(delivered.first { $0.id == "ancient" }, "\(run.stdout)")
    let line = try #require(try json(ancient.line) as? [String: Any])
    let fireDate = try #require((line["fireDate"] as? String).flatMap(RFC3339.date(from:)))
    let start: Int64 = -30_610_224_000  // 1000-01-01T00:00:00Z (proleptic Gregorian)
    let minute = Int64(fireDate.timeIntervalSince1970)
    #expect(minute % 60 == 0 && minute <= Int64(before) && minute > Int64(before) - 120)
    #expect(ancient.occurrence == Int((minute - start) / 60) + 1)
    // And show --upcoming 3 lists the three minutes after it
    let show = try notify(
      ["show", "ancient", "--upcoming", "3", "--json"], db: f.path, environment: environment)
    #expect(show.status == 0, "\(show.stderr)")
    let item = try #require(try json(show.stdout) as? [String: Any], "\(show.stderr)")
    let upcoming = (item["upcoming"] as? [String] ?? []).compactMap(RFC3339.date(from:))
    #expect(upcoming.map { Int64($0.timeIntervalSince1970) } == [minute + 60, minute + 120, minute + 180])
  }
}

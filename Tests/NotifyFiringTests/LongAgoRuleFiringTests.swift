import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// A rule that starts long ago holds no firer: the daemon, an app firing
/// in process and `fire-due` jump to now rather than walk 535 million minutes, so another
/// app's notification is delivered, and `show --upcoming` answers with the next minutes.
/// No timing is asserted: a walk from the start would run past the runner's timeout.
@Suite(.ownThreads)
struct LongAgoRuleFiringTests {
  func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

  @Test(
    "--at 1000-01-01T00:00 --every 1m, then a one-shot due in 2 s: the firer delivers both",
    arguments: StdoutFirer.allCases)
  func minutelyFromYear1000(firer: StdoutFirer) throws {
    // Given a firer, and a minutely rule from year 1000 (UTC wall-clock times) of app "old"
    // (of app "test" for an app firing in process: it fires its own)
    let f = try FiringFixture()
    let environment = ["TZ": "UTC", "NOTIFY_APP": firer == .app ? "test" : "old"]
    let firing = try StdoutFiring(f, firer, environment: environment)
    let scheduled = try notify(
      ["schedule", "--id", "ancient", "--at", "1000-01-01T00:00", "--every", "1m", "--title", "minutely"],
      db: f.path, environment: environment)
    #expect(scheduled.status == 0, "\(scheduled.stderr)")
    // And app "test"'s one-shot due in 2 s
    try f.schedule("soon", at: Date() + 2)
    if firer == .fireDue { Thread.sleep(forTimeInterval: 2.2) }
    // When the firer acts (fire-due runs once; a resident firer acts by itself)
    let before = Date().timeIntervalSince1970
    try firing.act()
    // Then it has delivered the one-shot, and the rule's latest minute, numbered from year
    // 1000 (1-based, SPEC.md §5)
    #expect(
      waitUntil(timeout: 30) { firing.printed.contains { $0.app == "test" && $0.id == "soon" } },
      "\(firing.log)")
    let ancient = try #require(firing.printed.first { $0.id == "ancient" }, "\(firing.log)")
    let line = try #require(try json(ancient.line) as? [String: Any])
    let fireDate = try #require((line["fireDate"] as? String).flatMap(RFC3339.date(from:)))
    let start: Int64 = -30_610_224_000  // 1000-01-01T00:00:00Z (proleptic Gregorian)
    let minute = Int64(fireDate.timeIntervalSince1970)
    #expect(minute % 60 == 0 && minute <= Int64(before) + 1 && minute > Int64(before) - 120)
    #expect(ancient.occurrence == Int((minute - start) / 60) + 1)
    // And show --upcoming 3 lists the minutes after the one delivered last
    firing.stop()
    let last = firing.printed.filter { $0.id == "ancient" }.last ?? ancient
    let lastMinute = minute + Int64(last.occurrence - ancient.occurrence) * 60
    let show = try notify(
      ["show", "ancient", "--upcoming", "3", "--json"], db: f.path, environment: environment)
    #expect(show.status == 0, "\(show.stderr)")
    let item = try #require(try json(show.stdout) as? [String: Any], "\(show.stderr)")
    let upcoming = (item["upcoming"] as? [String] ?? []).compactMap(RFC3339.date(from:))
    // (a minute boundary passed since: show lists that minute first, as the firer will)
    let listed = upcoming.map { Int64($0.timeIntervalSince1970) }
    #expect(listed.count == 3 && listed.first.map { $0 > lastMinute && $0 <= lastMinute + 120 } == true)
    #expect(listed == listed.first.map { [$0, $0 + 60, $0 + 120] })
  }

  @Test(
    "--at 1000-01-01T09:00 --on last-fri is accepted (counted by 400-year cycles); one daily by weekday from 1700 is refused (65)"
  )
  func variableRulesFromLongAgo() throws {
    // Given a store, in UTC
    let f = try FiringFixture()
    let environment = ["TZ": "UTC", "NOTIFY_APP": "old"]
    // When last Fridays from year 1000 are scheduled
    let scheduled = try notify(
      ["schedule", "--id", "fridays", "--at", "1000-01-01T09:00", "--on", "last-fri", "--title", "t"],
      db: f.path,
      environment: environment)
    // Then they are accepted, and show --upcoming lists last Fridays of months at 09:00
    #expect(scheduled.status == 0, "\(scheduled.stderr)")
    let show = try notify(
      ["show", "fridays", "--upcoming", "3", "--json"], db: f.path, environment: environment)
    let item = try #require(try json(show.stdout) as? [String: Any], "\(show.stderr)")
    let upcoming = (item["upcoming"] as? [String] ?? []).compactMap(RFC3339.date(from:))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    #expect(upcoming.count == 3)
    for date in upcoming {
      let parts = calendar.dateComponents([.weekday, .hour, .month], from: date)
      let weekLater = calendar.dateComponents([.month], from: date + 7 * 86_400)
      #expect(parts.weekday == 6 && parts.hour == 9 && weekLater.month != parts.month, "\(date)")
    }
    // And a DAILY rule filtered by weekday from 1700 (119,000 days: its times are walked) is
    // refused, naming the part
    let refused = try notify(
      [
        "schedule", "--id", "old", "--at", "1700-01-01T09:00", "--rrule", "FREQ=DAILY;BYDAY=MO,FR", "--title",
        "t",
      ],
      db: f.path, environment: environment)
    #expect(refused.status == 65)
    #expect(
      refused.stderr.contains("'BYDAY=MO,FR'") && refused.stderr.contains("100,000"), "\(refused.stderr)")
  }
}

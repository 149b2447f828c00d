import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

@Suite("notify fire-due end to end", .serialized, .ownThreads)
struct FireDueEndToEndTests {
  @Test("past-due notifications are delivered once with late: true; a repeat once, then it moves on")
  func lateDelivery() throws {
    // Given three overdue one-shots and a minutely repeat overdue by ten minutes
    let f = try FiringFixture()
    for i in 0..<3 { try f.schedule("old\(i)", at: Date() - 3600 + Double(i)) }
    try f.schedule("rep", at: Date() - 600 + 30, repeat: .minute)
    // When fire-due runs
    let run = try ChildProcess.notify(
      ["fire-due", "--sink", "stdout"], db: f.path, folder: f.folder, name: "f1")
    // Then it exits 0 having delivered each once, late, and the repeat as one coalesced occurrence
    #expect(run.waitExit() == 0, "\(run.stderr)")
    let lines = run.deliveries
    #expect(lines.map(\.id) == ["old0", "old1", "old2", "rep"])
    #expect(lines.allSatisfy { $0.late })
    #expect(lines.last?.occurrence == 10)
    // And a second run right after finds nothing to do; the repeat waits for its next minute
    let again = try ChildProcess.notify(
      ["fire-due", "--sink", "stdout"], db: f.path, folder: f.folder, name: "f2")
    #expect(again.waitExit() == 0)
    #expect(again.deliveries.isEmpty)
    #expect(try f.store.pending(app: nil).map(\.notification.id) == ["rep"])
  }

  @Test("a rule anchored in the past delivers one coalesced late occurrence, once, then waits for the next")
  func lateRule() throws {
    // Given a daily rule whose anchor is ten days and a minute ago
    let f = try FiringFixture()
    let anchor = Date() - 10 * 86_400 - 60
    let notification = LocalNotification(
      id: "daily", app: "test",
      schedule: try Schedule(fireDate: .instant(anchor), rule: RecurrenceRule(parsing: "FREQ=DAILY")),
      title: "title daily", createdAt: anchor)
    try f.store.schedule(notification, zones: testZones(f.utc))
    // When fire-due runs
    let run = try ChildProcess.notify(
      ["fire-due", "--sink", "stdout"], db: f.path, folder: f.folder, name: "f1")
    // Then it delivers the rule's latest past occurrence (the 11th), late, standing for the others
    #expect(run.waitExit() == 0, "\(run.stderr)")
    #expect(run.deliveries.map(\.id) == ["daily"])
    #expect(run.deliveries.first?.occurrence == 11)
    #expect(run.deliveries.first?.late == true)
    // And a second run delivers nothing; the rule waits for tomorrow's occurrence
    let again = try ChildProcess.notify(
      ["fire-due", "--sink", "stdout"], db: f.path, folder: f.folder, name: "f2")
    #expect(again.waitExit() == 0)
    #expect(again.deliveries.isEmpty)
    let pending = try #require(try f.store.pending(app: nil).first)
    let next = try #require(pending.nextFireDate)
    #expect(abs(next.timeIntervalSince(anchor + 11 * 86_400)) < 0.001)
    #expect(pending.nextOccurrence == 11)
  }

  @Test("a tiny budget leaves the rest pending and says so; the next run delivers it")
  func tinyBudget() throws {
    // Given 150 overdue notifications in three apps
    let f = try FiringFixture()
    var expected: Set<String> = []
    for i in 0..<150 {
      let app = "app\(i % 3)"
      try f.schedule("n\(i)", at: Date() - 100 + Double(i) * 0.1, app: app)
      expected.insert("\(app)/n\(i)#1")
    }
    // When fire-due runs with a 1 ms budget
    let first = try ChildProcess.notify(
      ["fire-due", "--sink", "stdout", "--budget", "1ms"], db: f.path, folder: f.folder, name: "f1")
    #expect(first.waitExit() == 0, "\(first.stderr)")
    // Then it stops early, names how many are left, and those are still due
    let delivered = first.deliveries.count
    let left = 150 - delivered
    #expect(left > 0)
    #expect(first.stderr.contains("left \(left) for the next run"), "\(first.stderr)")
    #expect(try f.store.dueCount(now: Date()) == left)
    // When it runs again with the default budget
    let second = try ChildProcess.notify(
      ["fire-due", "--sink", "stdout"], db: f.path, folder: f.folder, name: "f2")
    #expect(second.waitExit() == 0, "\(second.stderr)")
    // Then together they delivered each exactly once
    let all = (first.deliveries + second.deliveries).map(\.key)
    #expect(all.count == 150)
    #expect(Set(all) == expected)
  }

  @Test("a bad --budget is a usage error naming the option", arguments: ["0s", "soon", "5x"])
  func badBudget(_ text: String) throws {
    let f = try FiringFixture()
    let result = try notify(["fire-due", "--sink", "stdout", "--budget", text], db: f.path)
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("notify: error: --budget"), "\(result.stderr)")
  }
}

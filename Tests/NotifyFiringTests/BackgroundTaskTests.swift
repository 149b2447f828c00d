import Foundation
import NotifyCore
import NotifyTestSupport
import Synchronization
import Testing

@Suite("BackgroundTask: a budget with an expiration handler", .ownThreads)
struct BackgroundTaskTests {
  let start = Date(timeIntervalSince1970: 1_800_000_000)

  @Test(
    "the handler runs min(2 s, 10 %) before the budget ends",
    arguments: [(budget: 25.0, margin: 2.0), (budget: 10.0, margin: 1.0), (budget: 0.5, margin: 0.05)])
  func margin(budget: Double, margin: Double) {
    // Given a task with this budget
    let clock = ManualClock(now: start)
    let calls = Mutex(0)
    let task = BackgroundTask.begin(named: "t", budget: budget, clock: clock) { calls.withLock { $0 += 1 } }
    // When the clock stands just before the expiration instant
    clock.advance(by: budget - margin - 0.001)
    // Then the handler has not run
    #expect(!task.checkExpiration())
    #expect(calls.withLock { $0 } == 0)
    #expect(abs(task.timeRemaining - (margin + 0.001)) < 1e-6)
    // When it reaches it
    clock.advance(by: 0.001)
    // Then the handler runs, once
    #expect(task.checkExpiration())
    #expect(task.checkExpiration())
    #expect(calls.withLock { $0 } == 1)
    #expect(task.isExpired)
  }

  @Test("time remaining counts down and never goes negative")
  func timeRemaining() {
    let clock = ManualClock(now: start)
    let task = BackgroundTask.begin(named: "t", budget: 10, clock: clock) {}
    #expect(task.timeRemaining == 10)
    clock.advance(by: 4)
    #expect(task.timeRemaining == 6)
    clock.advance(by: 100)
    #expect(task.timeRemaining == 0)
  }

  @Test("after end() the handler never runs")
  func endCancels() {
    let clock = ManualClock(now: start)
    let calls = Mutex(0)
    let task = BackgroundTask.begin(named: "t", budget: 1, clock: clock) { calls.withLock { $0 += 1 } }
    task.end()
    clock.advance(by: 5)
    #expect(!task.checkExpiration())
    #expect(task.hasEnded)
    #expect(calls.withLock { $0 } == 0)
  }

  @Test("a zero budget expires at the first check")
  func zeroBudget() {
    let task = BackgroundTask.begin(named: "t", budget: 0, clock: ManualClock(now: start)) {}
    #expect(task.checkExpiration())
  }

  @Test("with a dispatch trigger the handler runs on its own while the worker is busy")
  func dispatchTrigger() async {
    // Given a real-time task of 200 ms whose worker never checks
    let fired = Mutex<Date?>(nil)
    let began = Date()
    let task = BackgroundTask.begin(named: "t", budget: 0.2, trigger: .dispatch) {
      fired.withLock { $0 = Date() }
    }
    // When we wait (polling with a deadline)
    _ = await eventually(timeout: 30) { fired.withLock { $0 } != nil }
    // Then the handler ran by itself, not before 180 ms (budget minus 10 %); how soon
    // after is the timer's business, and a loaded machine may delay it
    let at = try! #require(fired.withLock { $0 })
    #expect(at.timeIntervalSince(began) >= 0.18)
    task.end()
  }
}

import Foundation
import NotifyTestSupport
import Testing

/// The `async` API must not block a thread of the cooperative pool (`BlockingCallQueue`).
/// The check runs in a process of its own (`pool-check-fixture`): in the test process the
/// pool is shared with every other test of a parallel run, some of which block it.
@Suite(.ownThreads)
struct CooperativePoolTests {
  let folder = TemporaryFolder(prefix: "notify-pool")

  @Test func callsBlockedInTheSinkLeaveThePoolFree() throws {
    // Given a process whose cooperative pool has one thread per core, no more
    let check = CommandRunner(
      executable: CommandRunner.product("pool-check-fixture"),
      environment: ["LIBDISPATCH_COOPERATIVE_POOL_STRICT": "1"])
    // When it holds more `add` calls blocked in their sinks than the pool has threads
    let result = try check.run([folder.file("notify.db")], timeout: 150)
    // Then every call was blocked at once, an unrelated task ran meanwhile, all were
    // delivered, and none ran inside a task (on a thread of the pool)
    let cores = ProcessInfo.processInfo.activeProcessorCount
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stdout.contains("entered=\(cores + 2) ran=true delivered=\(cores + 2) outside-tasks=true"),
      "\(result.stdout)")
  }
}

/// One owner serves the app's tasks and its firing service (`SinkOwner`): presents sent
/// while the firing loop is busy wait as jobs, not on threads of the pool.
@Suite(.ownThreads)
struct OwnerPoolTests {
  let folder = TemporaryFolder(prefix: "notify-owner-pool")

  @Test func presentsFromManyTasksWhileFiringLoseNothingAndLeaveThePoolFree() throws {
    // Given a process whose cooperative pool has one thread per core, whose firing service
    // is held in the sink by a notification it fires
    let check = CommandRunner(
      executable: CommandRunner.product("pool-check-fixture"),
      environment: ["LIBDISPATCH_COOPERATIVE_POOL_STRICT": "1"])
    // When more tasks than the pool has threads present at once
    let result = try check.run([folder.file("notify.db"), "present-while-firing"], timeout: 150)
    // Then every task got to its call, an unrelated task ran, and every notification
    // reached the sink once, one at a time, never from inside a task
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let expected = 8 + cores + 2
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(
      result.stdout.contains(
        "started=\(cores + 2) ran=true delivered=\(expected) of=\(expected) once=true serial=true outside-tasks=true"
      ),
      "\(result.stdout)")
  }
}

import Foundation
import Glibc
import NotifyCore
import NotifyFiring
import NotifyStore
import NotifyTestSupport
import Synchronization
import Testing

/// `SinkOwner`, the one executor of an app's sinks and firer: its jobs run one at a time,
/// on the firing loop's thread while a loop runs with it, and a synchronous caller runs
/// inline where that cannot deadlock.
@Suite("SinkOwner", .ownThreads, .timeLimit(.minutes(2)))
struct SinkOwnerTests {
  /// Records which jobs ran and whether two ever overlapped.
  final class Ledger: Sendable {
    private struct Entries {
      var ran: [Int] = []
      var inside = 0
      var overlapped = false
    }
    private let entries = Mutex(Entries())

    func enter() {
      entries.withLock {
        if $0.inside > 0 { $0.overlapped = true }; $0.inside += 1
      }
    }
    func leave(_ index: Int) {
      entries.withLock {
        $0.inside -= 1; $0.ran.append(index)
      }
    }
    var ran: [Int] { entries.withLock { $0.ran } }
    var overlapped: Bool { entries.withLock { $0.overlapped } }
  }

  @Test func jobsFromManyTasksRunOneAtATimeAndEachOnce() async {
    // Given an owner with no loop
    let owner = SinkOwner(label: "test.owner")
    let ledger = Ledger()
    // When 200 tasks send it a job each, at once
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<200 {
        group.addTask {
          await owner.run {
            ledger.enter()
            usleep(100)
            ledger.leave(index)
          }
        }
      }
    }
    // Then every job ran once, and never two at a time
    #expect(ledger.ran.sorted() == Array(0..<200))
    #expect(!ledger.overlapped)
  }

  @Test func aBlockingCallRunsInlineWhenIdleAndInsideAJob() async {
    let owner = SinkOwner(label: "test.owner")
    // Given an idle owner: a synchronous caller runs on its own thread, as the owner
    let caller = pthread_self()
    let (thread, current) = owner.runBlocking { (pthread_self(), owner.isCurrent) }
    #expect(pthread_equal(thread, caller) != 0)
    #expect(current)
    #expect(!owner.isCurrent)
    // When a job calls the owner synchronously (the async `add` presents through the
    // synchronous `present`), it runs inline instead of waiting for itself
    let nested = await owner.run { owner.runBlocking { pthread_self() } == pthread_self() }
    #expect(nested)
  }

  @Test func whileALoopRunsWithTheOwnerJobsRunOnItsThreadThenOnTheQueueAgain() async throws {
    // Given a firing loop run with the owner
    let f = try FiringFixture()
    let owner = SinkOwner(label: "test.owner")
    let firer = Firer(
      store: try f.openAgain(), sink: RecordingSink(), identity: .current, sounds: UncheckedSounds())
    let loopThread = Mutex<pthread_t?>(nil)
    let loop = FiringLoop(
      firer: firer, configuration: .init(storePath: f.path, handlesSignals: false), owner: owner,
      hooks: .init(onWake: { _ in loopThread.withLock { $0 = pthread_self() } }))
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await loop.run() }
      #expect(await eventually(timeout: 60) { loop.isReady })
      // When a task sends the owner a job
      let ran = await owner.run { pthread_self() }
      // Then it runs on the loop's thread
      let thread = try #require(loopThread.withLock { $0 })
      #expect(pthread_equal(ran, thread) != 0)
      // When the loop stops, a job still runs (on the owner's queue)
      group.cancelAll()
      try await group.waitForAll()
    }
    #expect(await owner.run { 42 } == 42)
  }
}

import Foundation
import NotifyCore
import NotifyFiring
import NotifyStore
import NotifyTestSupport
import Testing

/// The daemon embedded in a process, as the chat client runs it: `run()` on its own
/// thread from a task, stopped by cancelling the task.
@Suite("FiringLoop in-process", .ownThreads)
struct InProcessDaemonTests {
  @Test(
    "a change committed by another connection is delivered without waiting for the timer; cancelling stops it"
  )
  func reactsToStoreChanges() async throws {
    // Given a daemon sleeping on a timer an hour away
    let f = try FiringFixture()
    try f.schedule("far", at: Date() + 3600)
    let sink = RecordingSink()
    let firer = Firer(store: try f.openAgain(), sink: sink, identity: .current, sounds: UncheckedSounds())
    let daemon = FiringLoop(firer: firer, configuration: .init(storePath: f.path, handlesSignals: false))
    // (a child task, so that it runs on this test's own threads: an unstructured `Task`
    // would wait for the cooperative pool, which other tests' waits may hold)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await daemon.run() }
      #expect(await eventually(timeout: 60) { daemon.isReady })
      // When another connection schedules one that is already due
      let committed = Date()
      try f.schedule("now", at: committed - 0.001, createdAt: committed)
      // Then it is handed over long before the timer armed for the hour-away one would
      // have woken the daemon: the store's change re-armed it (how fast is for the
      // benchmarks, not for a test on a busy machine)
      #expect(await eventually(timeout: 60) { !sink.deliveries.isEmpty })
      let delivery = try #require(sink.deliveries.first)
      #expect(delivery.notification.id == "now")
      #expect(delivery.deliveredAt >= committed)
      // When the task is cancelled
      group.cancelAll()
      // Then run() returns and the far one is still pending
      try await group.waitForAll()
    }
    #expect(try f.store.pending(app: nil).map(\.notification.id) == ["far"])
  }
}

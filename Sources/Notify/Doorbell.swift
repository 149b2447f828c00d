import Foundation

/// A wake-up signal for one waiter: `ring()` from any thread ends the current or the next
/// `wait(upTo:)`. Rings while nobody waits are kept (coalesced into one), so a change made
/// just before the waiter goes to sleep is not lost.
final class Doorbell: @unchecked Sendable {
  private let lock = NSLock()
  private var rung = false
  private var waiter: CheckedContinuation<Bool, Never>?

  /// Wakes the waiter, or the next one.
  func ring() {
    let waiting: CheckedContinuation<Bool, Never>? = lock.withLock {
      guard let waiter else {
        rung = true
        return nil
      }
      self.waiter = nil
      return waiter
    }
    waiting?.resume(returning: true)
  }

  /// Suspends until rung, `timeout` passes, or the task is cancelled. Returns true when rung.
  @discardableResult
  func wait(upTo timeout: Duration) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
      group.addTask { await self.waitForRing() }
      group.addTask {
        try? await Task.sleep(for: timeout)
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      // If the sleep won, the ring task is cancelled and resumes itself.
      return first
    }
  }

  private func waitForRing() async -> Bool {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let answer: Bool? = lock.withLock {
          if rung {
            rung = false
            return true
          }
          // Cancellation is flagged before the handler runs, so checking it under the lock
          // closes the gap between the handler finding no waiter and the waiter arriving.
          if Task.isCancelled { return false }
          waiter = continuation
          return nil
        }
        if let answer { continuation.resume(returning: answer) }
      }
    } onCancel: {
      let waiting: CheckedContinuation<Bool, Never>? = lock.withLock {
        defer { waiter = nil }
        return waiter
      }
      waiting?.resume(returning: false)
    }
  }
}

import Foundation
import Testing

/// Runs each test of a suite (or one test) on threads of its own instead of Swift's
/// cooperative pool.
///
/// The pool has one thread per core: two on CI. End-to-end tests block while they wait:
/// for a child process, between polls, in SQLite's busy timeout. On the pool, two of them
/// at once starve every other test's tasks. A daemon task cannot start, and a `Task.sleep`
/// resumes a minute late. Under this trait every job of the test runs on a thread started
/// for it, so its waits hold up nobody else. The test's task-locals, and with them
/// `#expect`, stay with it.
public struct OwnThreadsTrait: SuiteTrait, TestTrait, TestScoping {
  public var isRecursive: Bool { true }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
  }
}

extension Trait where Self == OwnThreadsTrait {
  /// Runs the test on threads of its own: for tests that block while they wait.
  public static var ownThreads: Self { OwnThreadsTrait() }
}

/// A task executor that runs each job on a new thread. A task runs one job at a time, so
/// its jobs never overlap; child tasks get threads of their own.
final class ThreadPerJobExecutor: TaskExecutor {
  static let shared = ThreadPerJobExecutor()

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    Thread { job.runSynchronously(on: executor) }.start()
  }
}

import Dispatch

/// A task executor that runs every job on one serial Dispatch queue: for a task that
/// makes blocking calls (presenting can wait up to the desktop sink's call timeout on a
/// hung server), so that it holds a thread of its own and never one of Swift's
/// cooperative pool, where the IRC reader's jobs run.
///
/// ```swift
/// group.addTask(executorPreference: SerialQueueExecutor(label: "presenter")) { … }
/// ```
final class SerialQueueExecutor: TaskExecutor {
  private let queue: DispatchQueue

  init(label: String) {
    queue = DispatchQueue(label: label)
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}

import Dispatch
import Glibc
import NotifyCore
import Synchronization

/// The one owner of a process's sinks, their bus connection and the firer that delivers
/// through them where several threads reach them: an app calls `present` from its tasks
/// while its firing loop runs. Other threads send it jobs (closures); it runs them one at a
/// time, in the order they came, on one executor:
///
/// - the firing loop's sd-event thread while a loop runs with this owner
///   (`FiringLoop.run()`): a job wakes the loop through its `Wakeup` pipe and runs there
///   between two dispatches, so it never overlaps a timer's hand-overs or the desktop
///   sink's bus callbacks;
/// - otherwise a serial dispatch queue of its own, whose work runs on libdispatch's worker
///   threads (never on Swift's cooperative pool), one job at a time: an app that only
///   presents, `deliverDueNotifications`.
///
/// Nothing is held while a job runs: a job sent while another runs waits in the list, not
/// on a lock. A task awaits its job's result in a continuation (`run`), so a store busy or
/// a notification server hung for 5 s never blocks a cooperative thread. A synchronous
/// caller (the CLI, one thread of use) runs its job inline when the owner is idle
/// (`runBlocking`), with no hop; only while the owner is busy does it wait for its turn.
///
/// The daemon has one for its loop's thread: its D-Bus service answers on a thread of its
/// own (`LoopThread`) and sends `Present` here.
public final class SinkOwner: Sendable {
  /// A job sent to the owner.
  typealias Job = @Sendable () -> Void

  private struct State {
    /// Jobs not started yet, oldest first.
    var jobs: [Job] = []
    /// The loop that runs the jobs while it runs (`attach`), woken through its pipe.
    var loop: Wakeup?
    /// The thread running jobs now (a drain on `queue`, a loop, or a caller inline).
    var runner: pthread_t?
    /// True from the moment a drain is put on `queue` until it finds no job left.
    var draining = false
  }

  private let state = Mutex(State())
  private let queue: DispatchQueue

  /// Creates an owner; `label` names its queue (`notify.owner.APP`).
  public init(label: String) {
    queue = DispatchQueue(label: label)
  }

  /// True when the calling thread is the one running the owner's jobs now.
  public var isCurrent: Bool {
    let me = pthread_self()
    return state.withLock { state in state.runner.map { pthread_equal($0, me) != 0 } ?? false }
  }

  /// Runs `body` on the owner and returns its result; the calling task is suspended, not
  /// blocked, until it ran.
  public func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
    let result: Result<T, E> = await withCheckedContinuation { continuation in
      submit { continuation.resume(returning: Result { () throws(E) -> T in try body() }) }
    }
    return try result.get()
  }

  /// Runs `body` on the owner for a synchronous caller, and returns its result: inline when
  /// the calling thread is the owner already or the owner is idle (it becomes the owner
  /// meanwhile); else the calling thread waits for the job's turn. Not for a task (use
  /// `run`): that wait would hold a cooperative thread.
  public func runBlocking<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) throws(E) -> T
  {
    switch enter() {
    case .already: return try body()
    case .acquired:
      defer { release() }
      return try body()
    case .busy:
      // Safe: written by the job before `signal()`, read after `wait()`.
      nonisolated(unsafe) var result: Result<T, E>?
      let done = DispatchSemaphore(value: 0)
      submit {
        result = Result { () throws(E) -> T in try body() }
        done.signal()
      }
      done.wait()
      return try result!.get()
    }
  }

  private enum Entry { case already, acquired, busy }

  /// Whether the calling thread owns already, becomes the owner (nothing runs or waits),
  /// or must wait for its turn.
  private func enter() -> Entry {
    let me = pthread_self()
    return state.withLock { state -> Entry in
      if let runner = state.runner { return pthread_equal(runner, me) != 0 ? .already : .busy }
      guard state.loop == nil, !state.draining, state.jobs.isEmpty else { return .busy }
      state.runner = me
      return .acquired
    }
  }

  /// Sends `job` to the owner: to the running loop, or to the queue.
  func submit(_ job: @escaping Job) {
    let (wakeup, startDrain) = state.withLock { state -> (Wakeup?, Bool) in
      state.jobs.append(job)
      if let loop = state.loop { return (loop, false) }
      // A caller running inline, or a drain already under way, takes it when done.
      if state.draining || state.runner != nil { return (nil, false) }
      state.draining = true
      return (nil, true)
    }
    if let wakeup { wakeup.signal() }
    if startDrain { queue.async { self.drain() } }
  }

  /// Runs the jobs on the queue until none is left.
  private func drain() {
    let me = pthread_self()
    while let job = state.withLock({ state -> Job? in
      guard state.loop == nil, !state.jobs.isEmpty else {
        state.draining = false
        state.runner = nil
        return nil
      }
      state.runner = me
      return state.jobs.removeFirst()
    }) {
      job()
    }
  }

  /// A caller that ran inline is done: jobs sent meanwhile go to the queue.
  private func release() {
    let startDrain = state.withLock { state -> Bool in
      state.runner = nil
      guard state.loop == nil, !state.jobs.isEmpty, !state.draining else { return false }
      state.draining = true
      return true
    }
    if startDrain { queue.async { self.drain() } }
  }

  /// The loop running on the calling thread takes the jobs from now on, and calls
  /// `runPending()` when `wakeup` fires. The calling thread must be the owner (the loop
  /// runs as one of its jobs, `FiringLoop.run()`), or the owner must be idle.
  func attach(_ wakeup: Wakeup) {
    let entry = enter()
    precondition(entry != .busy, "a firing loop with an owner runs as one of its jobs")
    state.withLock { $0.loop = wakeup }
    // Jobs sent before the loop attached were never signalled.
    wakeup.signal()
  }

  /// The loop stops taking jobs; what is left runs on the queue (the drain the loop runs in
  /// goes on with them).
  func detach() {
    let startDrain = state.withLock { state -> Bool in
      state.loop = nil
      guard !state.draining else { return false }
      state.runner = nil
      guard !state.jobs.isEmpty else { return false }
      state.draining = true
      return true
    }
    if startDrain { queue.async { self.drain() } }
  }

  /// Runs the jobs sent so far, on the loop's thread; jobs they send run on the next wake.
  func runPending() {
    let jobs = state.withLock { state -> [Job] in
      defer { state.jobs.removeAll() }
      return state.jobs
    }
    for job in jobs { job() }
  }
}

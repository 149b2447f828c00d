import CSystemd
import Dispatch
import Foundation
import NotifyCore
import Synchronization

/// Runs something attachable on an sd-event loop and a thread of its own instead of on
/// the loop it is attached to: `notify daemon`'s D-Bus service, so that a long call (a
/// batch of 1000) never holds a hand-off that is due (docs/decisions/0058). The member
/// is used on that thread only, from `attach` to `detach`; it reaches the firing loop's
/// firer and sinks only through their owner's jobs (`SinkOwner.runBlocking`).
package final class LoopThread: LoopAttachable, @unchecked Sendable {
  // Safe: `member` is touched by the thread alone while it runs (attach waits for the
  // thread to have attached it; detach waits for the thread to have detached it); the
  // rest is immutable or behind the mutex.
  private let member: any LoopAttachable
  private let name: String
  private let owner: SinkOwner?
  /// What stops the thread's loop, while it runs.
  private let stopper = Mutex<Wakeup?>(nil)
  /// Signalled once the thread is done with `member`.
  private let finished = DispatchSemaphore(value: 0)
  private var running = false

  /// `member` on a thread named `name` (`top -H`). `owner` is the firing loop's: jobs the
  /// thread sends it while the firing loop detaches this one run meanwhile, so the thread
  /// can finish a call that waits for one.
  package init(_ member: any LoopAttachable, name: String, owner: SinkOwner?) {
    self.member = member
    self.name = name
    self.owner = owner
  }

  /// Starts the thread and returns once it has attached the member to its own loop (the
  /// loop given here is not used), or throws what attaching threw.
  package func attach(to _: OpaquePointer, priority: Int32) throws {
    let started = DispatchSemaphore(value: 0)
    // Safe: written by the thread before `started.signal()`, read after `started.wait()`.
    nonisolated(unsafe) var failure: (any Error)?
    let thread = Thread { [self] in
      _ = notify_name_thread(name)
      Self.yieldToTheLoop()
      defer { finished.signal() }
      do {
        let loop = try EventLoop()
        let stop = try Wakeup(loop: loop) { [unowned loop] in loop.exit(0) }
        try member.attach(to: loop.handle, priority: priority)
        stopper.withLock { $0 = stop }
        started.signal()
        _ = try? loop.run()
        member.detach()
        stopper.withLock { $0 = nil }
      } catch {
        failure = error
        started.signal()
      }
    }
    thread.start()
    started.wait()
    if let failure {
      finished.wait()
      throw failure
    }
    running = true
  }

  /// Lowers the calling thread below the firing loop's: out of a real-time policy the
  /// daemon may run under (`chrt`), and 5 nice levels down. Its calls then wait for the
  /// CPU when a hand-off needs it on a busy machine, never the reverse.
  private static func yieldToTheLoop() {
    var param = sched_param()
    if sched_getscheduler(0) != SCHED_OTHER { _ = sched_setscheduler(0, SCHED_OTHER, &param) }
    let thread = id_t(notify_thread_id())
    errno = 0
    let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread)
    if errno == 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread, nice + 5) }
  }

  /// Stops the thread's loop and waits for the thread to detach the member, running the
  /// owner's jobs meanwhile (the calling thread is the owner's: a call on the thread may
  /// wait for a job).
  package func detach() {
    guard running else { return }
    running = false
    stopper.withLock { $0 }?.signal()
    while finished.wait(timeout: .now() + .milliseconds(10)) == .timedOut {
      owner?.runPending()
    }
  }
}

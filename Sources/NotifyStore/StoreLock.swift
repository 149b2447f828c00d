import Dispatch
import Foundation
import NotifyCore
import Synchronization

/// The migration lock: an exclusive `flock` on a file beside the store, taken only to create
/// a store, set one up or migrate it (`StoreState.needsSetUp`), never to open a current one.
///
/// Waiting for it blocks in `flock(2)` on a thread of its own while the opener waits on a
/// semaphore until its deadline: no polling, and a process stopped while holding the lock
/// costs the others their deadline, not forever.
enum StoreLock {
  /// Runs `body` holding the lock at `path`; throws busy (exit 75) when `deadline` passes
  /// first. A lock file that cannot be created (a read-only folder) is no reason to fail
  /// here: `body` then meets the real problem and says so.
  static func holding<T>(
    _ path: String, until deadline: StoreDeadline, store: String, _ body: () throws -> T
  ) throws -> T {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return try body() }
    defer { close(fd) }
    if flock(fd, LOCK_EX | LOCK_NB) != 0 {
      guard wait(fd, until: deadline) else {
        throw StoreBusy.error(store: store, lockFile: path, waited: deadline.seconds)
      }
    }
    defer { flock(fd, LOCK_UN) }
    return try body()
  }

  /// Blocks in `flock` on a duplicate of `fd` (the same open file, so the lock is `fd`'s)
  /// on a new thread; true once it is held, false when `deadline` passed first. A waiter
  /// that comes too late lets the lock go again as it ends.
  private static func wait(_ fd: Int32, until deadline: StoreDeadline) -> Bool {
    let waiter = dup(fd)
    guard waiter >= 0 else { return false }
    let outcome = Waiter()
    Thread.detachNewThread {
      while flock(waiter, LOCK_EX) != 0, errno == EINTR {}
      if !outcome.acquire() { flock(waiter, LOCK_UN) }
      close(waiter)
    }
    let timeout = DispatchTime.now() + .milliseconds(Int(deadline.remainingMilliseconds))
    if outcome.semaphore.wait(timeout: timeout) == .success { return true }
    return !outcome.abandon()
  }

  /// Who won between the waiting thread taking the lock and the opener giving up.
  private final class Waiter: Sendable {
    let semaphore = DispatchSemaphore(value: 0)
    private let state = Mutex<State>(.waiting)
    private enum State { case waiting, acquired, abandoned }

    /// The thread took the lock: true when the opener still wants it.
    func acquire() -> Bool {
      let wanted = state.withLock { state -> Bool in
        guard state == .waiting else { return false }
        state = .acquired
        return true
      }
      if wanted { semaphore.signal() }
      return wanted
    }

    /// The opener gives up: false when the lock was taken for it just now after all.
    func abandon() -> Bool {
      state.withLock { state -> Bool in
        guard state == .waiting else { return false }
        state = .abandoned
        return true
      }
    }
  }
}

import Dispatch
import Foundation
import NotifyCore
import Synchronization

/// The migration lock: an exclusive `flock` on a file beside the store, taken only to create
/// a store, set one up or migrate it (`StoreState.needsSetUp`), never to open a current one.
///
/// Waiting for it blocks in `flock(2)` on a thread of its own while the opener waits on a
/// semaphore, looking every 50 ms at what the holder does to the files
/// (`StoreActivity.ofMigration`): it waits as long as the holder makes progress (up to the
/// open's end), and gives up after the busy timeout without any, so that a process stopped
/// while holding the lock costs the others their busy timeout, not forever.
enum StoreLock {
  /// Runs `body` holding the lock at `path`; throws busy (exit 75) when the wait gives up
  /// first (`ProgressWait` with `deadline`). When `isDone` turns true while this waits (a
  /// creator linked the new store into place), nothing is left to do under the lock: it
  /// returns nil without it, so that the waiters of a creator go on at once instead of
  /// taking the lock one after the other. A lock file that cannot be created (a read-only
  /// folder) is no reason to fail here: `body` then meets the real problem and says so.
  @discardableResult
  static func holding<T>(
    _ path: String, until deadline: StoreDeadline, store: String, unlessDone isDone: () -> Bool = { false },
    _ body: () throws -> T
  ) throws -> T? {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return try body() }
    defer { close(fd) }
    if flock(fd, LOCK_EX | LOCK_NB) != 0 {
      switch wait(fd, store: store, deadline: deadline, isDone: isDone) {
      case .held: break
      case .done: return nil
      case .gaveUp(let ending):
        throw StoreBusy.error(store: store, lockFile: path, timeout: deadline.seconds, ending: ending)
      }
    }
    defer { flock(fd, LOCK_UN) }
    return try body()
  }

  /// How a wait for the lock ended.
  private enum Outcome {
    case held
    case done
    case gaveUp(ProgressWait.Ending)
  }

  /// Blocks in `flock` on a duplicate of `fd` (the same open file, so the lock is `fd`'s)
  /// on a new thread while this one looks at the store every 50 ms: held once the thread
  /// has the lock, done when `isDone` turned true first, given up as `ProgressWait` says.
  /// A thread that takes the lock too late lets it go again as it ends.
  private static func wait(
    _ fd: Int32, store: String, deadline: StoreDeadline, isDone: () -> Bool
  ) -> Outcome {
    let waiter = dup(fd)
    guard waiter >= 0 else { return .gaveUp(.noProgress) }
    let outcome = Waiter()
    Thread.detachNewThread {
      while flock(waiter, LOCK_EX) != 0, errno == EINTR {}
      if !outcome.acquire() { flock(waiter, LOCK_UN) }
      close(waiter)
    }
    var wait = ProgressWait(
      timeout: deadline.timeout, seen: .ofMigration(store: store), now: .now,
      end: deadline.end)
    let slice = min(.milliseconds(50), deadline.timeout / 4) / .microseconds(1)
    while true {
      if outcome.semaphore.wait(timeout: .now() + .microseconds(Int(slice))) == .success { return .held }
      if isDone() { return outcome.abandon() ? .done : .held }
      let seen = StoreActivity.ofMigration(store: store)
      if case .giveUp(let ending) = wait.look(seen, now: .now) {
        return outcome.abandon() ? .gaveUp(ending) : .held
      }
    }
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

import Dispatch
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// The serial queue a center runs its blocking calls on, so that the `async` API never
/// blocks a thread of Swift's cooperative pool.
///
/// Why this matters: every store call may wait up to the busy timeout (5 s) for another
/// process's write lock, and every D-Bus call up to the call timeout (5 s) for a hung
/// notification server. The cooperative pool has as many threads as the machine has cores;
/// a few such waits on it would stall every other task of the app (its network reader, its
/// UI updates) for seconds. `Task.detached` would not help: it runs on the same pool.
///
/// Why this does not block it: the caller's task suspends in `withCheckedContinuation` (no
/// thread is held while it waits), and the call runs on this queue, a serial `DispatchQueue`
/// whose work items run on libdispatch's own worker threads (it targets the default
/// overcommit root queue, which starts a new thread when the others are busy), never on the
/// cooperative pool's. One queue per center keeps the center's calls in the order they were
/// made; centers do not wait for each other. `CooperativePoolTests` holds more calls blocked
/// than the pool has threads, checks that an unrelated task still runs, and that no call
/// ran inside a task (`Task.detached` fails that check).
final class BlockingCallQueue: Sendable {
  private let queue: DispatchQueue

  init(label: String) {
    queue = DispatchQueue(label: label)
  }

  /// Runs `body` on the queue and returns its result; the calling task is suspended, not
  /// blocked, meanwhile. A `NotifyError` comes out as the `NotificationError` an app sees.
  func run<T: Sendable>(_ body: @escaping @Sendable () throws(NotifyError) -> T)
    async throws(NotificationError)
    -> T
  {
    let result: Result<T, NotifyError> = await withCheckedContinuation { continuation in
      queue.async {
        do throws(NotifyError) {
          continuation.resume(returning: .success(try body()))
        } catch {
          continuation.resume(returning: .failure(error))
        }
      }
    }
    switch result {
    case .success(let value): return value
    case .failure(let error): throw NotificationError(error)
    }
  }
}

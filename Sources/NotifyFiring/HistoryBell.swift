import Glibc
import NotifyCore
import Synchronization

/// How the firing loop tells the D-Bus service, on another thread, what it needs to send
/// signals: the deliveries the loop's firer handed over (sent as `Delivered` at once, from
/// the delivery itself), and that history may have grown otherwise (another process's
/// commit, a click recorded: read from history). A pipe the service's loop watches wakes
/// it. The loop's one store watch stands for both: the service watches nothing of its own.
///
/// Made first by the daemon's assembly and given to the sinks, the firer and the service
/// as each is made, so that nothing is wired up afterwards (docs/decisions/0125).
/// Bounded: past `limit` waiting deliveries (a service that did not start, or is stuck),
/// the rest are dropped and history is marked grown instead: the service reads them from
/// history, as it reads another process's.
///
/// ```swift
/// let bell = try HistoryBell()
/// let firer = Firer(store: store, sink: sink, identity: .current, options: .init(handedOver: bell.handedOver))
/// let service = SchedulerEndpoint(storePath: store.path, clock: clock, bell: bell)
/// ```
package final class HistoryBell: Sendable {
  /// The read end; readable after a ring until `take()`.
  package let descriptor: Int32
  private let writeEnd: Int32
  /// What was rung since the last `take()`.
  private let inbox = Mutex<(deliveries: [Delivery], historyGrew: Bool)>(([], false))
  /// The most deliveries waiting for `take()`.
  package static let limit = 4096

  /// Opens the pipe.
  package init() throws(NotifyError) {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else {
      throw NotifyError(
        .unavailable, "cannot make a pipe for the service: \(String(cString: strerror(errno)))")
    }
    for fd in fds {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    descriptor = fds[0]
    writeEnd = fds[1]
  }

  deinit {
    close(descriptor)
    close(writeEnd)
  }

  /// Makes the service read history for new signals; safe from any thread.
  @Sendable package func ring() {
    inbox.withLock { $0.historyGrew = true }
    wake()
  }

  /// Hands the service a delivery the loop's firer just handed over; safe from any thread.
  @Sendable package func handedOver(_ delivery: Delivery) {
    inbox.withLock { inbox in
      if inbox.deliveries.count < Self.limit {
        inbox.deliveries.append(delivery)
      } else {
        inbox.historyGrew = true
      }
    }
    wake()
  }

  /// (A full pipe has woken the service already.)
  private func wake() {
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  /// Takes what was rung so far (on the service's thread).
  package func take() -> (deliveries: [Delivery], historyGrew: Bool) {
    var buffer = [UInt8](repeating: 0, count: 64)
    while read(descriptor, &buffer, buffer.count) > 0 {}
    return inbox.withLock { inbox in
      defer { inbox = ([], false) }
      return inbox
    }
  }
}

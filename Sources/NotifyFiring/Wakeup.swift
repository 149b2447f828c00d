import Glibc
import NotifyCore

/// A self-pipe that any thread may write to wake the loop: how `FiringLoop.stop()`
/// and `nudge()` reach a loop blocked in `epoll_wait` from another thread.
final class Wakeup: @unchecked Sendable {
  // Safe: other threads only call `signal()`, a write(2) on a descriptor that lives as
  // long as the object; `source` is touched on the loop's thread only.
  private let readEnd: Int32
  private let writeEnd: Int32
  private var source: EventSource?

  /// Registers on `loop`; `body` runs on the loop's thread after `signal()`.
  init(loop: EventLoop, _ body: @escaping () -> Void) throws(NotifyError) {
    var fds: [Int32] = [0, 0]
    try SystemdCall.checkLibc(pipe(&fds), "pipe")
    for fd in fds {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    readEnd = fds[0]
    writeEnd = fds[1]
    source = try loop.addReadable(fd: readEnd, priority: -20) { [readEnd] in
      var buffer = [UInt8](repeating: 0, count: 64)
      while read(readEnd, &buffer, buffer.count) > 0 {}
      body()
    }
  }

  /// Wakes the loop. Safe from any thread.
  func signal() {
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  deinit {
    source = nil
    close(readEnd)
    close(writeEnd)
  }
}

import Glibc
import NotifyCore

/// How the firing loop tells the D-Bus service, on another thread, that history may have
/// grown: a pipe the service's loop watches. The loop's one store watch stands for both
/// (the service watches nothing of its own), and a delivery of the loop's own reaches the
/// service's subscribers as soon as it is recorded, without waiting for inotify.
package final class HistoryBell: Sendable {
  /// The read end; readable after `ring()` until `clear()`.
  let descriptor: Int32
  private let writeEnd: Int32

  /// Opens the pipe.
  init() throws(NotifyError) {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else {
      throw NotifyError(.unavailable, "cannot make a pipe for the service: \(String(cString: strerror(errno)))")
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

  /// Makes the service read history for new signals; safe from any thread. (A full pipe
  /// has rung already.)
  @Sendable package func ring() {
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  /// Takes the rings so far (on the service's thread).
  func clear() {
    var buffer = [UInt8](repeating: 0, count: 64)
    while read(descriptor, &buffer, buffer.count) > 0 {}
  }
}

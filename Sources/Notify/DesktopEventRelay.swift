import Dispatch
import Foundation

/// Hands the desktop's answers (`ActionInvoked`, `NotificationClosed`) to the center while
/// the app runs: waits for the sink's bus connection to become readable, then lets the
/// sink process what arrived, which calls the center's event handler.
///
/// The wait is `poll` on the bus descriptor and a wake-up pipe, on a Dispatch thread: no
/// periodic wake-ups, and `nudge()` (after each delivery, which may reconnect the bus or
/// read signals itself) or `stop()` end it at once.
final class DesktopEventRelay: @unchecked Sendable {
  private let sink: SerializedSink
  private let wakeRead: Int32
  private let wakeWrite: Int32
  private let queue = DispatchQueue(label: "notify.desktop-events")

  /// A relay for `sink`, or nil when deliveries do not go to the desktop.
  init?(sink: SerializedSink) {
    guard sink.withSink({ $0 is DesktopSink }) else { return nil }
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return nil }
    for fd in fds {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    self.sink = sink
    wakeRead = fds[0]
    wakeWrite = fds[1]
  }

  deinit {
    close(wakeRead)
    close(wakeWrite)
  }

  /// Relays until `stopping` is set (and `nudge()` called to notice it).
  func run(until stopping: StopFlag) async {
    while !stopping.isSet {
      let (fd, events) = sink.withSink { sink -> (Int32?, Int16) in
        guard let desktop = sink as? DesktopSink else { return (nil, 0) }
        desktop.processPending()
        return (desktop.fileDescriptor, desktop.pollEvents)
      }
      await waitForActivity(on: fd, events: events)
    }
  }

  /// Makes the relay look at the bus again now.
  func nudge() {
    var byte: UInt8 = 1
    _ = write(wakeWrite, &byte, 1)
  }

  private func waitForActivity(on fd: Int32?, events: Int16) async {
    let wakeRead = self.wakeRead
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      queue.async {
        var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        if let fd { fds.append(pollfd(fd: fd, events: events == 0 ? Int16(POLLIN) : events, revents: 0)) }
        // Disconnected: nothing can arrive until a delivery reconnects (and nudges).
        _ = poll(&fds, nfds_t(fds.count), -1)
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
        continuation.resume()
      }
    }
  }
}

import Foundation
import Glibc

/// A Unix datagram socket standing in for systemd's `$NOTIFY_SOCKET`: it receives what
/// the daemon passes to sd_notify, reading all the time as systemd does (a datagram
/// socket nobody reads fills up after a few messages and then blocks the sender).
public final class NotifySocketListener: @unchecked Sendable {
  /// What the reader thread shares with the listener.
  private final class Inbox: @unchecked Sendable {
    let lock = NSLock()
    var messages: [String] = []
    var closed = false
  }

  /// The socket's path, for `NOTIFY_SOCKET`.
  public let path: String
  private let fd: Int32
  private let inbox = Inbox()
  private let finished = DispatchSemaphore(value: 0)

  /// Binds a socket at `path` and starts reading it.
  public init(path: String) throws {
    self.path = path
    fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw POSIXError(.ENAMETOOLONG) }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard result == 0 else {
      close(fd)
      throw POSIXError(.EADDRINUSE)
    }
    let (socketFD, box, done) = (fd, inbox, finished)
    Thread.detachNewThread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while !box.lock.withLock({ box.closed }) {
        var poller = pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 50) > 0 else { continue }
        let count = recv(socketFD, &buffer, buffer.count, 0)
        guard count > 0 else { continue }
        let message = String(decoding: buffer[..<count], as: UTF8.self)
        box.lock.withLock { box.messages.append(message) }
      }
      done.signal()
    }
  }

  deinit {
    inbox.lock.withLock { inbox.closed = true }
    finished.wait()
    close(fd)
    unlink(path)
  }

  /// Every message received so far (each may hold several `KEY=value` lines).
  public var messages: [String] { inbox.lock.withLock { inbox.messages } }

  /// Waits until a message containing `needle` arrives; returns it, or nil at the deadline.
  public func waitFor(_ needle: String, timeout: TimeInterval) -> String? {
    var hit: String?
    _ = waitUntil(timeout: timeout, interval: 0.005) {
      hit = messages.first { $0.contains(needle) }
      return hit != nil
    }
    return hit
  }
}

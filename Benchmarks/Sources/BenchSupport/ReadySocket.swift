import Foundation
import Glibc

/// A Unix datagram socket standing in for systemd's `$NOTIFY_SOCKET`, so that a harness
/// knows when `notify daemon` is ready (it sends READY=1 once the store is open and its
/// timer armed, SPEC.md §6).
public final class ReadySocket {
  /// The socket's path, for `NOTIFY_SOCKET`.
  public let path: String
  private let fd: Int32
  private var closed = false

  /// Binds a socket at `path`.
  public init(path: String) throws {
    self.path = path
    unlink(path)
    fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
      throw BenchError("socket path too long: \(path)")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard result == 0 else { throw BenchError("bind \(path): \(String(cString: strerror(errno)))") }
  }

  deinit { close() }

  /// Closes and removes the socket. Afterwards the daemon's sd_notify calls fail at once;
  /// a socket left open and unread fills up and then blocks the daemon in sd_notify (systemd
  /// always reads; a harness must either read or close).
  public func close() {
    guard !closed else { return }
    closed = true
    Glibc.close(fd)
    unlink(path)
  }

  /// Waits up to `timeout` seconds for a message containing `needle`; true when it came.
  public func wait(for needle: String = "READY=1", timeout: TimeInterval) -> Bool {
    let deadline = monotonicNow() + timeout
    var buffer = [UInt8](repeating: 0, count: 4096)
    while monotonicNow() < deadline {
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let left = Int32(max(1, (deadline - monotonicNow()) * 1000))
      guard poll(&poller, 1, left) > 0 else { continue }
      let count = recv(fd, &buffer, buffer.count, 0)
      if count > 0, String(decoding: buffer[..<count], as: UTF8.self).contains(needle) { return true }
    }
    return false
  }

  /// Reads and drops whatever is queued, so that a sender never blocks on a full socket.
  public func drain() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
  }
}

import CSystemd
import Foundation
import Glibc
import NotifyCore

/// A bus connection made inside a Flatpak sandbox, through a relay that holds sd-bus's
/// `BEGIN` back until the bus has answered its authentication (docs/decisions/0061:
/// xdg-dbus-proxy).
///
/// sd-bus sends `AUTH`, `NEGOTIATE_UNIX_FD` and `BEGIN` at once, without waiting for the
/// answers. xdg-dbus-proxy 0.1.4 (Debian 12's, what Flatpak filters a sandbox's session bus
/// with) switches both directions to messages at `BEGIN`, reads the bus's `OK` that comes
/// after it as a message header and drops the connection (flatpak/xdg-dbus-proxy issue
/// 21). sd-bus gets one end of a socket pair; a thread of the relay's own forwards the
/// authentication lines to the bus, waits for one answer per line, then sends `BEGIN` and
/// from then on copies both ways, passing file descriptors along (`SCM_RIGHTS`). It ends
/// when either side closes.
enum HandshakeRelay {
  /// Whether connections of this process go through the relay: inside a Flatpak sandbox,
  /// whose session bus is the proxy's (`/.flatpak-info` is there in every one).
  static let isNeeded = access(FlatpakInfo.path, F_OK) == 0

  /// The path of the session bus at `address` (`unix:path=...`, the first such entry), or
  /// of this process's (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`).
  static func socketPath(address: String?) -> String? {
    let environment = ProcessInfo.processInfo.environment
    guard let address = address ?? environment["DBUS_SESSION_BUS_ADDRESS"] else {
      return environment["XDG_RUNTIME_DIR"].map { $0 + "/bus" }
    }
    for entry in address.split(separator: ";") where entry.hasPrefix("unix:") {
      for key in entry.dropFirst(5).split(separator: ",") where key.hasPrefix("path=") {
        return String(key.dropFirst(5)).removingPercentEncoding
      }
    }
    return nil
  }

  /// Connects to the bus socket at `path` and returns the descriptor sd-bus talks on
  /// (`sd_bus_set_fd`); the relay's thread owns the rest.
  static func connect(path: String) throws(BusFailure) -> Int32 {
    let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard server >= 0 else { throw BusFailure(operation: "connecting to the session bus", code: errno) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
      close(server)
      throw BusFailure(operation: "connecting to the session bus", code: ENAMETOOLONG)
    }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      buffer.copyBytes(from: bytes)
    }
    let connected = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddrPointer in
        Glibc.connect(server, sockaddrPointer, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      let code = errno
      close(server)
      throw BusFailure(operation: "connecting to the session bus", code: code)
    }
    var pair: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0
    else {
      let code = errno
      close(server)
      throw BusFailure(operation: "connecting to the session bus", code: code)
    }
    let (client, inner) = (pair[1], pair[0])
    let thread = Thread { relay(client: client, server: server) }
    thread.start()
    return inner
  }

  /// The relay's thread: the handshake, then copying both ways until either side closes.
  private static func relay(client: Int32, server: Int32) {
    defer {
      close(client)
      close(server)
    }
    guard handshake(client: client, server: server) else { return }
    var fds = [
      pollfd(fd: client, events: Int16(POLLIN), revents: 0),
      pollfd(fd: server, events: Int16(POLLIN), revents: 0),
    ]
    // One buffer and one control buffer for the connection's life, not one per message.
    var buffer = [UInt8](repeating: 0, count: 65536)
    var control = [UInt8](
      repeating: 0, count: Int(notify_cmsg_space(Int32(maximumDescriptors * MemoryLayout<Int32>.size))))
    while true {
      guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { return }
      for (index, entry) in fds.enumerated() where entry.revents != 0 {
        let (from, to) = index == 0 ? (client, server) : (server, client)
        guard copy(from: from, to: to, buffer: &buffer, control: &control) else {
          shutdown(to, Int32(SHUT_RDWR))
          return
        }
      }
    }
  }

  /// Forwards sd-bus's authentication lines and the bus's answers, one answer per line,
  /// then `BEGIN` and whatever followed it. False when either side closed or erred.
  private static func handshake(client: Int32, server: Int32) -> Bool {
    var pending: [UInt8] = []
    let begin = Array("BEGIN\r\n".utf8)
    var commands = 0
    // The client's side up to BEGIN (the leading NUL byte first, then lines).
    while true {
      guard let chunk = readSome(client) else { return false }
      pending += chunk
      if let range = lineStart(of: begin, in: pending) {
        let before = Array(pending[..<range])
        commands += before.filter { $0 == UInt8(ascii: "\n") }.count
        guard writeAll(server, before) else { return false }
        pending = Array(pending[range...])
        break
      }
    }
    // One answer from the bus per command line.
    var answers: [UInt8] = []
    var lines = 0
    while lines < commands {
      guard let chunk = readSome(server) else { return false }
      answers += chunk
      lines = answers.filter { $0 == UInt8(ascii: "\n") }.count
    }
    return writeAll(client, answers) && writeAll(server, pending)
  }

  /// Where `needle` starts a line of `buffer` (at 0 after the NUL, or after a `\n`).
  private static func lineStart(of needle: [UInt8], in buffer: [UInt8]) -> Int? {
    guard buffer.count >= needle.count else { return nil }
    for start in 0...(buffer.count - needle.count)
    where (start == 0 || buffer[start - 1] == UInt8(ascii: "\n") || buffer[start - 1] == 0)
      && Array(buffer[start..<(start + needle.count)]) == needle
    {
      return start
    }
    return nil
  }

  /// What one read returns; nil at end of file or on an error.
  private static func readSome(_ fd: Int32) -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(fd, &buffer, buffer.count)
      if count > 0 { return Array(buffer[..<count]) }
      if count < 0 && errno == EINTR { continue }
      return nil
    }
  }

  private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let count = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return false }
      offset += count
    }
    return true
  }

  /// The most descriptors one message may carry (dbus-daemon's default limit is 16 per
  /// message; room for several messages in one read).
  private static let maximumDescriptors = 253

  /// Copies what one `recvmsg` on `from` returns to `to`, descriptors included (sent with
  /// the first bytes, as they came, then closed here). False at end of file or on an error.
  private static func copy(from: Int32, to: Int32, buffer: inout [UInt8], control: inout [UInt8]) -> Bool {
    var received = 0
    var controlLength = 0
    buffer.withUnsafeMutableBytes { data in
      control.withUnsafeMutableBytes { controlBytes in
        var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
        withUnsafeMutablePointer(to: &vector) { vectorPointer in
          var message = msghdr()
          message.msg_iov = vectorPointer
          message.msg_iovlen = 1
          message.msg_control = controlBytes.baseAddress
          message.msg_controllen = controlBytes.count
          repeat {
            received = recvmsg(from, &message, Int32(MSG_CMSG_CLOEXEC))
          } while received < 0 && errno == EINTR
          controlLength = Int(message.msg_controllen)
        }
      }
    }
    guard received > 0 else { return false }
    var offset = 0
    var first = true
    while offset < received {
      var sent = 0
      buffer.withUnsafeMutableBytes { data in
        control.withUnsafeMutableBytes { controlBytes in
          var vector = iovec(iov_base: data.baseAddress! + offset, iov_len: received - offset)
          withUnsafeMutablePointer(to: &vector) { vectorPointer in
            var message = msghdr()
            message.msg_iov = vectorPointer
            message.msg_iovlen = 1
            if first && controlLength > 0 {
              message.msg_control = controlBytes.baseAddress
              message.msg_controllen = controlLength
            }
            repeat {
              sent = sendmsg(to, &message, Int32(MSG_NOSIGNAL))
            } while sent < 0 && errno == EINTR
          }
        }
      }
      guard sent > 0 else {
        if first { closeDescriptors(in: control, length: controlLength) }
        return false
      }
      if first { closeDescriptors(in: control, length: controlLength) }
      first = false
      offset += sent
    }
    return true
  }

  /// Closes this process's copies of the descriptors a control message carried.
  private static func closeDescriptors(in control: [UInt8], length: Int) {
    control.withUnsafeBytes { bytes in
      var fds = [Int32](repeating: -1, count: maximumDescriptors)
      let count = notify_cmsg_rights(bytes.baseAddress, Int32(length), &fds, Int32(fds.count))
      for fd in fds.prefix(Int(count)) where fd >= 0 { close(fd) }
    }
  }
}

import Foundation
import NotifyTestSupport

/// A second, raw IRC connection driven by the test (the "other user"): it registers,
/// answers PING, sends lines and waits for lines with a deadline.
final class IRCPeer {
  private let fd: Int32
  private var buffer: [UInt8] = []
  /// Every line received so far.
  private(set) var received: [String] = []

  /// Connects to the loopback server on `port` and registers as `nick`; waits for the welcome.
  init(port: UInt16, nick: String) throws {
    fd = try IRCPeer.openSocket(port: port)
    send("NICK \(nick)")
    send("USER \(nick.lowercased()) 0 * :\(nick)")
    guard try waitForLine(timeout: 10, { $0.contains(" 001 ") }) != nil else {
      throw IRCServerError(reason: "\(nick) was not welcomed by the server: \(received.suffix(5))")
    }
  }

  deinit {
    send("QUIT")
    close(fd)
  }

  /// Sends one protocol line.
  func send(_ line: String) {
    let bytes = Array((line + "\r\n").utf8)
    _ = bytes.withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  }

  /// Reads until a line satisfies `match` or `timeout` seconds pass; returns it or nil.
  func waitForLine(timeout: TimeInterval, _ match: (String) -> Bool) throws -> String? {
    if let seen = received.first(where: match) { return seen }
    let deadline = Date() + timeout
    while Date() < deadline {
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, Int32(max(1, min(200, deadline.timeIntervalSinceNow * 1000))))
      guard ready > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      guard count > 0 else { throw IRCServerError(reason: "the server closed the peer's connection") }
      buffer += chunk[..<count]
      while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self).trimmingCharacters(in: .newlines)
        buffer.removeSubrange(...newline)
        if line.hasPrefix("PING") { send("PONG" + line.dropFirst(4)) }
        received.append(line)
        if match(line) { return line }
      }
    }
    return nil
  }

  /// A connected TCP socket to 127.0.0.1:`port`.
  static func openSocket(port: UInt16) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw IRCServerError(reason: "socket() failed") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = port.bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    guard connected else {
      close(fd)
      throw IRCServerError(reason: "cannot connect to 127.0.0.1:\(port)")
    }
    return fd
  }
}

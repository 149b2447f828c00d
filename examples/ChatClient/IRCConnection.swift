import Foundation

/// A TCP connection to an IRC server over POSIX sockets: send lines, receive lines.
final class IRCConnection: @unchecked Sendable {
  /// `HOST:PORT` as given.
  let address: String
  private let fd: Int32
  private let writeLock = NSLock()
  private var closed = false
  /// Ends `lines()` from outside; set once it is iterated.
  private var stopReading: (@Sendable () -> Void)?

  /// Connects to `host`:`port`, trying each address the name resolves to.
  init(host: String, port: UInt16) throws(ChatError) {
    address = "\(host):\(port)"
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else {
      throw ChatError(
        "cannot resolve \(host): \(String(cString: gai_strerror(status)))", fix: "check the host in --server")
    }
    defer { freeaddrinfo(list) }
    var lastError: Int32 = ECONNREFUSED
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let info = entry {
      let socketFD = socket(
        info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue),
        info.pointee.ai_protocol)
      if socketFD >= 0 {
        if connect(socketFD, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
          _ = fcntl(socketFD, F_SETFL, fcntl(socketFD, F_GETFL) | O_NONBLOCK)
          fd = socketFD
          return
        }
        lastError = errno
        close(socketFD)
      }
      entry = info.pointee.ai_next
    }
    throw ChatError(
      "cannot connect to \(host):\(port): \(String(cString: strerror(lastError)))",
      fix: "check that the IRC server runs and --server HOST:PORT is right")
  }

  /// The lines the server sends, until it closes the connection. Iterate once.
  func lines() -> AsyncThrowingStream<String, any Error> {
    let reader = LineReader.reader(of: fd) { [self] in
      writeLock.withLock {
        closed = true
        close(fd)
      }
    }
    writeLock.withLock { stopReading = reader.stop }
    return reader.lines
  }

  /// Sends one message. Failures are ignored: a dead connection shows up as the end of
  /// `lines()`, which is where the client goes offline.
  func send(_ message: IRCMessage) {
    let bytes = Array((message.line + "\r\n").utf8)
    writeLock.withLock {
      guard !closed else { return }
      var offset = 0
      var waited = 0
      while offset < bytes.count {
        let sent = bytes[offset...].withUnsafeBytes {
          Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        if sent > 0 {
          offset += sent
        } else if sent < 0, errno == EAGAIN || errno == EINTR, waited < 50 {
          // The socket is non-blocking for the reader's sake; wait for room briefly.
          var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
          _ = poll(&poller, 1, 100)
          waited += 1
        } else {
          return
        }
      }
    }
  }

  /// Shuts the socket down both ways, so the server sees the end and `lines()` ends. The
  /// descriptor itself is closed when the reader lets go of it. Should the end of file not
  /// be reported (seen once under heavy load: the client then never left), `lines()` is
  /// ended anyway after `shutdownGrace`, which leaves the server's goodbye time to arrive.
  func shutdown() {
    let stop: (@Sendable () -> Void)? = writeLock.withLock {
      guard !closed else { return nil }
      _ = Foundation.shutdown(fd, Int32(SHUT_RDWR))
      return stopReading
    }
    guard let stop else { return }
    DispatchQueue.global().asyncAfter(deadline: .now() + Self.shutdownGrace) { stop() }
  }

  /// How long `lines()` may wait for the end of file after `shutdown()`.
  static let shutdownGrace: TimeInterval = 2
}

/// A failure of the chat client, with what to do about it.
struct ChatError: Error, CustomStringConvertible {
  var problem: String
  var fix: String?
  /// The process exit code (sysexits).
  var exitCode: Int32

  init(_ problem: String, fix: String? = nil, exitCode: Int32 = 69) {
    self.problem = problem
    self.fix = fix
    self.exitCode = exitCode
  }

  var description: String { fix.map { "\(problem): \($0)" } ?? problem }
}

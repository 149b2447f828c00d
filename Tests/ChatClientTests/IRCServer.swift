import Foundation
import NotifyTestSupport

/// A real IRC server (ngIRCd) on loopback, on a free port, with a minimal configuration
/// written for the test, running in the foreground until stopped.
final class IRCServer: @unchecked Sendable {
  /// The port it listens on.
  let port: UInt16
  private var process: ChildProcess
  private let folder: TemporaryFolder

  /// Starts ngircd in `folder`; throws a reason when it does not listen within 10 s.
  init(in folder: TemporaryFolder) throws {
    let executable = TestEnvironment.ircServer ?? "ngircd"
    var lastProblem = "no attempt"
    for _ in 0..<3 {
      let port = try IRCServer.freePort()
      let config = folder.file("ngircd-\(port).conf")
      try IRCServer.configuration(port: port, folder: folder.path).write(
        toFile: config, atomically: true, encoding: .utf8)
      let process = try ChildProcess(executable, ["-n", "-f", config], stdin: .pipe)
      if IRCServer.waitUntilListening(port: port, process: process, timeout: 10) {
        self.port = port
        self.process = process
        self.folder = folder
        return
      }
      process.terminate()
      lastProblem = "ngircd did not listen on port \(port): \(process.stderr.suffix(500))"
    }
    throw IRCServerError(reason: lastProblem)
  }

  /// Stops the server.
  func stop() { process.terminate() }

  /// Stops the server (every client loses its connection) and starts a new one on the
  /// same port; throws when it does not listen within 10 s.
  func restart() throws {
    process.terminate()
    let executable = TestEnvironment.ircServer ?? "ngircd"
    process = try ChildProcess(executable, ["-n", "-f", folder.file("ngircd-\(port).conf")], stdin: .pipe)
    guard IRCServer.waitUntilListening(port: port, process: process, timeout: 10) else {
      throw IRCServerError(
        reason: "ngircd did not listen again on port \(port): \(process.stderr.suffix(500))")
    }
  }

  deinit { process.terminate() }

  /// A configuration for a private loopback server: no DNS, ident or PAM lookups, long
  /// nicks, no per-IP connection limit (the test connects several times from 127.0.0.1).
  static func configuration(port: UInt16, folder: String) -> String {
    """
    [Global]
    Name = irc.notify.test
    Info = notify integration test
    AdminInfo1 = notify tests
    AdminInfo2 = loopback only
    AdminEMail = nobody@localhost
    Listen = 127.0.0.1
    Ports = \(port)
    MotdPhrase = notify test
    PidFile = \(folder)/ngircd.pid

    [Limits]
    MaxConnectionsIP = 0
    MaxNickLength = 30
    PingTimeout = 120
    PongTimeout = 20

    [Options]
    DNS = no
    Ident = no
    PAM = no
    IncludeDir = \(folder)/ngircd.conf.d

    """
  }

  /// A port nobody listens on right now: bind to port 0 and read what the kernel chose.
  static func freePort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw IRCServerError(reason: "socket() failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
      }
    }
    guard bound else { throw IRCServerError(reason: "cannot bind a loopback port") }
    return UInt16(bigEndian: address.sin_port)
  }

  private static func waitUntilListening(port: UInt16, process: ChildProcess, timeout: TimeInterval) -> Bool {
    waitUntil(timeout: timeout, interval: 0.05) {
      guard process.isRunning else { return true }
      return (try? IRCPeer.openSocket(port: port)).map { fd in
        close(fd)
        return true
      } ?? false
    } && process.isRunning
  }
}

/// Why the IRC server could not be used.
struct IRCServerError: Error, CustomStringConvertible {
  var reason: String
  var description: String { reason }
}

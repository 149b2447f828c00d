import CSystemd
import Foundation
import Glibc
import NotifyTestSupport
import Testing

@testable import NotifyDesktop

/// The relay a sandboxed process's bus connections go through (`HandshakeRelay`): against a
/// bus of the test's own on a Unix socket, a client that pipelines its handshake as sd-bus
/// does. The bus may see `BEGIN` only after it has answered every line before it, and a
/// descriptor sent after it must reach the bus as a descriptor.
@Suite(.ownThreads)
struct HandshakeRelayTests {
  @Test func beginWaitsForTheAnswersAndDescriptorsPassThrough() throws {
    // Given a bus listening on a socket, and a client connected through the relay
    let folder = TemporaryFolder(prefix: "notify-relay")
    let path = folder.file("bus")
    let listener = try Self.listen(path)
    defer { close(listener) }
    let client = try HandshakeRelay.connect(path: path)
    defer { close(client) }
    let bus = accept(listener, nil, nil)
    try #require(bus >= 0)
    defer { close(bus) }
    // When the client sends its whole handshake at once, and then a message with a pipe's
    // write end
    #expect(Self.write(client, "\0AUTH EXTERNAL\r\nDATA\r\nNEGOTIATE_UNIX_FD\r\nBEGIN\r\n"))
    // Then the bus gets the three lines, and no BEGIN before it answers them
    let lines = Self.read(bus, until: "NEGOTIATE_UNIX_FD\r\n")
    #expect(lines == "\0AUTH EXTERNAL\r\nDATA\r\nNEGOTIATE_UNIX_FD\r\n")
    // (the relay forwards what came in one write in one write: a BEGIN sent with the lines
    // would be there already)
    #expect(!Self.readable(bus, withinMilliseconds: 0), "BEGIN came before the answers")
    #expect(Self.write(bus, "DATA\r\nOK 0123456789abcdef0123456789abcdef\r\nAGREE_UNIX_FD\r\n"))
    #expect(Self.read(bus, until: "BEGIN\r\n") == "BEGIN\r\n")
    // And the client gets the answers
    #expect(Self.read(client, until: "AGREE_UNIX_FD\r\n").hasSuffix("AGREE_UNIX_FD\r\n"))
    var pipeEnds: [Int32] = [0, 0]
    try #require(pipe(&pipeEnds) == 0)
    defer { close(pipeEnds[0]) }
    #expect(Self.send(client, "m", descriptor: pipeEnds[1]))
    close(pipeEnds[1])
    // And the descriptor reaches the bus with the message: what the bus writes to it comes
    // out of the client's read end
    let received = Self.receiveDescriptor(bus)
    try #require(received >= 0, "no descriptor came through")
    #expect(Self.write(received, "through"))
    close(received)
    #expect(Self.read(pipeEnds[0], until: "through") == "through")
  }

  static func listen(_ path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    try #require(bound == 0 && Glibc.listen(fd, 1) == 0)
    return fd
  }

  static func write(_ fd: Int32, _ text: String) -> Bool {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
  }

  /// What `fd` gives until `end` has come (or end of file, or 10 s).
  static func read(_ fd: Int32, until end: String) -> String {
    var bytes: [UInt8] = []
    let deadline = Date() + 10
    while !String(decoding: bytes, as: UTF8.self).hasSuffix(end), Date() < deadline {
      guard readable(fd, withinMilliseconds: 1000) else { continue }
      var byte: UInt8 = 0
      guard Glibc.read(fd, &byte, 1) == 1 else { break }
      bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  static func readable(_ fd: Int32, withinMilliseconds timeout: Int32) -> Bool {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, timeout) == 1
  }

  static func send(_ fd: Int32, _ text: String, descriptor: Int32) -> Bool {
    var bytes = Array(text.utf8)
    var control = [UInt8](repeating: 0, count: Int(notify_cmsg_space(Int32(MemoryLayout<Int32>.size))))
    return bytes.withUnsafeMutableBytes { data in
      control.withUnsafeMutableBytes { controlBytes in
        var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
        return withUnsafeMutablePointer(to: &vector) { vectorPointer in
          var message = msghdr()
          message.msg_iov = vectorPointer
          message.msg_iovlen = 1
          message.msg_control = controlBytes.baseAddress
          message.msg_controllen = controlBytes.count
          notify_cmsg_put_rights(&message, descriptor)
          return sendmsg(fd, &message, 0) == data.count
        }
      }
    }
  }

  static func receiveDescriptor(_ fd: Int32) -> Int32 {
    var byte: UInt8 = 0
    var control = [UInt8](repeating: 0, count: 256)
    return withUnsafeMutableBytes(of: &byte) { data in
      control.withUnsafeMutableBytes { controlBytes in
        var vector = iovec(iov_base: data.baseAddress, iov_len: 1)
        return withUnsafeMutablePointer(to: &vector) { vectorPointer in
          var message = msghdr()
          message.msg_iov = vectorPointer
          message.msg_iovlen = 1
          message.msg_control = controlBytes.baseAddress
          message.msg_controllen = controlBytes.count
          guard readable(fd, withinMilliseconds: 10_000), recvmsg(fd, &message, 0) == 1 else { return -1 }
          var fds: [Int32] = [-1]
          let count = notify_cmsg_rights(controlBytes.baseAddress, Int32(message.msg_controllen), &fds, 1)
          return count == 1 ? fds[0] : -1
        }
      }
    }
  }
}

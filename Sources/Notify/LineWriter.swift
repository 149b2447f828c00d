import Foundation
import Glibc
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// Writes whole lines to a descriptor (the stdout sink's) without ever blocking past
/// `timeout`, and tells a reader that stopped reading (`stalled`) from one that went away
/// (`gone`).
///
/// The descriptor's own open file description is shared with the shell and whoever else
/// holds it, so its flags are left alone (`O_NONBLOCK` there would surprise them). Instead,
/// chosen at the first write:
/// - a socket (the journal's stream under systemd) is written with `send(MSG_DONTWAIT |
///   MSG_NOSIGNAL)`;
/// - a pipe, FIFO or terminal is opened again through `/proc/self/fd/N`, which gives a
///   description of its own, non-blocking, and waited on with `poll`;
/// - anything else (a file) is written as it is: it does not block on a reader.
///
/// A write that meets a reader who left (`EPIPE`) never raises SIGPIPE in the process: it is
/// blocked on this thread for the write and taken if it came. A line the reader took only
/// part of within `timeout` is owed: its rest goes out before the next line, which is
/// refused (`stalled`) until it has.
final class LineWriter {
  /// What came of a write that did not take the whole line.
  enum Problem: Error {
    /// The reader took nothing within the time allowed (the line may be tried again).
    case stalled(String)
    /// The reader is gone for good (`EPIPE`, a closed terminal): nothing more can be written.
    case gone(String)
  }

  /// The descriptor written to.
  let fd: Int32
  /// How long one line may wait for its reader.
  let timeout: TimeInterval
  private var target: Target?
  private var owed: [UInt8] = []

  private enum Target {
    case socket
    case reopened(Int32)
    case plain
  }

  init(fd: Int32, timeout: TimeInterval) {
    self.fd = fd
    self.timeout = timeout
  }

  deinit {
    if case .reopened(let own) = target { close(own) }
  }

  /// Writes `line` (its bytes, newline included). Returns once the reader has all of it, or
  /// has part of it and the rest is owed; throws `Problem` when it has none of it.
  func write(_ line: [UInt8]) throws(Problem) {
    _ = try write(lines: [line])
  }

  /// Writes `lines` with few `write(2)` calls: whole lines together, at most `PIPE_BUF`
  /// (4096) bytes a call, which a pipe takes whole or not at all, so that no line is cut
  /// where it could be avoided (a longer line goes alone, as `write(_:)` writes it). Returns
  /// how many the reader has, the last of them perhaps in part (the rest owed, as for one
  /// line); throws `Problem` when it has none of them.
  func write(lines: [[UInt8]]) throws(Problem) -> Int {
    let deadline = Date() + timeout
    if !owed.isEmpty {
      let written = try push(owed, until: deadline)
      owed.removeFirst(written)
      guard owed.isEmpty else {
        throw .stalled("its reader has not read for \(TimeText.seconds(timeout)) (a line is half written)")
      }
    }
    var taken = 0
    while taken < lines.count {
      var chunk = lines[taken]
      var count = 1
      while taken + count < lines.count, chunk.count + lines[taken + count].count <= Self.atomicWrite {
        chunk += lines[taken + count]
        count += 1
      }
      let written = try push(chunk, until: deadline)
      if written == chunk.count {
        taken += count
        continue
      }
      if written > 0 {
        // Started (a line longer than an atomic write): the reader has its beginning, and
        // gets the rest before anything else.
        owed = Array(chunk[written...])
        taken += 1
      }
      break
    }
    if taken == 0 {
      throw .stalled("its reader has not read for \(TimeText.seconds(timeout))")
    }
    return taken
  }

  /// `PIPE_BUF`: a write of at most this many bytes to a pipe is atomic.
  static let atomicWrite = 4096

  /// Writes what it can of `bytes` by `deadline`; returns how many went out.
  private func push(_ bytes: [UInt8], until deadline: Date) throws(Problem) -> Int {
    let target = try resolvedTarget()
    var offset = 0
    while offset < bytes.count {
      let result = bytes.withUnsafeBytes { raw in
        writeOnce(target, raw.baseAddress! + offset, raw.count - offset)
      }
      if result >= 0 {
        offset += result
        continue
      }
      let code = errno
      switch code {
      case EINTR:
        continue
      case EAGAIN, EWOULDBLOCK:
        let left = deadline.timeIntervalSinceNow
        if left <= 0 { return offset }
        wait(target, milliseconds: Int32(min(left * 1000 + 1, 60_000)))
      case ENOSPC, EDQUOT:
        // A full disk may clear: the line is tried again later.
        if offset == 0 { throw .stalled(String(cString: strerror(code))) }
        return offset
      default:
        throw .gone(Self.goneReason(code))
      }
    }
    return offset
  }

  private func writeOnce(_ target: Target, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    switch target {
    case .socket:
      return send(fd, pointer, count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
    case .reopened(let own):
      return Self.withoutSIGPIPE { Glibc.write(own, pointer, count) }
    case .plain:
      return Self.withoutSIGPIPE { Glibc.write(fd, pointer, count) }
    }
  }

  private func wait(_ target: Target, milliseconds: Int32) {
    var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    if case .reopened(let own) = target { entry.fd = own }
    _ = poll(&entry, 1, milliseconds)
  }

  /// Decides, at the first write, how to write without blocking (see the type's summary).
  private func resolvedTarget() throws(Problem) -> Target {
    if let target { return target }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .gone(Self.goneReason(errno)) }
    let kind = info.st_mode & S_IFMT
    let chosen: Target
    if kind == S_IFSOCK {
      chosen = .socket
    } else if kind == S_IFIFO || kind == S_IFCHR {
      let own = open("/proc/self/fd/\(fd)", O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
      if own >= 0 {
        chosen = .reopened(own)
      } else if errno == ENXIO {
        // A FIFO nobody reads any more.
        throw .gone("nobody reads it any more")
      } else {
        // No /proc: write as it is (a terminal may then block while it is stopped).
        chosen = .plain
      }
    } else {
      chosen = .plain
    }
    target = chosen
    return chosen
  }

  /// Runs `body` with SIGPIPE blocked on this thread, taking a SIGPIPE it raised, so that a
  /// reader who left makes `write` fail with `EPIPE` instead of ending the process (an
  /// embedding app keeps its own SIGPIPE disposition).
  private static func withoutSIGPIPE(_ body: () -> Int) -> Int {
    var pipeOnly = sigset_t()
    sigemptyset(&pipeOnly)
    sigaddset(&pipeOnly, SIGPIPE)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
    var pendingBefore = sigset_t()
    sigpending(&pendingBefore)
    let result = body()
    let code = errno
    if result < 0, code == EPIPE, sigismember(&pendingBefore, SIGPIPE) == 0 {
      var none = timespec(tv_sec: 0, tv_nsec: 0)
      _ = sigtimedwait(&pipeOnly, nil, &none)
    }
    pthread_sigmask(SIG_SETMASK, &previous, nil)
    errno = code
    return result
  }

  private static func goneReason(_ code: Int32) -> String {
    switch code {
    case EPIPE, ECONNRESET, ENOTCONN: "its reader went away (\(String(cString: strerror(code))))"
    case EBADF: "it is closed"
    case EIO: "its terminal is gone (\(String(cString: strerror(code))))"
    default: String(cString: strerror(code))
    }
  }
}

extension LineWriter {
  /// Short spellings of durations for messages (`1 s`, `0.5 s`).
  enum TimeText {
    static func seconds(_ value: TimeInterval) -> String {
      value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
  }
}

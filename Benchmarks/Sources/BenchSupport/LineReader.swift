import Foundation
import Glibc

/// Reads lines from a pipe, stamping each with the CLOCK_REALTIME instant its read
/// returned: the moment a sink's write reached the reader.
///
/// While reading, only bytes are copied and newlines counted; lines are decoded once the
/// count is reached. A burst of a thousand lines thus costs the reader little between two
/// reads, so the stamps of the later lines are not delayed by the reader's own work.
public final class LineReader {
  private let fd: Int32
  private var pending: [UInt8] = []

  /// Reads from `fd` (not closed here).
  public init(fd: Int32) { self.fd = fd }

  /// Lines until `count` have come or `deadline` (CLOCK_REALTIME seconds) passes.
  public func read(count: Int, deadline: Double) -> [(line: String, at: Double)] {
    let newline = UInt8(ascii: "\n")
    var bytes = pending
    bytes.reserveCapacity(1 << 20)
    // Each read: the bytes up to `end` had arrived `at`.
    var stamps: [(end: Int, at: Double)] = [(bytes.count, realNow())]
    var lines = bytes.reduce(0) { $0 + ($1 == newline ? 1 : 0) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while lines < count, realNow() < deadline {
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, Int32(max(1, (deadline - realNow()) * 1000))) > 0 else { continue }
      let n = Glibc.read(fd, &buffer, buffer.count)
      let at = realNow()
      if n <= 0 { break }
      for byte in buffer[..<n] where byte == newline { lines += 1 }
      bytes.append(contentsOf: buffer[..<n])
      stamps.append((bytes.count, at))
    }
    var out: [(String, Double)] = []
    out.reserveCapacity(lines)
    var start = 0
    var read = 0
    for (i, byte) in bytes.enumerated() where byte == newline {
      while stamps[read].end <= i { read += 1 }
      out.append((String(decoding: bytes[start..<i], as: UTF8.self), stamps[read].at))
      start = i + 1
    }
    pending = Array(bytes[start...])
    return out
  }
}

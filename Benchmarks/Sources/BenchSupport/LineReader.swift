import Foundation
import Glibc

/// Reads lines from a pipe, stamping each with the CLOCK_REALTIME instant its read
/// returned: the moment a sink's write reached the reader.
public final class LineReader {
  private let fd: Int32
  private var pending: [UInt8] = []

  /// Reads from `fd` (not closed here).
  public init(fd: Int32) { self.fd = fd }

  /// Lines until `count` have come or `deadline` (CLOCK_REALTIME seconds) passes.
  public func read(count: Int, deadline: Double) -> [(line: String, at: Double)] {
    var out: [(String, Double)] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while out.count < count, realNow() < deadline {
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, Int32(max(1, (deadline - realNow()) * 1000))) > 0 else { continue }
      let n = Glibc.read(fd, &buffer, buffer.count)
      let at = realNow()
      if n <= 0 { break }
      pending += buffer[..<n]
      while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        out.append((String(decoding: pending[..<newline], as: UTF8.self), at))
        pending.removeSubrange(...newline)
      }
    }
    return out
  }
}

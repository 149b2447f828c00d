import Dispatch
import Foundation

/// Reads lines from a file descriptor as an `AsyncThrowingStream`, driven by a Dispatch
/// read source: no thread blocks in `read`, and ending the iteration cancels the source.
enum LineReader {
  /// The lines of `fd` (without `\n` or `\r\n`) until end of file. `onCancel` runs once
  /// the source has let go of `fd`: the only safe moment to close it.
  static func lines(of fd: Int32, onCancel: @escaping @Sendable () -> Void = {}) -> AsyncThrowingStream<
    String, any Error
  > {
    reader(of: fd, onCancel: onCancel).lines
  }

  /// `lines(of:onCancel:)`, with a way to end the stream from outside (`stop`): for a
  /// socket whose end of file may never be reported once it was shut down.
  static func reader(of fd: Int32, onCancel: @escaping @Sendable () -> Void = {}) -> (
    lines: AsyncThrowingStream<String, any Error>, stop: @Sendable () -> Void
  ) {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: String.self)
    let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: DispatchQueue(label: "line-reader"))
    let state = ReaderState()
    // A non-blocking descriptor (the IRC socket) is read until it has nothing more: data
    // and the end of file that arrive together make one event, and a reader that took only
    // the data would never hear the end (the client then never left the server). A
    // blocking one (a terminal or a pipe on stdin) gets one read per event.
    let drains = fcntl(fd, F_GETFL) & O_NONBLOCK != 0
    source.setEventHandler {
      var chunk = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count > 0 {
          for line in state.append(chunk[..<count]) { continuation.yield(line) }
          if drains { continue }
        } else if count == 0 {
          if let last = state.remainder() { continuation.yield(last) }
          continuation.finish()
          source.cancel()
        } else if errno == EINTR {
          continue
        } else if errno != EAGAIN {
          continuation.finish(throwing: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
          source.cancel()
        }
        return
      }
    }
    source.setCancelHandler(handler: onCancel)
    // Dispatch sources are thread-safe to cancel, but not marked Sendable.
    nonisolated(unsafe) let cancellable = source
    continuation.onTermination = { _ in cancellable.cancel() }
    source.resume()
    return (stream, { continuation.finish() })
  }
}

/// The bytes of a line not yet ended; touched only on the reader's serial queue.
private final class ReaderState: @unchecked Sendable {
  private var pending: [UInt8] = []

  func append(_ bytes: ArraySlice<UInt8>) -> [String] {
    pending += bytes
    var lines: [String] = []
    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
      var line = pending[..<newline]
      if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
      lines.append(String(decoding: line, as: UTF8.self))
      pending.removeSubrange(...newline)
    }
    return lines
  }

  func remainder() -> String? {
    defer { pending.removeAll() }
    return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self)
  }
}

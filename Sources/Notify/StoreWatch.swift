import Dispatch
import Foundation

/// Calls back when another process commits to the store: an inotify watch on the store's
/// folder for writes to the database and its WAL, read by a Dispatch source so no thread
/// blocks. This is how the firing service hears about `notify schedule` in a terminal.
final class StoreWatch: @unchecked Sendable {
  private let source: (any DispatchSourceRead)?

  /// Watches the store at `path`; `changed` runs on a background queue, possibly often.
  init(path: String, changed: @escaping @Sendable () -> Void) {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    let name = url.lastPathComponent
    let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)
    guard fd >= 0, inotify_add_watch(fd, folder, mask) >= 0 else {
      if fd >= 0 { close(fd) }
      source = nil
      return
    }
    let source = DispatchSource.makeReadSource(
      fileDescriptor: fd, queue: DispatchQueue(label: "notify.store-watch"))
    source.setEventHandler {
      if StoreWatch.drain(fd, matching: name) { changed() }
    }
    source.setCancelHandler { close(fd) }
    source.resume()
    self.source = source
  }

  /// Whether the watch is active (inotify may be unavailable or out of watches).
  var isActive: Bool { source != nil }

  /// Stops watching.
  func cancel() { source?.cancel() }

  deinit { source?.cancel() }

  /// Reads every pending event; true when one concerns `notify.db`, `notify.db-wal`, ...
  private static func drain(_ fd: Int32, matching name: String) -> Bool {
    var matched = false
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      guard count > 0 else { return matched }
      var offset = 0
      let headerSize = MemoryLayout<inotify_event>.size
      while offset + headerSize <= count {
        let length = buffer.withUnsafeBytes { raw in
          Int(raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self).len)
        }
        let nameBytes = buffer[(offset + headerSize)..<min(count, offset + headerSize + length)]
        let eventName = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
        if eventName.hasPrefix(name) { matched = true }
        offset += headerSize + length
      }
    }
  }
}

import Foundation
import NotifyCore

/// What one cancelling transaction learns of firers' hand-offs from their journals
/// (`HandOffJournal`). An occurrence whose hand-off lock a firer holds is being handed over:
/// the cancel leaves it to that firer, as it leaves those the journal lists as shown.
/// Otherwise the cancel takes a shared lock on it, kept until `release()` after the commit,
/// so that a firer starting that hand-off waits for the cancel and then finds its claim
/// gone (`keepClaim`, `keepHeld`).
final class HandOffProbes {
  private var journals: [String: Int32] = [:]

  /// Whether the owner of the journal at `path` is handing `entry` over now, or has handed
  /// it over (its line): either way not the cancel's. A missing journal lists nothing.
  func isHandedOver(_ entry: HandOffJournal.Entry, journal path: String) -> Bool {
    guard let fd = opened(path) else { return false }
    guard HandOffJournal.lock(fd, F_RDLCK, entry, wait: false) else { return true }
    // Read after the lock: a line written before it is there.
    let text = String(decoding: Self.contents(fd), as: UTF8.self)
    switch entry {
    case .claim(let key): return HandOffJournal.handOffs(in: text)[key] != nil
    case .held(let seq): return HandOffJournal.releases(in: text)[seq] != nil
    }
  }

  private func opened(_ path: String) -> Int32? {
    if let fd = journals[path] { return fd }
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else { return nil }
    journals[path] = fd
    return fd
  }

  private static func contents(_ fd: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(bytes.count)) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return bytes }
      bytes += chunk[..<count]
    }
  }

  /// The transaction committed (or rolled back): firers may start these hand-offs again.
  func release() {
    for fd in journals.values { close(fd) }
    journals = [:]
  }

  deinit { release() }
}

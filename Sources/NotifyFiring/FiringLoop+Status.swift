import CSystemd
import Foundation
import Glibc
import NotifyCore

/// The loop's status reports and the inotify watch on the store.
extension FiringLoop {
  /// WATCHDOG=1 between deliveries of a long batch, at most every quarter interval.
  func pingWatchdog() {
    guard let interval = watchdogInterval else { return }
    let now = Date()
    if now.timeIntervalSince(lastWatchdogPing) >= interval / 4 {
      lastWatchdogPing = now
      notifier.watchdog()
    }
  }

  /// STATUS= when the pending count or the next instant changed.
  func updateStatus() {
    guard notifier.isActive else { return }
    let line = statusLine()
    if line != lastStatus {
      lastStatus = line
      notifier.status(line)
    }
  }

  /// `3 pending, next at 2026-11-22T08:00:00Z; delivering to desktop`.
  func statusLine() -> String {
    // The firer's outlook as its last transaction left it: no read of its own while the
    // store is unchanged since, so a status line costs the store nothing.
    let outlook = try? firer.currentOutlook()
    let count = outlook?.pending ?? (try? pendingCount?()).flatMap { $0 }
    let next = outlook.map { $0.next?.instant }
    let pending = count.map { "\($0) pending" } ?? "running"
    let sink = hooks.deliveringTo.map { "; delivering to \($0())" } ?? ""
    guard let next = next.flatMap({ $0 }) else { return "\(pending), nothing scheduled\(sink)" }
    return "\(pending), next at \(RFC3339.string(from: next))\(sink)"
  }

  /// inotify on the store's folder, filtered to the store's own files: the database,
  /// its `-wal` and `-journal`. Every commit by any process changes one of them; the
  /// loop's own commits are told apart by `PRAGMA data_version`. Because inotify reports
  /// the WAL write a moment before SQLite publishes the commit, an event that looks like
  /// the loop's own is looked at once more, `recheckDelay` later.
  func watchStore(_ path: String, on loop: EventLoop) throws(NotifyError) -> [AnyObject] {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    let base = url.lastPathComponent
    let names: Set<String> = [base, base + "-wal", base + "-journal"]
    let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE)
    // The file the loop fires from: a store deleted or replaced under it (restored from a
    // backup, moved away) would otherwise go on firing from the unlinked file and never see
    // what is scheduled into the new one.
    let opened = Self.fileIdentity(path)
    // The recheck timer, weakly: it calls `look`, which re-arms it.
    let recheck = WeakSource()
    // How many looks in a row found another process writing.
    var writing = 0
    let look = { [unowned self] (lookAgain: Bool) in
      // Another process mid-write (a WAL restarted by its first write, frames not yet
      // committed): what it writes cannot be read yet. Look again once it is done, with the
      // change not taken, so that its commit is read once, not a restart and then a commit.
      // For a second at most: a transaction held open longer (a stuck writer) must not
      // keep the firer from what was committed before it.
      if writing < Self.writingLooks, self.firer.store.othersAreWriting() {
        writing += 1
        try? recheck.source?.arm(at: self.clock.now() + Self.writingRecheckDelay(after: writing))
        return
      }
      writing = 0
      if (try? self.firer.store.changedByOthers()) ?? true {
        self.firer.storeChanged()
        self.storeChangedByOthers = true
        self.requestWake()
      }
      // inotify merges a write into the event of an earlier one still unread: one event
      // may stand for a published commit and another not yet published. Looked at again
      // once, whatever this look found.
      if lookAgain { try? recheck.source?.arm(at: self.clock.now() + Self.recheckDelay) }
    }
    let timer = try loop.addRealtimeTimer { look(false) }
    recheck.source = timer
    let watch = try loop.addInotify(path: folder, mask: mask) { [unowned self] name in
      guard names.contains(name) else { return }
      if name == base, let opened, Self.fileIdentity(path) != opened {
        self.storeReplaced(path)
        return
      }
      look(true)
    }
    return [watch, timer]
  }

  /// How long after the `count`th look in a row that found another process writing the
  /// store it is looked at again: 1 ms, doubling to `recheckDelay`.
  static func writingRecheckDelay(after count: Int) -> TimeInterval {
    min(recheckDelay, 0.001 * Double(1 << min(count - 1, 10)))
  }

  /// How many looks in a row wait for another process's write: 1, 2, 4 ... 32 ms, then
  /// every 50 ms, about a second in all (a write held up on a loaded machine); the next
  /// takes the change as it is.
  static let writingLooks = 25

  /// The device and inode of the file at `path`, nil when there is none.
  static func fileIdentity(_ path: String) -> [UInt64]? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return [UInt64(info.st_dev), UInt64(info.st_ino)]
  }

  /// The store file was deleted or replaced: stop with an error (exit 75 for the daemon),
  /// so that systemd starts it again on the file now at the path.
  func storeReplaced(_ path: String) {
    logger.error(
      "the store \(Escaper.visible(path)) was deleted or replaced while running; stopping so that a restart opens the file now there"
    )
    control.shared.withLock { $0.storeWasReplaced = true }
    loop?.exit(Self.storeReplacedExitCode)
  }

  static let storeReplacedExitCode = NotifyError.Kind.temporary.rawValue

  /// How long after a store event that looked like the loop's own it is looked at again.
  static let recheckDelay: TimeInterval = 0.05
}

/// An event source held weakly, by a closure the source itself calls.
final class WeakSource {
  weak var source: EventSource?
}

import CSystemd
import Foundation
import Glibc
import NotifyCore

/// The daemon's status reports and the inotify watch on the store.
extension FiringDaemon {
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

  /// `3 pending, next at 2026-11-22T08:00:00Z`.
  func statusLine() -> String {
    let count = (try? pendingCount?()).flatMap { $0 }
    let next = try? firer.store.nextFireDate(localZone: clock.localZone)
    let pending = count.map { "\($0) pending" } ?? "running"
    guard let next = next.flatMap({ $0 }) else { return "\(pending), nothing scheduled" }
    return "\(pending), next at \(RFC3339.string(from: next))"
  }

  /// inotify on the store's folder, filtered to the store's own files: the database,
  /// its `-wal` and `-journal`. Every commit by any process changes one of them.
  func watchStore(_ path: String, on loop: EventLoop) throws(NotifyError) -> EventSource {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    let base = url.lastPathComponent
    let names: Set<String> = [base, base + "-wal", base + "-journal"]
    let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE)
    return try loop.addInotify(path: folder, mask: mask) { [unowned self] name in
      if names.contains(name) { self.requestRearm() }
    }
  }
}

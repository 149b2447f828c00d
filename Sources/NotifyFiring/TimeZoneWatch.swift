import CSystemd
import Glibc
import NotifyCore

/// Tells the loop when the system time zone changes, for `local` wall-clock
/// notifications (SPEC.md §2): an inotify watch on `/etc/localtime` itself (the link,
/// not its target), so that nothing else in `/etc` wakes the daemon.
///
/// Tools replace the link (`timedatectl` renames a new one over it), which ends the
/// watch on the old one; the watch then moves to the new link. While there is no
/// `/etc/localtime` at all, the folder is watched for it to appear.
final class TimeZoneWatch {
  private let loop: EventLoop
  private let path: String
  private let onChange: () -> Void
  private var source: EventSource?

  /// Watches `path` (default `/etc/localtime`) on `loop`.
  init(loop: EventLoop, path: String = "/etc/localtime", onChange: @escaping () -> Void) {
    self.loop = loop
    self.path = path
    self.onChange = onChange
    watch()
  }

  private func watch() {
    source = nil
    let linkMask = UInt32(
      IN_DONT_FOLLOW | IN_ATTRIB | IN_MODIFY | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF)
    if let link = try? loop.addInotify(path: path, mask: linkMask, { [unowned self] _ in self.changed() }) {
      source = link
      return
    }
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    let name = String(path[(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)...])
    let folderMask = UInt32(IN_ONLYDIR | IN_CREATE | IN_MOVED_TO)
    source = try? loop.addInotify(path: folder.isEmpty ? "/" : folder, mask: folderMask) {
      [unowned self] file in
      if file == name { self.changed() }
    }
  }

  private func changed() {
    onChange()
    // The link may have been replaced: follow the new one (or wait for it to appear).
    watch()
  }
}

import CSystemd
import Glibc
import NotifyCore
import NotifyZones

/// Tells the loop when a zone file in use changes: a `tzdata` update, or a zone compiled
/// again with `zic`. Both write a new file and rename it over the old one (or link it), so
/// the folders holding the files are watched, for those names only; a watch on the old
/// file would end with it.
final class ZoneDataWatch {
  private let loop: EventLoop
  private let onChange: () -> Void
  private var watched: Set<String> = []
  private var sources: [EventSource] = []

  /// A watch on `loop` over no files yet; `update(files:)` gives it some.
  init(loop: EventLoop, onChange: @escaping () -> Void) {
    self.loop = loop
    self.onChange = onChange
  }

  /// Watches `files` (absolute paths, links resolved) from now on.
  func update(files: Set<String>) {
    guard files != watched else { return }
    watched = files
    sources = []
    var namesByFolder: [String: Set<String>] = [:]
    for file in files {
      guard let slash = file.lastIndex(of: "/") else { continue }
      let folder = slash == file.startIndex ? "/" : String(file[..<slash])
      namesByFolder[folder, default: []].insert(String(file[file.index(after: slash)...]))
    }
    let mask = UInt32(IN_ONLYDIR | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_ATTRIB)
    for (folder, names) in namesByFolder {
      if let source = try? loop.addInotify(
        path: folder, mask: mask,
        { [unowned self] name in
          if names.contains(name) { self.onChange() }
        })
      {
        sources.append(source)
      }
    }
  }

  /// The zone files `clock`'s zones were read from: the database's files in use and the
  /// file `/etc/localtime` leads to.
  static func files(of clock: any NotifyClock, localtime: String = "/etc/localtime") -> Set<String> {
    var files = (clock.zones.database as? TZDatabase)?.filesInUse ?? []
    if let resolved = realpath(localtime, nil) {
      files.insert(String(cString: resolved))
      free(resolved)
    }
    return files
  }
}

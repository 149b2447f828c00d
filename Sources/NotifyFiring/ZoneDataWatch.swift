import CSystemd
import Glibc
import NotifyCore
import NotifyZones

/// Tells the loop when zone data changes: a `tzdata` update, or a zone compiled again with
/// `zic`. Both write new files and rename them over the old ones, so folders are watched,
/// not files (a watch on a file would end with it): every folder of the zone database
/// (any change there may concern a zone some notification names, read or not yet), and
/// the folder of the file `/etc/localtime` leads to, for that name only.
///
/// A change sets the loop recomputing every wall-clock notification, which is a read when
/// nothing moved; a `tzdata` update's burst of renames is coalesced by the loop's wake-up.
final class ZoneDataWatch {
  private let loop: EventLoop
  private let folder: String
  private let localtime: String
  private let onChange: () -> Void
  private var sources: [EventSource] = []
  /// What is watched: folder → the names that count there (nil: every name).
  private var watched: [String: Set<String>?] = [:]
  private var needsRescan = true

  /// Watches the database under `folder` and the target of `localtime`, on `loop`.
  init(
    loop: EventLoop, folder: String = TZDatabase.defaultFolder(), localtime: String = "/etc/localtime",
    onChange: @escaping () -> Void
  ) {
    self.loop = loop
    self.folder = folder
    self.localtime = localtime
    self.onChange = onChange
    update()
  }

  /// Brings the watches up to date: after a change (a new folder may have appeared) and
  /// when `/etc/localtime` leads elsewhere. Cheap when nothing changed.
  func update() {
    var wanted: [String: Set<String>?] = [:]
    if needsRescan {
      for path in Self.folders(under: folder) { wanted[path] = .some(nil) }
    } else {
      for (path, names) in watched where names == nil { wanted[path] = .some(nil) }
    }
    needsRescan = false
    if let resolved = realpath(localtime, nil) {
      let file = String(cString: resolved)
      free(resolved)
      if let slash = file.lastIndex(of: "/") {
        let parent = slash == file.startIndex ? "/" : String(file[..<slash])
        let name = String(file[file.index(after: slash)...])
        if wanted[parent] == nil { wanted[parent] = .some([name]) }
      }
    }
    guard wanted != watched else { return }
    watched = wanted
    sources = []
    let mask = UInt32(
      IN_ONLYDIR | IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_DELETE | IN_ATTRIB)
    for (path, names) in wanted {
      if let source = try? loop.addInotify(
        path: path, mask: mask,
        { [unowned self] name in
          guard names?.contains(name) ?? true else { return }
          self.needsRescan = true
          self.onChange()
        })
      {
        sources.append(source)
      }
    }
  }

  /// `root` and every folder below it (links not followed), at most 4096 of them.
  static func folders(under root: String) -> [String] {
    var found: [String] = []
    var queue = [root]
    while let current = queue.popLast(), found.count < 4096 {
      guard let handle = opendir(current) else { continue }
      found.append(current)
      while let entry = readdir(handle) {
        let name = withUnsafePointer(to: entry.pointee.d_name) {
          String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
        }
        guard name != ".", name != ".." else { continue }
        if entry.pointee.d_type == UInt8(DT_DIR) { queue.append(current + "/" + name) }
      }
      closedir(handle)
    }
    return found
  }
}

import Foundation

extension AttachmentFolder {
  /// Removes every named copy not in `inUse` (absolute paths), every hidden one older than
  /// `abandonedAfter`, and the app folders left empty; names a hidden copy the store names
  /// already (its notification was stored, and the process that kept it stopped before it
  /// named it). Returns how many copies went.
  @discardableResult
  public func sweep(keeping inUse: Set<String>, now: Date = Date()) -> Int {
    sweep(now: now) { inUse }
  }

  /// `sweep(keeping:)` with what is in use read by `inUse` after the folder was listed: a
  /// copy is named only after the notification naming it was stored, so every named copy
  /// listed before the read is in what it returns unless nothing uses it any more. (Read
  /// the other way round, a copy named in between was taken for unused.) Nil from `inUse`
  /// (the store could not be read) removes nothing.
  @discardableResult
  public func sweep(now: Date = Date(), inUse: () -> Set<String>?) -> Int {
    guard let apps = try? FileManager.default.contentsOfDirectory(atPath: path) else { return 0 }
    var listed: [(folder: String, names: [String])] = []
    for app in apps {
      let folder = path + "/" + app
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
      listed.append((folder, names))
    }
    guard let inUse = inUse() else { return 0 }
    var removed = 0
    for (folder, names) in listed {
      for name in names {
        let file = folder + "/" + name
        if name.hasPrefix("~") {
          let named = folder + "/" + name.dropFirst()
          if inUse.contains(named) {
            rename(file, named)
            continue
          }
          var info = stat()
          guard lstat(file, &info) == 0,
            now.timeIntervalSince1970 - TimeInterval(info.st_mtim.tv_sec) > Self.abandonedAfter
          else { continue }
        } else if inUse.contains(file) {
          continue
        }
        if unlink(file) == 0 { removed += 1 }
      }
      // (A keep that finds its folder gone makes it again.)
      rmdir(folder)
    }
    return removed
  }
}

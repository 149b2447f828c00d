import Foundation
import GRDB
import NotifyCore

/// The store's file-system side: private folders and files.
enum StoreFiles {
  /// The path SQLite is given: always a file path, never an SQLite name (`:memory:`) or URI
  /// (`file:...?mode=memory`): a relative path is made absolute, so both name files.
  static func filePath(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    return FileManager.default.currentDirectoryPath + "/" + path
  }

  /// The rules every store file follows (SPEC.md §9), checked before SQLite touches the
  /// file: not a symbolic link, owned by this user, mode 0600 (set when it is not), in a
  /// folder of this user's at 0700 (set likewise), its `-wal` and `-shm` at 0600 too. Only
  /// `stat` and `chmod`: no descriptor of the store is opened here (closing one would drop
  /// this process's SQLite locks on it).
  static func secure(path: String) throws(NotifyError) {
    let shown = Escaper.visible(path)
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    guard info.st_mode & S_IFMT != S_IFLNK else {
      throw NotifyError(
        .ioError, "the store \(shown) is a symbolic link",
        fix: "give the real path of the store (\(term: .storePath)); notify does not follow links to it")
    }
    guard info.st_mode & S_IFMT == S_IFREG else { return }  // a folder: reported as it is opened
    guard info.st_uid == getuid() else {
      throw NotifyError(
        .ioError, "the store \(shown) belongs to another user (uid \(info.st_uid))",
        fix: "use a store of your own (\(term: .storePath)); notify never uses another user's")
    }
    if info.st_mode & 0o777 != 0o600 { chmod(path, 0o600) }
    // The WAL and its index outlive every process now (no checkpoint on close), so they
    // are held to the same mode rather than made anew from the store's.
    for companion in [path + "-wal", path + "-shm"] {
      var companionInfo = stat()
      if lstat(companion, &companionInfo) == 0, companionInfo.st_mode & S_IFMT == S_IFREG,
        companionInfo.st_uid == getuid(), companionInfo.st_mode & 0o777 != 0o600
      {
        chmod(companion, 0o600)
      }
    }
    let folder = (path as NSString).deletingLastPathComponent
    var folderInfo = stat()
    if !folder.isEmpty, stat(folder, &folderInfo) == 0, folderInfo.st_uid == getuid(),
      folderInfo.st_mode & 0o077 != 0, folder.hasSuffix("/notify") || folderOnlyHoldsStore(folder)
    {
      chmod(folder, 0o700)
    }
  }

  /// Whether `folder` holds nothing but this store's files (so making it 0700 takes
  /// nothing from anyone): a folder shared with other files is left as it is.
  private static func folderOnlyHoldsStore(_ folder: String) -> Bool {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return false }
    let store = names.filter { !$0.hasPrefix(".") }
    return !store.isEmpty && store.allSatisfy { $0.contains(".db") || $0.hasSuffix(".lock") }
  }

  /// Refuses a database that has tables but not notify's first migration: another
  /// program's. Run on the store's own connection as it opens, before anything is written
  /// (a second descriptor of the file, opened and closed here, would drop this process's
  /// SQLite locks on it). A store is never caught half made: new ones are linked in whole.
  static func checkIsNotifyStore(_ db: Database, path: String) throws {
    let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
    guard !tables.isEmpty else { return }
    var isNotify = false
    if tables.contains("grdb_migrations") {
      isNotify =
        try Bool.fetchOne(
          db, sql: "SELECT EXISTS (SELECT 1 FROM grdb_migrations WHERE identifier = ?)",
          arguments: [StoreSchema.first]) ?? false
    }
    guard isNotify else {
      throw NotifyError(
        .ioError, "\(Escaper.visible(path)) is an SQLite database of another program, not a notify store",
        fix: "point \(term: .storePath) at a notify store or a new file; this one was left untouched")
    }
  }

  /// Creates the folder (0700) when absent, and holds an existing store to the store's
  /// rules (`secure`): a file that is not a store is refused, never replaced. A store that
  /// is not there is made by `StoreCreator`, never here as an empty file.
  static func prepare(path: String) throws(NotifyError) {
    let folder = (path as NSString).deletingLastPathComponent
    if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
      // The folders made here are made durable too: a store linked into a folder whose own
      // name never reached the disk would be lost with it in a power cut.
      var missing: [String] = []
      var level = folder
      while !level.isEmpty, level != "/", !FileManager.default.fileExists(atPath: level) {
        missing.append(level)
        level = (level as NSString).deletingLastPathComponent
      }
      do {
        try FileManager.default.createDirectory(
          atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw NotifyError(
          .ioError, "cannot create the store folder \(Escaper.visible(folder))",
          fix: "check the permissions of its parent")
      }
      for made in missing.reversed() { syncFolder((made as NSString).deletingLastPathComponent) }
    }
    // An existing store is never opened here: closing any descriptor of a file drops every
    // POSIX lock this process holds on it, SQLite's included.
    try secure(path: path)
    var info = stat()
    if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
      throw NotifyError(
        .ioError, "cannot open the store \(Escaper.visible(path)): Is a directory",
        fix: "check the path and its permissions"
      )
    }
  }

  /// The size and time of last change of the file at `path` (empty when there is none):
  /// whether it was written since, without opening it.
  static func stamp(_ path: String) -> [Int] {
    var info = stat()
    guard stat(path, &info) == 0 else { return [] }
    return [Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
  }

  /// Makes the names in `folder` durable (`fsync` of the folder). Best effort: a folder that
  /// cannot be opened for it is one nothing could be made in either.
  static func syncFolder(_ folder: String) {
    let fd = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    fsync(fd)
    close(fd)
  }

  /// Whether anything is at `path` (a link included: `secure` refuses those).
  static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }
}

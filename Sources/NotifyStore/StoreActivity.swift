import CSQLite
import Foundation

/// What other processes visibly do to a store, as one look sees it. A wait for them
/// (`ProgressWait`) goes on while two looks differ: the WAL grew or restarted, a checkpoint
/// copied frames, the store or a file of a creator was written, or the lock changed hands.
///
/// Looks never open and close a descriptor of the store's files: closing one drops every
/// POSIX lock this process holds on the file, SQLite's own included (sqlite.org/
/// howtocorrupt.html, 2.2). Files are looked at by path (`stat`), the WAL index through
/// SQLite's own mapping, the write lock's holder through `WALWriteLock`'s one descriptor
/// (`F_GETLK`, which asks the file alone, never the machine's lock table).
struct StoreActivity: Sendable, Equatable {
  /// The WAL index header (its change counter, frame count `mxFrame`, salts and checksums,
  /// sqlite.org/walformat.html) and the checkpoint's count of copied frames (`nBackfill`),
  /// as SQLite maps them; empty when not read.
  var walIndex: [UInt8] = []
  /// The size and time of change of each file looked at (`StoreFiles.stamp`, empty for one
  /// that is not there), by path.
  var files: [String: [Int]] = [:]
  /// The process holding SQLite's write lock (SQLite's waits only); nil when it is free,
  /// held by this process (another connection of it), or cannot be told.
  var holder: Int32?

  /// Whether this look, after `earlier`, shows progress by others. A lock taken by another
  /// process than before counts, and so does one taken again after it was seen free; a lock
  /// let go does not by itself (the waiter tries again at once, and finds it free or taken).
  func showsProgress(since earlier: StoreActivity) -> Bool {
    walIndex != earlier.walIndex || files != earlier.files || (holder != nil && holder != earlier.holder)
  }
}

extension StoreActivity {
  /// Bytes 0-47 of the WAL index (the header) and 96-99 (`nBackfill`).
  private static let walIndexBytes = 100

  /// What SQLite's busy handler sees of the store at `path`: its WAL index (read through
  /// `mainFile`, the connection's own mapping, when the connection is in WAL mode), its
  /// files, and who holds its WAL write lock.
  static func ofSQLite(store path: String, mainFile: UnsafeMutablePointer<sqlite3_file>?) -> StoreActivity {
    var activity = StoreActivity()
    if let mainFile {
      var bytes = [UInt8](repeating: 0, count: walIndexBytes)
      let status = bytes.withUnsafeMutableBufferPointer { buffer in
        notify_sqlite_wal_index_copy(mainFile, buffer.baseAddress, Int32(buffer.count))
      }
      if status == 0 { activity.walIndex = Array(bytes[0..<48] + bytes[96..<100]) }
    }
    activity.files = storeFiles(path)
    activity.holder = WALWriteLock.holder(store: path)
    return activity
  }

  /// What a waiter for the migration lock sees: the store's files (a migration writes
  /// them) and those of creators building a new store beside it (`StoreCreator`). Not who
  /// holds the lock: `flock` locks show only in `/proc/locks`, and reading it takes the
  /// kernel's lock table for writing (`file_rwsem`), which stalls every file lock of every
  /// process on the machine, SQLite's among them, while it is read. It is read once, to name
  /// the holder of a wait that gave up (`StoreBusy`).
  static func ofMigration(store path: String) -> StoreActivity {
    var activity = StoreActivity()
    activity.files = storeFiles(path)
    let folder = (path as NSString).deletingLastPathComponent
    let prefix = StoreCreator.temporaryPrefix(of: (path as NSString).lastPathComponent)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
    for name in names where name.hasPrefix(prefix) {
      let file = folder.isEmpty ? name : folder + "/" + name
      activity.files[file] = StoreFiles.stamp(file)
    }
    return activity
  }

  /// The stamps of the store at `path` and of its WAL and rollback journal.
  private static func storeFiles(_ path: String) -> [String: [Int]] {
    var files: [String: [Int]] = [:]
    for file in [path, path + "-wal", path + "-journal"] { files[file] = StoreFiles.stamp(file) }
    return files
  }
}

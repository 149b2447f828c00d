import Foundation
import GRDB
import NotifyCore
import Synchronization

/// Makes a new store whole in a file of its own beside the store's path, then links it
/// into place, holding the migration lock: of the processes that find no store at once, one
/// builds and syncs it while the others wait (`StoreLock`: as long as the builder's files
/// keep changing) until it is in place, and then open it.
/// Nobody ever sees a half-made store, and a slow disk syncs one new store, not one per
/// creator.
enum StoreCreator {
  /// Creates the store at `path` unless another process does first (its waiters go on as
  /// soon as the store is linked into place, without the lock).
  static func create(at path: String, deadline: StoreDeadline) throws {
    try StoreLock.holding(
      path + ".lock", until: deadline, store: path, unlessDone: { StoreFiles.exists(path) }
    ) {
      guard !StoreFiles.exists(path) else { return }
      let folder = (path as NSString).deletingLastPathComponent
      let name = (path as NSString).lastPathComponent
      removeLeftovers(in: folder, of: name)
      var random = SystemRandomNumberGenerator()
      let temporary =
        "\(folder)/\(temporaryPrefix(of: name))\(getpid())-\(String(random.next() & 0xFFFF_FFFF, radix: 16))"
      let fd = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      guard fd >= 0 else { throw Self.failure("create", temporary) }
      close(fd)
      defer { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) } }
      try build(temporary)
      try syncFile(temporary)
      // `link` never replaces a store that appeared meanwhile (made without the lock, by a
      // process that could not create the lock file); a file system without hard links
      // gets a rename.
      if link(temporary, path) != 0 {
        switch errno {
        case EEXIST:
          return
        case EPERM, ENOTSUP, EOPNOTSUPP, EXDEV, EMLINK:
          guard rename(temporary, path) == 0 else { throw Self.failure("move into place", temporary) }
        default:
          throw Self.failure("link into place", temporary)
        }
      }
      StoreFiles.syncFolder(folder)
    }
  }

  /// The schema, in WAL mode, without syncs: the file is synced once, whole, before it is
  /// linked. Closing checkpoints the WAL into the file.
  private static func build(_ path: String) throws {
    var config = Configuration()
    config.label = "notify-create"
    config.prepareDatabase { db in
      try db.execute(sql: "PRAGMA synchronous = OFF")
      try db.execute(sql: "PRAGMA journal_mode = WAL")
    }
    let queue = try DatabaseQueue(path: path, configuration: config)
    try StoreSchema.migrator.migrate(queue)
    try queue.close()
    // Kept, closed, for the life of the process: releasing a GRDB queue disposes of its
    // dispatch queue on a dispatch worker thread, and the first worker thread starts
    // libdispatch's workqueue monitor on Linux, a 1 s timer that never stops; a daemon that
    // created its store would then wake once a second while idle, where it must make none.
    builders.withLock { $0.append(queue) }
  }

  /// How the names of a creator's files begin, for a store named `name`: the creator's pid
  /// and a random part follow (`.notify.db.new-1234-9f3a`, and its `-wal` beside it).
  static func temporaryPrefix(of name: String) -> String { ".\(name).new-" }

  /// The closed builder queues (`build`), one per store this process created.
  private static let builders = Mutex<[DatabaseQueue]>([])

  /// Removes the files of creators that died before they finished (named by their pid).
  private static func removeLeftovers(in folder: String, of name: String) {
    let prefix = temporaryPrefix(of: name)
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)
    else {
      return
    }
    for leftover in names where leftover.hasPrefix(prefix) {
      guard let pid = Int32(leftover.dropFirst(prefix.count).prefix { $0 != "-" }),
        kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      unlink("\(folder)/\(leftover)")
    }
  }

  private static func syncFile(_ path: String) throws {
    let fd = open(path, O_RDWR | O_CLOEXEC)
    guard fd >= 0 else { throw failure("open", path) }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw failure("sync", path) }
  }

  private static func failure(_ step: String, _ path: String) -> NotifyError {
    let reason = String(cString: strerror(errno))
    if errno == ENOSPC {
      return NotifyError(
        .ioError, "the disk holding \(Escaper.visible(path)) is full; no store was created",
        fix: "free some space and try again")
    }
    return NotifyError(
      .ioError, "cannot \(step) the new store \(Escaper.visible(path)): \(reason)",
      fix: "check that the store's folder is yours and writable")
  }
}

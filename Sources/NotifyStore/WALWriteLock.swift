import Glibc
import Synchronization

/// Whether another process holds a store's WAL write lock: the byte SQLite's unix VFS locks
/// with `fcntl` in the `-shm` file while a connection writes (`WALINDEX_LOCK_OFFSET` 120,
/// `WAL_WRITE_LOCK` 0: sqlite.org/walformat.html, "Locks"), asked with `F_GETLK`, which
/// takes no lock and writes nothing.
///
/// The `-shm` is opened once per path and never closed: closing any descriptor of a file
/// drops every POSIX lock the process holds on it, SQLite's own included (sqlite.org/
/// howtocorrupt.html, 2.2). A lock held by this process (another connection of it) does not
/// show: `F_GETLK` reports other processes' locks only.
enum WALWriteLock {
  /// The `-shm` descriptors opened so far, by path.
  private static let opened = Mutex<[String: Int32]>([:])

  /// True when another process holds the write lock of the store at `path` now; false
  /// when it does not, or when the `-shm` cannot be opened or asked.
  static func heldByOthers(store path: String) -> Bool { holder(store: path) != nil }

  /// The process holding the write lock of the store at `path` now: nil when it is free,
  /// held by this process, or the `-shm` cannot be opened or asked. One `fcntl`.
  static func holder(store path: String) -> Int32? {
    let shm = path + "-shm"
    let fd = opened.withLock { opened -> Int32 in
      if let fd = opened[shm] { return fd }
      let fd = open(shm, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
      if fd >= 0 { opened[shm] = fd }
      return fd
    }
    guard fd >= 0 else { return nil }
    var lock = flock()
    lock.l_type = Int16(F_WRLCK)
    lock.l_whence = Int16(SEEK_SET)
    lock.l_start = 120
    lock.l_len = 1
    guard fcntl(fd, F_GETLK, &lock) == 0, lock.l_type != Int16(F_UNLCK) else { return nil }
    return lock.l_pid
  }
}

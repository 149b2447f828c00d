import Foundation
import GRDB
import NotifyCore

/// The notify store: one SQLite file in WAL mode, shared by every process of the user
/// (CLI, daemon, fire-due, embedding apps). See SPEC.md §9.
///
/// Every public operation is one IMMEDIATE transaction, so concurrent processes
/// serialize on SQLite's write lock and the busy timeout (5 s) applies.
public final class SQLiteStore: @unchecked Sendable {
  // Safe: GRDB's `DatabaseQueue` serializes every access to the connection; the other
  // properties are immutable or lock-protected (`Locked`, `HandOffJournals`).
  /// The file path.
  public let path: String
  /// The GRDB connection (serialized; safe to share between threads).
  let queue: DatabaseQueue
  /// `PRAGMA data_version` as last read by `changedByOthers()`.
  let dataVersion = Locked(0)
  /// This connection's firers' hand-off journals.
  let handOffJournals = HandOffJournals()
  /// Who this connection is in history's `writer` column: the pid and a random part, so
  /// that two stores open in one process are told apart too.
  public let writer: String

  /// How long a writer waits for another process before giving up with exit 75.
  public static let busyTimeout: TimeInterval = 5

  /// The default store path: `$XDG_STATE_HOME/notify/notify.db` (`~/.local/state`).
  public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> String
  {
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      return state + "/notify/notify.db"
    }
    let home = environment["HOME"] ?? NSHomeDirectory()
    return home + "/.local/state/notify/notify.db"
  }

  /// Opens (creating when absent) the store at `path`, always as a file path (a relative
  /// one is made absolute). The folder is created 0700 and the file 0600, and an existing
  /// store is held to that (`StoreFiles.secure`); a symbolic link, another user's file, a
  /// file that is not a notify store (another program's database among them), a corrupt one
  /// or one from a newer notify is refused with exit 74 and left untouched.
  public init(path given: String) throws(NotifyError) {
    let path = StoreFiles.filePath(given)
    self.path = path
    var random = SystemRandomNumberGenerator()
    let writer = "\(getpid())-\(String(random.next() & 0xFFFF_FFFF, radix: 16))"
    self.writer = writer
    try StoreFiles.prepare(path: path)
    var config = Configuration()
    config.busyMode = .timeout(Self.busyTimeout)
    config.label = "notify"
    config.prepareDatabase { db in
      try StoreFiles.checkIsNotifyStore(db, path: path)
      // WAL lets readers and one writer work at once across processes.
      let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? ""
      if mode.lowercased() != "wal" {
        try db.execute(sql: "PRAGMA journal_mode = WAL")
      }
      try db.execute(sql: "PRAGMA synchronous = NORMAL")
      // History rows name their writer (HistoryWriter) without every caller passing it.
      db.add(function: DatabaseFunction("notify_writer", argumentCount: 0, pure: false) { _ in writer })
    }
    do {
      // Several processes may open a new store at once: switching it to WAL and migrating
      // both need the file to themselves, so opening is serialized by a lock file (held
      // for the open only, a few syscalls on an existing store).
      queue = try StoreFiles.withLock(path: path + ".lock", timeout: Self.busyTimeout) {
        let queue = try DatabaseQueue(path: path, configuration: config)
        try Self.migrate(queue, path: path)
        return queue
      }
    } catch let error as NotifyError {
      throw error
    } catch {
      throw StoreErrors.map(error, path: path)
    }
  }

  private static func migrate(_ queue: DatabaseQueue, path: String) throws {
    let migrator = StoreSchema.migrator
    let (done, superseded) = try queue.read { db in
      (try migrator.hasCompletedMigrations(db), try migrator.hasBeenSuperseded(db))
    }
    if superseded {
      throw NotifyError(
        .ioError, "the store \(Escaper.visible(path)) was written by a newer version of notify",
        fix: "upgrade notify, or point \(term: .storePath) at another file; the store was left untouched")
    }
    if !done { try migrator.migrate(queue) }
  }

  /// Runs `body` in one IMMEDIATE transaction, mapping SQLite failures to `NotifyError`.
  func write<T>(_ body: (Database) throws -> T) throws(NotifyError) -> T {
    try mappingErrors {
      try queue.writeWithoutTransaction { db in
        var result: T?
        try db.inTransaction(.immediate) {
          result = try body(db)
          return .commit
        }
        return result!
      }
    }
  }

  /// Runs `body` in a read transaction, mapping SQLite failures to `NotifyError`.
  func read<T>(_ body: (Database) throws -> T) throws(NotifyError) -> T {
    try mappingErrors { try queue.read(body) }
  }

  /// `read` for a body of one statement, which SQLite runs in a read transaction of its
  /// own: without GRDB's transaction and read-only switches around it (four statements
  /// more), for checks made once per hand-off.
  func readOneStatement<T>(_ body: (Database) throws -> T) throws(NotifyError) -> T {
    try mappingErrors { try queue.unsafeReentrantRead(body) }
  }

  /// `body`'s result, its failures as `NotifyError` (SQLite's mapped, naming the store).
  private func mappingErrors<T>(_ body: () throws -> T) throws(NotifyError) -> T {
    do {
      return try body()
    } catch let error as NotifyError {
      throw error
    } catch {
      throw StoreErrors.map(error, path: path)
    }
  }

  /// The schema this version writes: its last migration's name (`notify --version`).
  public static var schemaVersion: String { StoreSchema.latest }

  /// `PRAGMA integrity_check`: "ok" for a sound store.
  public func integrityCheck() throws(NotifyError) -> String {
    try read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "" }
  }
}

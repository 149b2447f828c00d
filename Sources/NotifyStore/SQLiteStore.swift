import CSQLite
import Foundation
import GRDB
import NotifyCore

/// The notify store: one SQLite file in WAL mode, shared by every process of the user
/// (CLI, daemon, fire-due, embedding apps). See SPEC.md §9.
///
/// Every public operation is one IMMEDIATE transaction, so concurrent processes
/// serialize on SQLite's write lock and the busy timeout (5 s unless set) applies: a wait
/// gives up once others made no progress for that long (`StoreBusyHandler`).
public final class SQLiteStore: @unchecked Sendable {
  // Safe: GRDB's `DatabaseQueue` serializes every access to the connection; the other
  // properties are immutable or lock-protected (`Locked`, `HandOffJournals`).
  /// The file path.
  public let path: String
  /// The GRDB connection (serialized; safe to share between threads).
  let queue: DatabaseQueue
  /// `PRAGMA data_version` as last read by `changedByOthers()`.
  let dataVersion = Locked(0)
  /// What lets `changedByOthers()` skip the read when nothing was committed since.
  let commitWatch = CommitWatch()
  /// The WAL's size and time of change when a checkpoint last copied all of it.
  let checkpointedWAL = Locked<[Int]>([])
  /// The connection's count of changed rows at its last `syncIfChanged()`.
  let syncedChanges = Locked(0)
  /// Whether outlooks count the pending notifications (`countPendingInOutlook()`).
  let countsPending = Locked(false)
  /// This connection's transactions, once counted (`countTransactions()`).
  let transactionCount = Locked(StoreTransactions())
  /// This connection's firers' hand-off journals.
  let handOffJournals = HandOffJournals()
  /// This connection's busy handler.
  let busyHandler: StoreBusyHandler
  /// Who this connection is in history's `writer` column: the pid and a random part, so
  /// that two stores open in one process are told apart too.
  public let writer: String

  /// How long an open or a write waits for other processes that make no progress (no
  /// write to the store, no lock changing hands) before giving up with exit 75, unless the
  /// opener says otherwise (`NOTIFY_BUSY_TIMEOUT` for the command). While they make
  /// progress it waits on, up to 10 times this.
  public static let defaultBusyTimeout: TimeInterval = 5

  /// This connection's busy timeout.
  public let busyTimeout: TimeInterval

  /// When a commit of this connection reaches the disk.
  public let durability: Durability

  /// When a commit reaches the disk: what an answer given after it promises.
  public enum Durability: Sendable {
    /// Each commit is on the disk before it returns, and before any process can read it
    /// (SQLite's `synchronous = FULL` in WAL mode: the WAL is synced before the commit is
    /// published in the WAL index). Whatever a caller is told after a write survives a power
    /// cut. The default.
    case eachCommit
    /// A commit is published at once and reaches the disk at the next `sync()`
    /// (`synchronous = NORMAL`): for a connection that answers many callers and makes
    /// their commits durable together, one sync for all, before it answers any of them
    /// (the D-Bus service's group commit).
    case whenSynced
  }

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
  ///
  /// Many processes open one store at once (GRDB's `DatabaseSharing.md`): a store that is
  /// there and current opens without any lock of notify's own; a new one is made whole in
  /// a file of its own by one process and linked into place (`StoreCreator`); only a new,
  /// old or half-made store takes the migration lock (`StoreLock`).
  /// Each wait of the open (the lock, SQLite's busy waits) gives up after `busyTimeout`
  /// without progress by others, and the whole open after 10 times it (`StoreDeadline`).
  public init(
    path given: String, busyTimeout: TimeInterval = SQLiteStore.defaultBusyTimeout,
    durability: Durability = .eachCommit
  ) throws(NotifyError) {
    let path = StoreFiles.filePath(given)
    self.path = path
    self.busyTimeout = busyTimeout
    self.durability = durability
    var random = SystemRandomNumberGenerator()
    let writer = "\(getpid())-\(String(random.next() & 0xFFFF_FFFF, radix: 16))"
    self.writer = writer
    let deadline = StoreDeadline(seconds: busyTimeout)
    let busyHandler = StoreBusyHandler(store: path, seconds: busyTimeout, opening: deadline)
    self.busyHandler = busyHandler
    try StoreFiles.prepare(path: path)
    var config = Configuration()
    config.busyMode = .timeout(busyTimeout)
    config.label = "notify"
    config.prepareDatabase { db in
      // A short process that closes last leaves the WAL for the next one: no checkpoint and
      // its syncs at every exit (the daemon checkpoints as it goes idle, `checkpointIfWritten()`).
      // Its commits are on the disk already (`durability`).
      notify_sqlite_no_checkpoint_on_close(db.sqliteConnection)
      // (captured here, the handler lives as long as the connection: GRDB keeps this
      // closure until after it closed the connection)
      busyHandler.install(on: db.sqliteConnection)
      try db.execute(
        sql: durability == .eachCommit ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
      // The WAL is cut back to this size whenever a checkpoint lets it start over.
      try db.execute(sql: "PRAGMA journal_size_limit = \(Self.walSizeLimit)")
      // History rows name their writer (HistoryWriter) without every caller passing it.
      db.add(function: DatabaseFunction("notify_writer", argumentCount: 0, pure: false) { _ in writer })
    }
    do {
      if !StoreFiles.exists(path) {
        try StoreCreator.create(at: path, deadline: deadline)
      }
      let queue = try DatabaseQueue(path: path, configuration: config)
      if try queue.read({ db in try StoreState.read(db, path: path) }) != .current {
        try StoreLock.holding(path + ".lock", until: deadline, store: path) {
          try StoreState.setUp(queue, path: path)
        }
      }
      try queue.inDatabase { db in busyHandler.opened(db.sqliteConnection) }
      self.queue = queue
    } catch let error as NotifyError {
      throw error
    } catch {
      throw StoreErrors.map(error, path: path, busyTimeout: busyTimeout, busyEnding: busyHandler.lastEnding)
    }
    // What each command costs the store, counted by anyone (`StoreTransactions`).
    if let trace = ProcessInfo.processInfo.environment["NOTIFY_STORE_TRACE"], !trace.isEmpty, trace != "0" {
      countTransactions(log: true)
    }
  }

  /// Runs `body` in one IMMEDIATE transaction, mapping SQLite failures to `NotifyError`.
  func write<T>(_ body: (Database) throws -> T) throws(NotifyError) -> T {
    try mappingErrors {
      try queue.writeWithoutTransaction { db in
        var result: T?
        // (a transaction that wrote nothing commits no frame and calls no WAL hook)
        defer { commitWatch.writeEnded() }
        try db.inTransaction(.immediate) {
          commitWatch.writeBegan(db)
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
      throw mapped(error)
    }
  }

  /// Puts every commit this connection made on the disk (one sync of the WAL): what a
  /// `whenSynced` connection calls before it answers the callers whose writes it made. A
  /// no-op cost for an `eachCommit` one, whose commits are on the disk already.
  public func sync() throws(NotifyError) {
    let status = try mappingErrors {
      try queue.inDatabase { db in notify_sqlite_sync_wal(db.sqliteConnection) }
    }
    guard status == SQLITE_OK else {
      throw NotifyError(
        .ioError, "cannot sync the store \(Escaper.visible(path)) to the disk (SQLite error \(status))",
        fix: "check the disk: notify cannot promise what it wrote there")
    }
  }

  /// Syncs (`sync()`) when this connection changed a row since its last sync; returns
  /// whether it synced. What a `whenSynced` connection runs before its answers go out.
  @discardableResult
  public func syncIfChanged() throws(NotifyError) -> Bool {
    let changes = try mappingErrors { try queue.inDatabase { $0.totalChangesCount } }
    guard changes != syncedChanges.value else { return false }
    try sync()
    syncedChanges.value = changes
    return true
  }

  /// `error` as `NotifyError`: SQLite's mapped, naming the store, busy as its wait ended.
  func mapped(_ error: any Error) -> NotifyError {
    StoreErrors.map(error, path: path, busyTimeout: busyTimeout, busyEnding: busyHandler.lastEnding)
  }

  /// The schema this version writes: its last migration's name (`notify --version`).
  public static var schemaVersion: String { StoreSchema.latest }

  /// The most the WAL keeps of its size once checkpointed (SQLite's automatic checkpoint at
  /// 1000 pages, about 4 MiB, bounds it while processes write).
  static let walSizeLimit = 1 << 20

  /// This connection checkpoints the WAL itself (the daemon): SQLite's automatic checkpoint,
  /// which runs inside a commit once the WAL holds 1000 pages and syncs the store file
  /// twice, is turned off for it, so a burst's claims and records never wait for a
  /// checkpoint (with it, under disk load, the last of 1000 at one instant came 99-304 ms
  /// late; without it 36-43 ms). `checkpointIfLarge()` after each wake-up and
  /// `checkpointIfWritten()` at idle keep the WAL bounded instead; other processes keep the
  /// automatic one.
  public func takeCheckpoints() throws(NotifyError) {
    try mappingErrors {
      try queue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        // (after it: turning the automatic checkpoint off clears SQLite's WAL hook)
        commitWatch.trackOwnCommits(on: db)
      }
    }
  }

  /// How many pages the WAL holds that the store file does not have yet (`mxFrame` less
  /// `nBackfill`, read from the WAL index without a transaction); nil when it cannot be read.
  public func walBacklog() -> Int? {
    let bytes = try? queue.inDatabase { db -> [UInt8]? in
      var bytes = [UInt8](repeating: 0, count: 100)
      let status = bytes.withUnsafeMutableBufferPointer { buffer in
        notify_sqlite_wal_index_header(db.sqliteConnection, buffer.baseAddress, Int32(buffer.count))
      }
      return status == 0 ? bytes : nil
    }
    guard let bytes = bytes ?? nil else { return nil }
    func word(_ offset: Int) -> UInt32 {
      bytes[offset..<offset + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }
    return Int(word(16)) - Int(word(96))
  }

  /// A passive checkpoint when the WAL holds at least `pages` pages not yet in the store
  /// file (the automatic checkpoint's threshold): run by the daemon after each wake-up, off
  /// the hand-off path. Returns whether it ran.
  @discardableResult
  public func checkpointIfLarge(pages: Int = 1000) -> Bool {
    guard let backlog = walBacklog(), backlog >= pages else { return false }
    return (try? checkpointIfWritten()) ?? false
  }

  /// Copies what the WAL holds into the store file without waiting for anyone (a passive
  /// checkpoint), when the WAL was written since the last one: run by the daemon as it
  /// goes idle, since short-lived processes close without one. Returns whether it ran.
  @discardableResult
  public func checkpointIfWritten() throws(NotifyError) -> Bool {
    let written = StoreFiles.stamp(path + "-wal")
    guard written != checkpointedWAL.value else { return false }
    let complete = try mappingErrors {
      try queue.writeWithoutTransaction { db in
        let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)")
        let (busy, frames, copied): (Int, Int, Int) = (row?[0] ?? 1, row?[1] ?? -1, row?[2] ?? -1)
        return busy == 0 && frames == copied
      }
    }
    // A checkpoint that could not copy everything (a reader held frames) runs again at the
    // next idle moment.
    if complete { checkpointedWAL.value = written }
    return true
  }

  /// Whether the WAL was written since `checkpointIfWritten()` last copied all of it (its
  /// size or time of change differ): one `stat`.
  public var isWALWrittenSinceCheckpoint: Bool { StoreFiles.stamp(path + "-wal") != checkpointedWAL.value }

  /// `PRAGMA integrity_check`: "ok" for a sound store.
  public func integrityCheck() throws(NotifyError) -> String {
    try read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "" }
  }
}

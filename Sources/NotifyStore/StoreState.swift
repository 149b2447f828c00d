import GRDB
import NotifyCore

/// Whether a store file is ready to use as it is: read without any lock of notify's own,
/// and read again under the migration lock before anything is changed.
enum StoreState: Equatable {
  /// WAL mode and every migration of this version: open it and go.
  case current
  /// An empty file, a store in another journal mode or one from an older notify.
  case needsSetUp

  /// The state of the store on `db`; throws for another program's database and for a store
  /// from a newer notify, which are never changed.
  static func read(_ db: Database, path: String) throws -> StoreState {
    try StoreFiles.checkIsNotifyStore(db, path: path)
    let migrator = StoreSchema.migrator
    if try migrator.hasBeenSuperseded(db) {
      throw NotifyError(
        .ioError, "the store \(Escaper.visible(path)) was written by a newer version of notify",
        fix: "upgrade notify, or point \(term: .storePath) at another file; the store was left untouched")
    }
    guard try migrator.hasCompletedMigrations(db) else { return .needsSetUp }
    let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? ""
    return mode.lowercased() == "wal" ? .current : .needsSetUp
  }

  /// Brings the store on `queue` to `current`: WAL mode (`synchronous` is already set),
  /// then the migrations. The caller holds the migration lock; another process may have
  /// finished the work while this one waited for it, so the state is read again first.
  static func setUp(_ queue: DatabaseQueue, path: String) throws {
    if try queue.read({ try read($0, path: path) }) == .current { return }
    try queue.inDatabase { db in
      let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? ""
      if mode.lowercased() != "wal" { try db.execute(sql: "PRAGMA journal_mode = WAL") }
    }
    try StoreSchema.migrator.migrate(queue)
  }
}

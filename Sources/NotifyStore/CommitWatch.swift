import CSQLite
import GRDB
import Synchronization

/// What lets a firing loop's store watch tell, without a transaction, that nobody else
/// committed since it last looked: the WAL index header (the `-shm` file's first 48 bytes,
/// which every commit changes and a checkpoint does not), as it stood when the loop last
/// read `PRAGMA data_version` or when this connection last committed with nobody else
/// committing since. An inotify event on the WAL whose header is that one costs no read
/// of SQLite's (no read mark taken): the loop's own commits, a write not yet published,
/// the looks again after a burst.
///
/// A commit of this connection counts as seen only when nothing else was committed
/// between the last look and it: the header is read under the write lock as the write
/// transaction starts (`writeBegan`), and again after the commit, whose frame count
/// SQLite's WAL hook gives (`committed`). Only a connection that checkpoints itself (the
/// daemon's, `SQLiteStore.takeCheckpoints()`) installs the hook: it replaces SQLite's
/// automatic checkpoint, which the daemon turns off anyway.
final class CommitWatch: Sendable {
  private struct State {
    /// The header last accounted for; nil: none yet (the next look reads).
    var known: [UInt8]?
    /// Whether the write transaction in progress started from `known`.
    var writeStartedFromKnown = false
    /// Whether the WAL hook is installed.
    var tracksOwnCommits = false
  }
  private let state = Mutex(State())

  /// The WAL index header of `db`'s main database, when both copies agree (no writer is
  /// halfway through publishing one); nil otherwise, or when the index is not mapped.
  static func header(_ connection: OpaquePointer?) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: 96)
    let status = bytes.withUnsafeMutableBufferPointer { buffer in
      notify_sqlite_wal_index_header(connection, buffer.baseAddress, Int32(buffer.count))
    }
    // (isInit, byte 12, is set once the header is valid)
    guard status == 0, bytes[12] != 0, bytes[0..<48] == bytes[48..<96] else { return nil }
    return Array(bytes[0..<48])
  }

  /// The header's `mxFrame`: the frames in the WAL, committed.
  static func frames(_ header: [UInt8]) -> UInt32 {
    header[16..<20].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
  }

  /// Whether `header` is the one last accounted for: nothing committed since.
  func isKnown(_ header: [UInt8]?) -> Bool {
    guard let header else { return false }
    return state.withLock { $0.known == header }
  }

  /// A look read `PRAGMA data_version` after reading `header`: commits up to it are seen.
  func looked(_ header: [UInt8]?) {
    state.withLock { $0.known = header }
  }

  /// A write transaction began on `db` (holding the write lock, so nobody else commits
  /// until it ends).
  func writeBegan(_ db: Database) {
    guard state.withLock({ $0.tracksOwnCommits }) else { return }
    let header = Self.header(db.sqliteConnection)
    state.withLock { $0.writeStartedFromKnown = header != nil && $0.known == header }
  }

  /// The write transaction ended, committed or not: a commit after it, outside one
  /// (`writeBegan` not called), is not taken for one that started from the known header.
  func writeEnded() {
    state.withLock { $0.writeStartedFromKnown = false }
  }

  /// Installs the WAL hook on `db`: after each commit, `committed`.
  func trackOwnCommits(on db: Database) {
    state.withLock { $0.tracksOwnCommits = true }
    // Retained for as long as the connection may call it: the store keeps it, and a
    // connection outliving its store by a moment must not call a freed one.
    let me = Unmanaged.passRetained(self).toOpaque()
    sqlite3_wal_hook(
      db.sqliteConnection,
      { context, connection, _, frames in
        Unmanaged<CommitWatch>.fromOpaque(context!).takeUnretainedValue().committed(
          connection, frames: UInt32(frames))
        return SQLITE_OK
      }, me)
  }

  /// This connection committed, leaving `frames` frames in the WAL: when its transaction
  /// started from the known header and the header now ends at its frames (nobody
  /// committed after it either), the new header is known.
  private func committed(_ connection: OpaquePointer?, frames: UInt32) {
    let header = Self.header(connection)
    state.withLock { state in
      defer { state.writeStartedFromKnown = false }
      guard state.writeStartedFromKnown, let header, Self.frames(header) == frames else { return }
      state.known = header
    }
  }
}

import CSQLite
import Foundation
import Synchronization

/// SQLite's busy handler of one store connection. While another connection holds a lock
/// this one needs, it looks again every 100 µs for the first 10 ms, then every millisecond:
/// SQLite's own handler sleeps 1, 2, 5, 10 ... 100 ms between looks, and a writer that
/// commits every few milliseconds (the D-Bus service under a flood of batches) then keeps
/// another (the firer's claim) out for hundreds of milliseconds, since whoever looks first
/// after a commit takes the lock.
///
/// It gives up (SQLITE_BUSY, exit 75) when `ProgressWait` says so: once the busy timeout
/// passed with no progress by others (`StoreActivity.ofSQLite`, looked at every 10 ms), or
/// at the cap, `ProgressWait.capFactor` busy timeouts after the wait
/// began (while the store opens, at the open's end instead).
///
/// `install` hands SQLite an unretained pointer to the handler: whoever installs it keeps it
/// for as long as the connection is open (`SQLiteStore` captures it in the connection's
/// `prepareDatabase`, which GRDB keeps until after it closes the connection).
final class StoreBusyHandler: Sendable {
  private let path: String
  private let timeout: Duration
  private let state: Mutex<State>

  private struct State {
    /// The end of the store's open while it opens (`StoreDeadline`), nil once it is open.
    var openEnd: ContinuousClock.Instant?
    /// The connection's main file once it is known to be in WAL mode: its WAL index is
    /// read then (mapping it before could create a `-shm` for a store in another mode).
    var mainFile: MainFile?
    /// The wait under way.
    var wait: ProgressWait?
    var started = ContinuousClock.now
    var lastLook = ContinuousClock.now
    /// How the last wait that gave up ended; nil while one is under way or after one that
    /// got the lock.
    var lastEnding: ProgressWait.Ending?
  }

  /// SQLite's main file of the connection. Safe to send: SQLite owns it for as long as the
  /// connection is open, and only this connection's busy handler reads through it, on the
  /// thread running the connection's statement of the moment (GRDB serializes them).
  struct MainFile: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<sqlite3_file>
  }

  /// A handler for the store at `path` with a busy timeout of `seconds`, while it opens
  /// until `deadline`.
  init(store path: String, seconds: TimeInterval, opening deadline: StoreDeadline) {
    self.path = path
    timeout = .milliseconds(Int64(max(0, seconds) * 1000))
    state = Mutex(State(openEnd: deadline.end))
  }

  /// Makes this `db`'s busy handler.
  func install(on db: OpaquePointer?) {
    sqlite3_busy_handler(
      db,
      { context, count in
        guard let context else { return 0 }
        return Unmanaged<StoreBusyHandler>.fromOpaque(context).takeUnretainedValue().look(count: count)
      }, Unmanaged.passUnretained(self).toOpaque())
  }

  /// The store on `db` is open and in WAL mode: waits from now on each have a cap of their
  /// own, and read its WAL index.
  func opened(_ db: OpaquePointer?) {
    let mainFile = notify_sqlite_main_file(db).map(MainFile.init)
    state.withLock { state in
      state.openEnd = nil
      state.mainFile = mainFile
    }
  }

  /// How the last wait that gave up ended (`StoreBusy.error`); `.noProgress` when SQLite
  /// answered busy without asking this handler.
  var lastEnding: ProgressWait.Ending { state.withLock { $0.lastEnding } ?? .noProgress }

  /// One call of SQLite's: 1 to look again after a pause, 0 to give up. `count` is how many
  /// times SQLite called before in this wait (0 starts a new one).
  private func look(count: Int32) -> Int32 {
    let now = ContinuousClock.now
    let pause = state.withLock { state -> Duration? in
      if count == 0 || state.wait == nil {
        state.started = now
        state.lastLook = now
        state.lastEnding = nil
        state.wait = ProgressWait(
          timeout: timeout, seen: .ofSQLite(store: path, mainFile: state.mainFile?.pointer), now: now,
          end: state.openEnd)
        return .microseconds(100)
      }
      // SQLite tries again after each pause; the store is looked at every 10 ms only (a
      // busy timeout is at least 100 ms), which keeps a wait's cost that of SQLite's tries
      let pause: Duration = now - state.started < .milliseconds(10) ? .microseconds(100) : .milliseconds(1)
      guard now - state.lastLook >= .milliseconds(10) else { return pause }
      state.lastLook = now
      let seen = StoreActivity.ofSQLite(store: path, mainFile: state.mainFile?.pointer)
      guard case .giveUp(let ending) = state.wait?.look(seen, now: now) else { return pause }
      state.lastEnding = ending
      state.wait = nil
      return nil
    }
    guard let pause else { return 0 }
    usleep(UInt32(pause / .microseconds(1)))
    return 1
  }
}

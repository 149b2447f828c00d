import Foundation
import GRDB
import NotifyCore

/// Maps SQLite failures to the spec's exit codes with text that says what to do.
enum StoreErrors {
  /// `busyEnding` says how the busy handler's wait ended, for SQLITE_BUSY (`StoreBusy`).
  static func map(
    _ error: any Error, path: String, busyTimeout: TimeInterval,
    busyEnding: ProgressWait.Ending = .noProgress
  ) -> NotifyError {
    if let error = error as? NotifyError { return error }
    guard let db = error as? DatabaseError else {
      return NotifyError(
        .storeUnreadable, "cannot use the store \(Escaper.visible(path)) (\(Escaper.visible("\(error)")))",
        fix: "check the path and its permissions")
    }
    // SQLite names the step that failed first (often creating the -shm file: CANTOPEN or
    // IOERR), not the cause: a read-only or full file system says so itself.
    var code = db.resultCode
    var volume = statvfs()
    let folder = (path as NSString).deletingLastPathComponent
    if [.SQLITE_CANTOPEN, .SQLITE_IOERR, .SQLITE_PERM].contains(code),
      statvfs(folder.isEmpty ? "." : folder, &volume) == 0
    {
      if volume.f_flag & UInt(ST_RDONLY) != 0 {
        code = .SQLITE_READONLY
      } else if volume.f_bavail == 0 {
        code = .SQLITE_FULL
      }
    }
    switch code {
    case .SQLITE_BUSY, .SQLITE_LOCKED:
      return StoreBusy.error(store: path, timeout: busyTimeout, ending: busyEnding)
    case .SQLITE_NOTADB, .SQLITE_CORRUPT:
      return NotifyError(
        .storeCorrupt, "the store \(Escaper.visible(path)) is corrupt or not a notify database",
        fix: "move it aside to recover what you can (sqlite3 FILE .recover); notify never replaces it")
    case .SQLITE_FULL:
      return NotifyError(
        .storeUnreadable, "the disk holding \(Escaper.visible(path)) is full; nothing was changed",
        fix: "free some space and try again")
    case .SQLITE_READONLY:
      return NotifyError(
        .storeUnreadable, "the store \(Escaper.visible(path)) is read-only; nothing was changed",
        fix: "make the file, its folder and their file system writable by you")
    case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
      return NotifyError(
        .storeUnreadable, "cannot open the store \(Escaper.visible(path))",
        fix: "check that its folder exists and is yours (0700)")
    case .SQLITE_CONSTRAINT:
      return NotifyError(
        .invalidData, "the store refused the data (\(db.message ?? "constraint failed"))",
        fix: "check the values against \(term: .fieldRules)")
    default:
      return NotifyError(
        .storeUnreadable,
        "the store \(Escaper.visible(path)) failed: \(Escaper.visible(db.message ?? "\(db.resultCode)"))",
        fix: "check the disk and the file's permissions")
    }
  }
}

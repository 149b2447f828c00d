import Foundation
import GRDB
import NotifyCore

extension SQLiteStore {
  static let retentionKey = "history-retention"
  static let prunedKey = "history-pruned"

  /// The history retention in force (`HistoryRetention.standard` until set).
  public func historyRetention() throws(NotifyError) -> HistoryRetention {
    try read { db in try Self.retention(in: db) }
  }

  /// Sets the retention and prunes to it at once, in one transaction.
  public func setHistoryRetention(_ retention: HistoryRetention, at now: Date) throws(NotifyError) {
    let valid = try retention.validated()
    try write { db in
      try db.execute(
        sql: "INSERT OR REPLACE INTO preference (key, value) VALUES (?, ?)",
        arguments: [Self.retentionKey, valid.jsonValue.compactText])
      try HistoryWriter.prune(now: now, in: db)
    }
  }

  /// What retention has pruned so far.
  public func historyPruning() throws(NotifyError) -> HistoryPruning {
    try read { db in try Self.pruning(in: db) }
  }

  static func retention(in db: Database) throws -> HistoryRetention {
    guard
      let text = try String.fetchOne(
        db.cachedStatement(sql: "SELECT value FROM preference WHERE key = ?"), arguments: [retentionKey]),
      let json = try? JSONValue.parse(text), let retention = HistoryRetention(json: json)
    else { return .standard }
    return retention
  }

  static func pruning(in db: Database) throws -> HistoryPruning {
    guard
      let text = try String.fetchOne(
        db.cachedStatement(sql: "SELECT value FROM preference WHERE key = ?"), arguments: [prunedKey]),
      case .object(let m)? = try? JSONValue.parse(text), case .int(let count)? = m["count"]
    else { return HistoryPruning() }
    var newest: Date?
    if case .int(let millis)? = m["newest"] { newest = Millis.date(millis) }
    return HistoryPruning(count: count, newest: newest)
  }
}

extension HistoryWriter {
  /// Prunes history to the retention in force, in the caller's transaction, and adds what
  /// it pruned to the tally `notify history` reports.
  static func prune(now: Date, in db: Database) throws {
    let retention = try SQLiteStore.retention(in: db)
    let newestKept = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM event") ?? 0
    let condition = "seq <= ? OR at <= ?"
    let arguments: StatementArguments = [
      newestKept - Int64(retention.entries), Millis.from(retention.cutoff(now: now)),
    ]
    guard
      let row = try Row.fetchOne(
        db, sql: "SELECT count(*) AS n, max(at) AS newest FROM event WHERE \(condition)", arguments: arguments
      ),
      let count = row["n"] as Int64?, count > 0
    else { return }
    try db.execute(sql: "DELETE FROM event WHERE \(condition)", arguments: arguments)
    let before = try SQLiteStore.pruning(in: db)
    let newest = [before.newest.map(Millis.from), row["newest"] as Int64?].compactMap { $0 }.max()
    var tally: [String: JSONValue] = ["count": .int(before.count + count)]
    if let newest { tally["newest"] = .int(newest) }
    try db.execute(
      sql: "INSERT OR REPLACE INTO preference (key, value) VALUES (?, ?)",
      arguments: [SQLiteStore.prunedKey, JSONValue.object(tally).compactText])
  }
}

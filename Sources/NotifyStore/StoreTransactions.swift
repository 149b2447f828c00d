import Foundation
import GRDB
import NotifyCore

/// How many transactions one connection ran, reads and writes apart (what one
/// delivery costs the store). Counted from SQLite's statement trace (`sqlite3_trace_v2`,
/// `SQLITE_TRACE_STMT`): a `BEGIN IMMEDIATE` is a write, any other `BEGIN` a read, and a
/// statement run outside a transaction is a transaction of its own (a `SELECT` or
/// `PRAGMA data_version` a read; an `INSERT`, `UPDATE` or `DELETE` a write). GRDB's own
/// switches (`PRAGMA query_only`) and checkpoints are not transactions.
public struct StoreTransactions: Hashable, Sendable, CustomStringConvertible {
  /// Read transactions.
  public var reads = 0
  /// Write transactions.
  public var writes = 0

  /// No transactions.
  public init(reads: Int = 0, writes: Int = 0) {
    self.reads = reads
    self.writes = writes
  }

  /// Reads and writes together.
  public var total: Int { reads + writes }

  /// `3 reads, 2 writes`.
  public var description: String { "\(reads) reads, \(writes) writes" }

  /// What a statement starting with `sql` opens, when it opens a transaction: `BEGIN`s
  /// always, anything else only when run outside one (`inTransaction` false).
  enum Kind: String {
    case read, write
  }

  static func kind(of sql: String, inTransaction: Bool) -> Kind? {
    let upper = sql.prefix(24).uppercased()
    if upper.hasPrefix("BEGIN") {
      return upper.hasPrefix("BEGIN IMMEDIATE") || upper.hasPrefix("BEGIN EXCLUSIVE") ? .write : .read
    }
    guard !inTransaction else { return nil }
    if upper.hasPrefix("SELECT") || upper.hasPrefix("WITH") || upper.hasPrefix("PRAGMA DATA_VERSION") {
      return .read
    }
    if upper.hasPrefix("INSERT") || upper.hasPrefix("UPDATE") || upper.hasPrefix("DELETE")
      || upper.hasPrefix("REPLACE")
    {
      return .write
    }
    return nil
  }
}

extension SQLiteStore {
  /// The transactions this connection ran since counting started (`countTransactions()`,
  /// or `NOTIFY_STORE_TRACE` set when the store was opened).
  public var transactions: StoreTransactions { transactionCount.value }

  /// Starts counting this connection's transactions from zero (`transactions`). With
  /// `log`, each one is also written to standard error as `notify store: read SELECT …`
  /// (the statement without its arguments), for counting those of a running command:
  /// `NOTIFY_STORE_TRACE=1 notify daemon --sink stdout 2>&1 >/dev/null | grep -c 'notify store: read'`.
  public func countTransactions(log: Bool = false) {
    transactionCount.value = StoreTransactions()
    let count = transactionCount
    try? queue.inDatabase { db in
      db.trace(options: .statement) { [unowned db] event in
        guard case .statement(let statement) = event else { return }
        let sql = statement.sql
        guard let kind = StoreTransactions.kind(of: sql, inTransaction: db.isInsideTransaction) else {
          return
        }
        count.update { count in
          switch kind {
          case .read: count.reads += 1
          case .write: count.writes += 1
          }
        }
        if log { FileHandle.standardError.write(Data("notify store: \(kind.rawValue) \(sql)\n".utf8)) }
      }
    }
  }
}

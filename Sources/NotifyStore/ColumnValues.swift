import GRDB

/// A row whose columns are found by hashing their names. GRDB finds a column of a copied row
/// by comparing the name, lowercased, with every column name, lowercased, at each look-up:
/// the 32 look-ups of a `notification` row cost about 20 µs, a quarter of what a claim costs
/// per occurrence (perf, a burst of 1000). Values convert as the
/// row's own subscript converts them (GRDB's `decode(atIndex:)`); names are matched exactly,
/// as the `SELECT`s of this module spell them, the leftmost of a name winning.
struct ColumnValues {
  let row: Row
  private var indexes: [String: Int]

  init(_ row: Row) {
    self.row = row
    indexes = Dictionary(minimumCapacity: row.count)
    for (index, name) in row.columnNames.enumerated() where indexes[name] == nil { indexes[name] = index }
  }

  /// The column's value; an optional `T` is nil when the column is NULL or absent, any other
  /// traps then, as GRDB's subscript does.
  subscript<T: DatabaseValueConvertible>(_ column: String) -> T {
    guard let index = indexes[column] else {
      guard let missing = T.fromMissingColumn() else { preconditionFailure("no column \(column)") }
      return missing
    }
    return try! row.decode(T.self, atIndex: index)
  }
}

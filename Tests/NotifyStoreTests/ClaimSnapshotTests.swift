import Foundation
import GRDB
import NotifyCore
import Testing

@testable import NotifyStore

/// The claim's snapshot of its row, written straight from the row, and the row look-up by
/// hashed names that decodes notification rows (`ColumnValues`).
@Suite("Claim snapshots and column look-ups")
struct ClaimSnapshotTests {
  @Test("a snapshot is the row as one JSON object with sorted keys, as the object's own text")
  func snapshotIsTheObjectText() throws {
    // Given a row of every storage kind, text that needs escaping, columns out of order
    let row = try DatabaseQueue().read { db in
      try Row.fetchOne(
        db,
        sql: """
          SELECT 'b' AS title, 7 AS badge, 2.5 AS score, 3.0 AS whole, NULL AS body,
          'say "hi"\n\u{2028}ünï' AS subtitle, X'6869' AS blob, 'x' AS app
          """)!
    }
    // When it is written as a snapshot
    let text = ClaimSnapshot.encode(row)
    // Then it is the text of the object built from it
    let object = JSONValue.object([
      "title": .string("b"), "badge": .int(7), "score": .double(2.5), "whole": .double(3), "body": .null,
      "subtitle": .string("say \"hi\"\n\u{2028}ünï"), "blob": .string("hi"), "app": .string("x"),
    ])
    #expect(text == object.compactText)
  }

  @Test("columns are found by name: NULL and absent ones are nil, the leftmost of a name wins")
  func columnValues() throws {
    let row = try DatabaseQueue().read { db in
      try Row.fetchOne(
        db, sql: "SELECT 5 AS n, NULL AS gone, 'first' AS twice, 'second' AS twice, '12' AS text")!
    }
    let values = ColumnValues(row)
    #expect(values["n"] as Int64 == 5)
    #expect(values["n"] as Int? == 5)
    #expect(values["gone"] as String? == nil)
    #expect(values["absent"] as String? == nil)
    #expect(values["twice"] as String == "first")
    #expect(values["text"] as String == "12")
  }
}

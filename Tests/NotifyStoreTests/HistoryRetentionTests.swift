import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

@testable import NotifyStore

/// History retention: a count and an age, applied in the transactions that
/// write history, with a tally of what was pruned.
@Suite("History retention", .ownThreads)
struct HistoryRetentionTests {
  let folder = TemporaryFolder()
  let base = Date(timeIntervalSince1970: 1_900_000_000)

  func event(_ i: Int, at date: Date) -> HistoryEvent {
    HistoryEvent(
      at: date, app: "a", notificationID: "n\(i)", kind: .delivered, occurrence: 1, fireDate: date,
      detail: ["body": .string("private \(i)")])
  }

  @Test("the count bound: 1000 written with a bound of 100 leave at most 100 + 63, the newest, and the tally")
  func countBound() throws {
    let store = try SQLiteStore(path: folder.file("n.db"))
    try store.setHistoryRetention(HistoryRetention(entries: 100, days: 90), at: base)
    for i in 0..<1000 { try store.record(event(i, at: base + Double(i))) }
    let kept = try store.history(app: nil, limit: 10_000)
    #expect(kept.count >= 100 && kept.count < 100 + Int(HistoryRetention.pruneInterval), "\(kept.count)")
    // The newest are kept, in order, with nothing missing between them
    #expect(kept.first?.notificationID == "n999")
    #expect(kept.map(\.notificationID) == (1000 - kept.count..<1000).reversed().map { "n\($0)" })
    // And the tally says how many went, and the newest of them
    let pruned = try store.historyPruning()
    #expect(pruned.count == Int64(1000 - kept.count))
    #expect(pruned.newest == base + Double(999 - kept.count))
  }

  @Test("the age bound: events older than the days are pruned at the next pruning, newer ones stay")
  func ageBound() throws {
    let store = try SQLiteStore(path: folder.file("n.db"))
    // Given 10 events 100 days old and 10 from 10 days ago, under the default retention
    for i in 0..<10 { try store.record(event(i, at: base - 100 * 86_400)) }
    for i in 10..<20 { try store.record(event(i, at: base - 10 * 86_400)) }
    #expect(try store.history(app: nil, limit: 100).count == 20)
    // When history is written on until the next pruning
    for i in 20..<Int(HistoryRetention.pruneInterval) { try store.record(event(i, at: base)) }
    // Then the old ones are gone and the others stay
    let kept = Set(try store.history(app: nil, limit: 100).map(\.notificationID))
    #expect(kept.count == Int(HistoryRetention.pruneInterval) - 10)
    #expect(kept.isDisjoint(with: (0..<10).map { "n\($0)" }))
    #expect(try store.historyPruning().count == 10)
  }

  @Test("setting a tighter retention prunes at once; the bounds are checked")
  func setPrunesAtOnce() throws {
    let store = try SQLiteStore(path: folder.file("n.db"))
    for i in 0..<300 { try store.record(event(i, at: base)) }
    try store.setHistoryRetention(HistoryRetention(entries: 100, days: 90), at: base)
    #expect(try store.history(app: nil, limit: 1000).count == 100)
    #expect(try store.historyRetention() == HistoryRetention(entries: 100, days: 90))
    #expect(throws: NotifyError.self) {
      try store.setHistoryRetention(HistoryRetention(entries: 99, days: 1), at: base)
    }
    #expect(throws: NotifyError.self) {
      try store.setHistoryRetention(HistoryRetention(entries: 100, days: 0), at: base)
    }
  }

  @Test("notify history says what was pruned; --keep-entries sets the bound")
  func command() throws {
    let db = folder.file("c.db")
    let notify = CommandRunner(environment: ["NOTIFY_DB": db, "NOTIFY_APP": "a"])
    let set = try notify.run(["history", "--keep-entries", "100", "--keep-days", "30"])
    #expect(set.status == 0, "\(set.stderr)")
    #expect(set.stdout == "history keeps at most 100 events, none older than 30 days\n")
    let store = try SQLiteStore(path: db)
    for i in 0..<200 { try store.record(event(i, at: Date())) }
    let listed = try notify.run(["history", "--limit", "5"])
    #expect(listed.status == 0, "\(listed.stderr)")
    let pruned = try store.historyPruning().count
    #expect(pruned > 0)
    #expect(
      listed.stdout.contains("(\(pruned) older events pruned by the retention of 100 events and 30 days"),
      "\(listed.stdout)")
  }
}

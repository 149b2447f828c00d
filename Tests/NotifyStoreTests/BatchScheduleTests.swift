import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

@testable import NotifyStore

/// A batch goes in as one transaction with the limit applied once (the D-Bus `Schedule`).
@Suite(.ownThreads)
struct BatchScheduleTests {
  let folder = TemporaryFolder()
  let base = Date(timeIntervalSince1970: 1_900_000_000)

  func note(_ id: String, at offset: TimeInterval, until: Date? = nil) -> LocalNotification {
    LocalNotification(
      id: id, app: "a",
      schedule: Schedule(
        fireDate: .instant(base + offset), repeatInterval: until == nil ? nil : .day, until: until),
      body: "body \(id)", createdAt: base - 1000)
  }

  @Test func seventyInOneBatchKeepTheSixtyFourSoonest() throws {
    // Given 70 notifications one minute apart, in a shuffled order, as one batch
    let store = try SQLiteStore(path: folder.file("n.db"))
    var generator = SeededGenerator(seed: 7)
    let offsets = Array(0..<70).shuffled(using: &generator)
    let outcome = try store.schedule(
      batch: offsets.map { note("n\($0)", at: Double($0) * 60) }, zones: testZones(testZone("UTC")))
    // Then the 64 soonest remain, the 6 others are discarded and recorded, in order given
    #expect(try store.pending(app: "a").map(\.notification.id) == (0..<64).map { "n\($0)" })
    #expect(Set(outcome.discarded.map(\.notification.id)) == Set((64..<70).map { "n\($0)" }))
    #expect(outcome.stored.map(\.notification.id) == offsets.map { "n\($0)" })
    let refused = try #require(outcome.firstNewOneDiscarded)
    #expect(refused.stored.notification.id == "n\(offsets.first { $0 >= 64 }!)")
    #expect(try store.history(app: "a", limit: 100).filter { $0.kind == .discarded }.count == 6)
  }

  @Test func oneThatNeverFiresLeavesTheStoreAsItWas() throws {
    let store = try SQLiteStore(path: folder.file("n.db"))
    // When the second of three ends before it starts
    #expect(throws: NotifyError.self) {
      _ = try store.schedule(
        batch: [note("a", at: 60), note("b", at: 120, until: base), note("c", at: 180)],
        zones: testZones(testZone("UTC")))
    }
    // Then nothing was stored
    #expect(try store.pending(app: "a").isEmpty)
  }
}

import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

@testable import NotifyStore

@Suite("The 64-pending limit in the store", .ownThreads)
struct PendingLimitStoreTests {
  let folder = TemporaryFolder()
  let utc = testZone("UTC")
  let base = Date(timeIntervalSince1970: 1_900_000_000)

  func note(_ id: String, at offset: TimeInterval, app: String = "a", repeating: RepeatInterval? = nil)
    -> LocalNotification
  {
    LocalNotification(
      id: id, app: app, schedule: Schedule(fireDate: .instant(base + offset), repeatInterval: repeating),
      body: "body \(id)", createdAt: base - 1000)
  }

  @Test("70 scheduled in random order leave the 64 soonest, each eviction recorded")
  func keepsSoonest() throws {
    // Given 70 notifications one minute apart, scheduled in a shuffled order
    let store = try SQLiteStore(path: folder.file("n.db"))
    var generator = SeededGenerator(seed: 42)
    let offsets = Array(0..<70).shuffled(using: &generator)
    var discarded: [String] = []
    for i in offsets {
      let outcome = try store.schedule(note("n\(i)", at: Double(i) * 60), zones: testZones(utc))
      discarded += outcome.discarded.map(\.notification.id)
    }
    // Then the 64 soonest remain, soonest first
    let pending = try store.pending(app: "a")
    #expect(pending.map(\.notification.id) == (0..<64).map { "n\($0)" })
    // And every one of the other 6 was discarded once and recorded with its reason
    #expect(Set(discarded) == Set((64..<70).map { "n\($0)" }))
    #expect(discarded.count == 6)
    let history = try store.history(app: "a", limit: 100).filter { $0.kind == .discarded }
    #expect(Set(history.map(\.notificationID)) == Set(discarded))
    #expect(history.allSatisfy { $0.reason == "pending-limit" })
  }

  @Test("a 65th firing after all 64 is itself discarded, and only it")
  func newOneDiscarded() throws {
    let store = try SQLiteStore(path: folder.file("n.db"))
    for i in 0..<64 { _ = try store.schedule(note("n\(i)", at: Double(i)), zones: testZones(utc)) }
    // When a later one is scheduled
    let outcome = try store.schedule(note("late", at: 10_000), zones: testZones(utc))
    // Then it is the one discarded and the 64 are untouched
    #expect(outcome.newOneDiscarded)
    #expect(outcome.discarded.map(\.notification.id) == ["late"])
    #expect(try store.pending(app: "a").count == 64)
    #expect(try store.notification(app: "a", id: "late") == nil)
  }

  @Test("on equal fire instants the one scheduled earlier wins")
  func tiesGoToEarlier() throws {
    let store = try SQLiteStore(path: folder.file("n.db"))
    for i in 0..<64 { _ = try store.schedule(note("n\(i)", at: 100), zones: testZones(utc)) }
    let outcome = try store.schedule(note("tie", at: 100), zones: testZones(utc))
    #expect(outcome.discarded.map(\.notification.id) == ["tie"])
  }

  @Test("a repeating notification counts once, and apps are limited separately")
  func repeatingCountsOnce() throws {
    let store = try SQLiteStore(path: folder.file("n.db"))
    _ = try store.schedule(note("every-minute", at: 0, repeating: .minute), zones: testZones(utc))
    for i in 1..<64 { _ = try store.schedule(note("n\(i)", at: Double(i) * 3600), zones: testZones(utc)) }
    for i in 0..<10 { _ = try store.schedule(note("b\(i)", at: 1, app: "b"), zones: testZones(utc)) }
    #expect(try store.pending(app: "a").count == 64)
    #expect(try store.pending(app: "b").count == 10)
    #expect(try store.history(app: "a", limit: 10).isEmpty)
  }

  @Test("scheduling a pending id replaces it without counting twice")
  func replaceById() throws {
    let store = try SQLiteStore(path: folder.file("n.db"))
    _ = try store.schedule(note("x", at: 10), zones: testZones(utc))
    var replacement = note("x", at: 20)
    replacement.title = "second"
    let outcome = try store.schedule(replacement, zones: testZones(utc))
    #expect(outcome.replaced)
    let pending = try store.pending(app: "a")
    #expect(pending.count == 1)
    #expect(pending.first?.notification.title == "second")
    #expect(pending.first?.nextFireDate == base + 20)
  }

  @Test("cancel removes pending ones, reports the others, and records history")
  func cancel() throws {
    let store = try SQLiteStore(path: folder.file("n.db"))
    _ = try store.schedule(note("x", at: 10), zones: testZones(utc))
    _ = try store.schedule(note("y", at: 20), zones: testZones(utc))
    let missing = try store.cancel(app: "a", ids: ["x", "nope"], at: base)
    #expect(missing == ["nope"])
    #expect(try store.pending(app: "a").map(\.notification.id) == ["y"])
    #expect(try store.cancelAll(app: "a", at: base) == ["y"])
    #expect(try store.history(app: "a", limit: 10).map(\.kind) == [.cancelled, .cancelled])
  }
}

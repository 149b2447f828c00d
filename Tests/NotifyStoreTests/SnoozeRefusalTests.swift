import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

@testable import NotifyStore

/// A snooze clicked on a bubble still on screen brings its notification back only when
/// that notification is still the one the app has: not after it was
/// cancelled, nor after a new schedule took its id.
@Suite("Snoozing what is gone", .ownThreads)
struct SnoozeRefusalTests {
  let folder = TemporaryFolder()
  let utc = testZone("UTC")
  let base = Date(timeIntervalSince1970: 1_900_000_000)

  func note(_ id: String, at offset: TimeInterval, repeating: RepeatInterval? = nil, createdAt: Date)
    -> LocalNotification
  {
    LocalNotification(
      id: id, app: "a", schedule: Schedule(fireDate: .instant(base + offset), repeatInterval: repeating),
      title: "T \(id)", body: "body \(id)", actions: [.snooze(seconds: 600)], createdAt: createdAt)
  }

  @Test("a repeating notification cancelled after its bubble was shown is not snoozed back")
  func cancelledRepeating() throws {
    // Given an hourly notification, shown (occurrence 2), then cancelled
    let store = try SQLiteStore(path: folder.file("n.db"))
    let shown = try store.schedule(
      note("hourly", at: 3600, repeating: .hour, createdAt: base - 7200), zones: testZones(utc)
    ).stored.notification
    #expect(try store.cancel(app: "a", ids: ["hourly"], at: base) == [])
    // When the bubble's snooze arrives
    let error = #expect(throws: NotifyError.self) {
      try store.snooze(shown, occurrence: 2, seconds: 600, at: base + 10)
    }
    // Then it is refused, saying the notification was cancelled
    #expect(error?.kind == .notTakenEffect)
    #expect(error?.problem.contains("cancelled") == true, "\(String(describing: error))")
    // And nothing is pending, and history has no snooze
    #expect(try store.pending(app: "a").isEmpty)
    #expect(try store.history(app: "a", limit: 20).allSatisfy { $0.kind != .snoozed })
  }

  @Test("a notification replaced by a new schedule of its id is not snoozed back over the new one")
  func replaced() throws {
    // Given a one-shot shown from its schedule at base - 7200, then the id scheduled anew
    let store = try SQLiteStore(path: folder.file("n.db"))
    let shown = try store.schedule(note("n", at: -10, createdAt: base - 7200), zones: testZones(utc))
      .stored.notification
    try store.schedule(note("n", at: 86_400, createdAt: base), zones: testZones(utc))
    // When the old bubble's snooze arrives
    let error = #expect(throws: NotifyError.self) {
      try store.snooze(shown, occurrence: 1, seconds: 600, at: base + 10)
    }
    // Then it is refused, saying the notification was replaced
    #expect(error?.kind == .notTakenEffect)
    #expect(error?.problem.contains("replaced") == true, "\(String(describing: error))")
    // And only the new one is pending
    #expect(try store.pending(app: "a").map(\.nextFireDate) == [base + 86_400])
    #expect(try store.history(app: "a", limit: 20).allSatisfy { $0.kind != .snoozed })
  }

  @Test("a delivered one-shot, and a snoozed copy once delivered, are snoozed as before")
  func deliveredIsSnoozed() throws {
    // Given a one-shot shown (nothing cancelled or replaced since)
    let store = try SQLiteStore(path: folder.file("n.db"))
    let shown = try store.schedule(note("n", at: -10, createdAt: base - 7200), zones: testZones(utc))
      .stored.notification
    // When its snooze arrives, and the copy's own snooze later
    let copy = try store.snooze(shown, occurrence: 1, seconds: 600, at: base).stored.notification
    try store.snooze(copy, occurrence: 1, seconds: 600, at: base + 700)
    // Then the copy is pending, snoozed twice
    #expect(try store.pending(app: "a").map(\.nextFireDate).contains(base + 1300))
    #expect(try store.history(app: "a", limit: 20).filter { $0.kind == .snoozed }.count == 2)
  }
}

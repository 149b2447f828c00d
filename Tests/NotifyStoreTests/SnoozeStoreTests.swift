import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

@testable import NotifyStore

/// A snooze in the store: a copy of the shown occurrence, pending beside its
/// notification, durable, counted against the 64 limit, recorded as `snoozed`.
@Suite("Snoozing in the store", .ownThreads)
struct SnoozeStoreTests {
  let folder = TemporaryFolder()
  let utc = testZone("UTC")
  let base = Date(timeIntervalSince1970: 1_900_000_000)

  func note(_ id: String, at offset: TimeInterval, repeating: RepeatInterval? = nil) -> LocalNotification {
    LocalNotification(
      id: id, app: "a", schedule: Schedule(fireDate: .instant(base + offset), repeatInterval: repeating),
      title: "T \(id)", body: "body \(id)", userInfo: ["k": .string(id)],
      actions: [.button(key: "read", title: "Mark read"), .snooze(seconds: 600)], createdAt: base - 1000)
  }

  @Test("a repeating notification's snooze leaves its next regular occurrence where it was")
  func repeatingKeepsItsSchedule() throws {
    // Given an hourly notification whose next occurrence is at base + 1 h
    let store = try SQLiteStore(path: folder.file("n.db"))
    let scheduled = try store.schedule(note("hourly", at: 3600, repeating: .hour), zones: testZones(utc))
      .stored
    // When occurrence 3 is snoozed for 10 minutes at base + 100 s
    let outcome = try store.snooze(scheduled.notification, occurrence: 3, seconds: 600, at: base + 100)
    // Then both are pending: the copy first (at base + 700 s), the original unmoved
    let pending = try store.pending(app: "a")
    #expect(pending.map(\.nextFireDate) == [base + 700, base + 3600])
    #expect(pending.map(\.snoozedOccurrence) == [3, nil])
    #expect(outcome.stored.snoozedOccurrence == 3)
    // And the copy has the same content, userInfo and actions, and fires once
    let copy = pending[0].notification
    #expect(
      copy.title == "T hourly" && copy.body == "body hourly" && copy.userInfo == ["k": .string("hourly")])
    #expect(copy.actions == scheduled.notification.actions)
    #expect(copy.schedule.repeatInterval == nil)
    // And history says snoozed, with the interval and when it comes back
    let snoozed = try #require(try store.history(app: "a", limit: 10).first { $0.kind == .snoozed })
    #expect(snoozed.occurrence == 3)
    #expect(snoozed.reason == "notify.snooze.600")
    #expect(snoozed.detail["seconds"] == .int(600))
    #expect(snoozed.fireDate == base + 700)
    // And list --json shows which occurrence the copy stands for
    #expect(pending[0].jsonRecord.compactText.contains(#""snoozedOccurrence":3"#))
    // And the original answers for its id
    #expect(try store.notification(app: "a", id: "hourly")?.snoozedOccurrence == nil)
  }

  @Test(
    "snoozing again replaces the copy; cancelling the id cancels both; scheduling the id again replaces both")
  func replaceAndCancel() throws {
    let store = try SQLiteStore(path: folder.file("n.db"))
    let n = try store.schedule(note("n", at: 3600, repeating: .day), zones: testZones(utc)).stored
      .notification
    try store.snooze(n, occurrence: 1, seconds: 60, at: base)
    try store.snooze(n, occurrence: 1, seconds: 120, at: base)
    #expect(try store.pending(app: "a").map(\.nextFireDate) == [base + 120, base + 3600])
    // Scheduling the id anew replaces the notification and its snooze
    try store.schedule(note("n", at: 7200), zones: testZones(utc))
    #expect(try store.pending(app: "a").map(\.nextFireDate) == [base + 7200])
    // Cancelling the id cancels the notification and its snooze, each recorded
    try store.snooze(n, occurrence: 1, seconds: 60, at: base)
    #expect(try store.cancel(app: "a", ids: ["n"], at: base) == [])
    #expect(try store.pending(app: "a").isEmpty)
    #expect(try store.history(app: "a", limit: 20).filter { $0.kind == .cancelled }.count == 2)
  }

  @Test("a snooze counts against the 64 limit: with 64 pending, the latest one is discarded and recorded")
  func pendingLimit() throws {
    // Given 64 pending notifications, one a minute from base + 1 h
    let store = try SQLiteStore(path: folder.file("n.db"))
    for i in 0..<64 { try store.schedule(note("n\(i)", at: 3600 + Double(i) * 60), zones: testZones(utc)) }
    // When a delivered one (no longer pending) is snoozed for 10 minutes
    let delivered = note("done", at: 0)
    let outcome = try store.snooze(delivered, occurrence: 1, seconds: 600, at: base)
    // Then the one that fires last is discarded to make room, and recorded as such
    #expect(outcome.discarded.map(\.notification.id) == ["n63"])
    let pending = try store.pending(app: "a")
    #expect(pending.count == 64)
    #expect(pending.first?.notification.id == "done")
    let discarded = try store.history(app: "a", limit: 200).filter { $0.kind == .discarded }
    #expect(discarded.map(\.notificationID) == ["n63"])
    #expect(discarded.first?.reason == "pending-limit")
  }

  @Test("the copy survives the process: another connection (a restarted daemon) sees it")
  func durable() throws {
    let path = folder.file("n.db")
    do {
      let store = try SQLiteStore(path: path)
      try store.snooze(note("n", at: 0), occurrence: 1, seconds: 600, at: base)
    }
    let reopened = try SQLiteStore(path: path)
    #expect(try reopened.pending(app: "a").map(\.snoozedOccurrence) == [1])
    #expect(try reopened.nextFireDate(zones: testZones(utc)) == base + 600)
  }
}

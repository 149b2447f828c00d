import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

@testable import NotifyStore

/// Alarms in the store: the write that records a delivery stores the next
/// re-alert; the write that records an acknowledgement deletes it.
@Suite("Alarms in the store", .ownThreads)
struct RealertStoreTests {
  let folder = TemporaryFolder()
  let utc = testZone("UTC")
  let base = Date(timeIntervalSince1970: 1_900_000_000)
  let me = FirerIdentity.current

  func alarm(times: Int = 2) -> LocalNotification {
    LocalNotification(
      id: "wake", app: "a", schedule: Schedule(fireDate: .instant(base)), title: "Wake up",
      realert: Realert(every: 60, times: times), createdAt: base - 100)
  }

  /// Claims what is due at `now` and records it delivered at `now`.
  func fire(_ store: SQLiteStore, at now: Date) throws -> [Delivery] {
    let claims = try store.claimDue(now: now, zones: testZones(utc), owner: me, misfireGrace: nil, limit: 64)
    let deliveries = claims.map {
      Delivery(
        notification: $0.notification, occurrence: $0.occurrence + 1, fireDate: $0.fireDate, deliveredAt: now,
        late: false)
    }
    try store.markDelivered(zip(claims, deliveries).map { HandOff(claim: $0, delivery: $1) })
    return deliveries
  }

  @Test(
    "deliver → a copy at +every with one re-alert fewer; each re-alert is a delivered entry; the last leaves none"
  )
  func deliverUntilUsedUp() throws {
    // Given an alarm (every 60 s, 2 times) due at base
    let store = try SQLiteStore(path: folder.file("n.db"))
    try store.schedule(alarm(), zones: testZones(utc))
    // When it is delivered at base + 2 s
    #expect(try fire(store, at: base + 2).count == 1)
    // Then re-alert 1 is pending at base + 62 s, a copy of the occurrence it re-alerts
    var pending = try store.pending(app: "a")
    #expect(pending.map(\.nextFireDate) == [base + 62])
    #expect(pending.map(\.realertNumber) == [1] && pending.map(\.snoozedOccurrence) == [1])
    #expect(pending.first?.notification.realert?.remaining == 1)
    #expect(pending.first?.jsonRecord.compactText.contains(#""realertNumber":1"#) == true)
    // When re-alert 1 fires at base + 63 s: re-alert 2 follows at base + 123 s
    #expect(try fire(store, at: base + 63).map(\.notification.realert?.number) == [1])
    pending = try store.pending(app: "a")
    #expect(pending.map(\.nextFireDate) == [base + 123] && pending.map(\.realertNumber) == [2])
    // When re-alert 2, the last, fires: nothing follows
    #expect(try fire(store, at: base + 123).count == 1)
    #expect(try store.pending(app: "a").isEmpty)
    // And history has three deliveries, the re-alerts numbered
    let delivered = try store.history(app: "a", limit: 20).filter { $0.kind == .delivered }.reversed()
    #expect(delivered.map { $0.detail["realert"] } == [nil, .int(1), .int(2)])
  }

  @Test(
    "an acknowledgement deletes the pending re-alert in its own write; an expiry or a program's close does not",
    arguments: [
      (HistoryEvent.Kind.activated, "default", true), (.dismissed, "dismissed-by-user", true),
      (.dismissed, "expired", false), (.dismissed, "closed-by-call", false),
    ] as [(HistoryEvent.Kind, String, Bool)])
  func acknowledge(kind: HistoryEvent.Kind, reason: String, stops: Bool) throws {
    // Given a presented alarm (`notify now`): re-alert 1 pending
    let store = try SQLiteStore(path: folder.file("n.db"))
    let shown = Delivery(notification: alarm(), occurrence: 1, fireDate: base, deliveredAt: base, late: false)
    try store.recordPresented(shown)
    #expect(try store.pending(app: "a").map(\.realertNumber) == [1])
    // When the interaction is recorded
    try store.record(
      .interaction(kind, reason: reason, app: "a", id: "wake", occurrence: 1, userInfo: [:], at: base + 5))
    // Then the copy is gone exactly when it acknowledged
    #expect(try store.pending(app: "a").isEmpty == stops)
  }

  @Test("a click heard while a re-alert was being handed over stops what would follow it")
  func clickDuringHandOff() throws {
    // Given re-alert 1 claimed (handed to the sink) at base + 62 s
    let store = try SQLiteStore(path: folder.file("n.db"))
    try store.schedule(alarm(), zones: testZones(utc))
    _ = try fire(store, at: base + 2)
    let claims = try store.claimDue(
      now: base + 62, zones: testZones(utc), owner: me, misfireGrace: nil, limit: 64)
    // When the user clicks the first bubble before the re-alert's delivery is recorded
    try store.record(
      .interaction(
        .activated, reason: "default", app: "a", id: "wake", occurrence: 1, userInfo: [:], at: base + 61.5))
    let delivery = Delivery(
      notification: claims[0].notification, occurrence: 1, fireDate: claims[0].fireDate,
      deliveredAt: base + 62,
      late: false)
    try store.markDelivered([HandOff(claim: claims[0], delivery: delivery)])
    // Then no re-alert 2 is stored
    #expect(try store.pending(app: "a").isEmpty)
  }

  @Test("a re-alert held for quiet hours keeps its number and the occurrence it re-alerts, released or not")
  func heldAndReleased() throws {
    // Given occurrence 3 of an alarm (every 60 s, 3 times) shown at base: re-alert 1 of
    // occurrence 3 pending
    let store = try SQLiteStore(path: folder.file("n.db"))
    let third = Delivery(
      notification: alarm(times: 3), occurrence: 3, fireDate: base, deliveredAt: base, late: false)
    try store.recordPresented(third)
    #expect(try store.pending(app: "a").map(\.snoozedOccurrence) == [3])
    // When re-alert 1 falls due during quiet hours, and the firer holds it
    let claims = try store.claimDue(
      now: base + 60, zones: testZones(utc), owner: me, misfireGrace: nil, limit: 64)
    try #require(claims.count == 1)
    var held = Delivery(
      notification: claims[0].notification, occurrence: claims[0].occurrence + 1,
      fireDate: claims[0].fireDate,
      deliveredAt: base + 60, late: false)
    held.held = true
    try store.markDelivered([HandOff(claim: claims[0], delivery: held)])
    // Then the held one is re-alert 1 of 3 of occurrence 3, in history and in the list
    let holding = try store.held(app: "a")
    #expect(
      holding.map { $0.realertCopy?.number } == [1] && holding.map { $0.realertCopy?.occurrence } == [3])
    let listed = ListedNotification.held(holding[0]).jsonRecord.compactText
    #expect(listed.contains(#""realertNumber":1,"realertOccurrence":3"#), "\(listed)")
    #expect(try store.history(app: "a", limit: 1).first?.detail["realert"] == .int(1))
    // When quiet ends and a firer releases it
    let released = try store.claimHeld(apps: ["a"], owner: me, now: base + 600)
    try store.markReleased(released, at: base + 600, summaryID: nil)
    // Then history has its delivery as re-alert 1, and re-alert 2 of occurrence 3 follows
    let delivered = try store.history(app: "a", limit: 5).filter { $0.kind == .delivered }
    #expect(delivered.first?.detail["realert"] == .int(1) && delivered.first?.late == true)
    let pending = try store.pending(app: "a")
    #expect(pending.map(\.realertNumber) == [2] && pending.map(\.snoozedOccurrence) == [3], "\(pending)")
    #expect(pending.map(\.nextFireDate) == [base + 660])
    #expect(
      pending.first?.jsonRecord.compactText.contains(#""realertNumber":2,"realertOccurrence":3"#) == true)
  }

  @Test("a user's snooze replaces the re-alert; the snoozed copy is the alarm again, from re-alert 1")
  func snoozeReplaces() throws {
    let store = try SQLiteStore(path: folder.file("n.db"))
    let shown = Delivery(notification: alarm(), occurrence: 1, fireDate: base, deliveredAt: base, late: false)
    try store.recordPresented(shown)
    try store.snooze(alarm(), occurrence: 1, seconds: 600, at: base + 10)
    let pending = try store.pending(app: "a")
    #expect(pending.map(\.nextFireDate) == [base + 610])
    #expect(pending.map(\.realertNumber) == [nil] && pending.first?.notification.realert?.number == 0)
    // Cancel of the id removes a pending re-alert with everything else of it
    try store.recordPresented(shown)
    #expect(try store.cancel(app: "a", ids: ["wake"], at: base + 20) == [])
    #expect(try store.pending(app: "a").isEmpty)
  }

  @Test("the alarm survives a reopen; the schema has v13-realert")
  func durable() throws {
    let path = folder.file("n.db")
    do {
      let store = try SQLiteStore(path: path)
      try store.recordPresented(
        Delivery(notification: alarm(times: 5), occurrence: 1, fireDate: base, deliveredAt: base, late: false)
      )
    }
    let reopened = try SQLiteStore(path: path)
    #expect(
      try reopened.pending(app: "a").first?.notification.realert
        == Realert(every: 60, times: 5).copy(number: 1, occurrence: 1))
    #expect(StoreSchema.migrator.migrations.contains("v13-realert"))
  }
}

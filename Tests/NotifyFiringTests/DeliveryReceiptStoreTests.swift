import Foundation
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// The store's half of a delivery's receipt: the server id a sink got is written
/// with the delivery, and comes back with the next claim of the same notification, together
/// with what a click can reach of its app, so that the sink reads nothing.
@Suite("SQLite store: receipts recorded with the delivery, read with the claim", .ownThreads)
struct DeliveryReceiptStoreTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)
  let me = FirerIdentity.current

  @Test("a receipt's bubble is recorded with the delivery and read by the next claim of the id")
  func bubbleRoundTrip() throws {
    // Given a notification due every minute, claimed and handed over with a receipt
    let f = try FiringFixture()
    try f.schedule("m", at: now - 1, repeat: .minute, count: 3)
    let zones = testZones(f.utc)
    let first = try #require(
      try f.store.claimBatch(now: now, zones: zones, owner: me, misfireGrace: nil, limit: 64).claims.first)
    #expect(first.bubble == nil)
    let bubble = ServerBubbleID(42, server: "bus/:1.7")
    let delivery = Delivery(
      notification: first.notification, occurrence: 1, fireDate: first.fireDate, deliveredAt: now, late: false
    )
    // When the delivery is recorded with the receipt
    try f.store.markDelivered([
      HandOff(claim: first, delivery: delivery, receipt: DeliveryReceipt(bubble: bubble))
    ])
    // Then the store keeps the bubble, and the next occurrence's claim carries it
    #expect(try f.store.desktopServerID(app: "test", id: "m") == bubble)
    let next = try #require(
      try f.store.claimBatch(now: now + 60, zones: zones, owner: me, misfireGrace: nil, limit: 64).claims
        .first)
    #expect(next.bubble == bubble)
    // And a receipt without a bubble (stdout) leaves it as it was
    try f.store.markDelivered([HandOff(claim: next, delivery: delivery)])
    #expect(try f.store.desktopServerID(app: "test", id: "m") == bubble)
  }

  @Test("a held occurrence's release is claimed with its bubble, and records the bubble it showed")
  func heldRelease() throws {
    // Given a notification shown as bubble 7, then an occurrence of it held for quiet hours
    let f = try FiringFixture()
    let shown = ServerBubbleID(7, server: "bus/:1.7")
    try f.store.setDesktopServerID(shown, app: "test", id: "q")
    let notification = LocalNotification(
      id: "q", app: "test", schedule: Schedule(fireDate: .instant(now)), title: "held", createdAt: now)
    var delivery = Delivery(
      notification: notification, occurrence: 1, fireDate: now, deliveredAt: now, late: false)
    delivery.held = true
    try f.store.recordHeld(delivery)
    // When a firer claims it to release it
    let held = try f.store.claimHeld(apps: ["test"], owner: me, now: Date())
    // Then the claim carries the bubble its release replaces
    #expect(held.map(\.bubble) == [shown])
    // And recording the release keeps the bubble the sink showed it in
    let again = ServerBubbleID(8, server: "bus/:1.7")
    try f.store.markReleased(held, at: now + 60, summaryID: nil, bubble: again)
    #expect(try f.store.desktopServerID(app: "test", id: "q") == again)
  }

  @Test("the claim reads what a click can reach of each claimed app: its presence and desktop entry")
  func reachReadWithTheClaim() throws {
    // Given two apps due, one with a desktop entry configured and a live process online
    let f = try FiringFixture()
    try f.schedule("a", at: now - 1, app: "chat")
    try f.schedule("b", at: now - 1, app: "mail")
    try f.store.setDesktopEntry("org.example.Chat", app: "chat")
    try f.store.enter(AppPresence(app: "chat", owner: me, fires: false, sink: nil), at: now)
    // When they are claimed
    let batch = try f.store.claimBatch(
      now: now, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64)
    // Then the batch says, per app, whether it is online and which entry opens it
    #expect(batch.reach?["chat"] == AppReach(online: true, desktopEntry: "org.example.Chat"))
    #expect(batch.reach?["mail"] == AppReach(online: false, desktopEntry: nil))
  }
}

import Foundation
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

@Suite("SQLite store as a FiringStore: durable claims", .ownThreads)
struct SQLiteFiringStoreTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)
  let me = FirerIdentity.current

  @Test("due occurrences are claimed once; a second firer gets nothing")
  func claimOnce() throws {
    // Given two due notifications and one in the future
    let f = try FiringFixture()
    try f.schedule("a", at: now - 1)
    try f.schedule("b", at: now - 2)
    try f.schedule("later", at: now + 60)
    // When this firer claims, then another one does
    let first = try f.store.claimDue(
      now: now, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64)
    let second = try f.openAgain().claimDue(
      now: now, zones: testZones(f.utc), owner: otherLiveFirer, misfireGrace: nil, limit: 64)
    // Then the first gets both, soonest first, and the second none
    #expect(first.map(\.notification.id) == ["b", "a"])
    #expect(second.isEmpty)
    // And the claimed ones left pending (they fire once) while `later` stays
    #expect(try f.store.pending(app: nil).map(\.notification.id) == ["later"])
    #expect(try f.store.nextFireDate(zones: testZones(f.utc)) == now + 60)
  }

  @Test("eight firers claiming at once never share an occurrence")
  func concurrentClaims() async throws {
    // Given 300 due occurrences over five apps
    let f = try FiringFixture()
    for i in 0..<300 { try f.schedule("n\(i)", at: now - Double(i % 7), app: "app\(i % 5)") }
    // When eight connections (threads) claim in small batches until nothing is left (a busy
    // error fails the test rather than being tried again; the connections wait up to 30 s,
    // since SQLite's sleeping busy handler lets one of eight be overtaken past 5 s on a
    // loaded 2-core machine, where a firer would simply try again)
    let claimed = Collected()
    let (now, me, zone) = (now, me, f.utc)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        let store = try SQLiteStore(path: f.path, busyTimeout: 30)
        group.addTask {
          while true {
            let claims = try store.claimDue(
              now: now, zones: testZones(zone), owner: me, misfireGrace: nil, limit: 7)
            if claims.isEmpty { break }
            claimed.append(claims.map { "\($0.notification.app)/\($0.notification.id)" })
          }
        }
      }
      try await group.waitForAll()
    }
    // Then every occurrence was claimed exactly once
    let all = claimed.values
    #expect(all.count == 300)
    #expect(Set(all).count == 300)
  }

  @Test("a claim left by a dead firer is taken over; a live firer's is not")
  func takeOver() throws {
    // Given one occurrence claimed by a firer that died and one by a live other firer
    let f = try FiringFixture()
    try f.schedule("alive", at: now - 5)
    _ = try f.store.claimDue(
      now: now, zones: testZones(f.utc), owner: otherLiveFirer, misfireGrace: nil, limit: 64)
    try f.schedule("dead", at: now - 10)
    _ = try f.store.claimDue(
      now: now, zones: testZones(f.utc), owner: deadFirer, misfireGrace: nil, limit: 64)
    // Then the dead one's claim counts as due
    #expect(try f.store.nextFireDate(zones: testZones(f.utc)) == now - 10)
    #expect(try f.store.dueCount(now: now) == 1)
    // When this firer claims
    let claims = try f.store.claimDue(
      now: now, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64)
    // Then it gets the dead firer's occurrence, late, with the notification from the snapshot
    #expect(claims.map(\.notification.id) == ["dead"])
    #expect(claims.first?.late == true)
    #expect(claims.first?.notification.body == "private body")
    #expect(claims.first?.notification.userInfo == ["k": .string("v")])
    // And no one else gets it again
    #expect(
      try f.store.claimDue(now: now, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64).isEmpty
    )
  }

  @Test("an app-scoped claim takes only that app's occurrences, abandoned ones included")
  func appScoped() throws {
    // Given due notifications of two apps, and an abandoned claim of each
    let f = try FiringFixture()
    try f.schedule("a-dead", at: now - 9, app: "a")
    try f.schedule("b-dead", at: now - 8, app: "b")
    _ = try f.store.claimDue(
      now: now, zones: testZones(f.utc), owner: deadFirer, misfireGrace: nil, limit: 64)
    try f.schedule("a1", at: now - 2, app: "a")
    try f.schedule("b1", at: now - 1, app: "b")
    // When app a's firer claims
    let claims = try f.store.claimDue(
      now: now, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64, app: "a")
    // Then it gets a's two and leaves b's due for someone else
    #expect(claims.map(\.notification.id) == ["a-dead", "a1"])
    let rest = try f.store.claimDue(
      now: now, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64)
    #expect(rest.map(\.notification.id) == ["b-dead", "b1"])
  }

  @Test("released claims return to pending and are claimed again")
  func release() throws {
    // Given two claimed occurrences of a one-shot and of a minutely repeat that missed 3
    let f = try FiringFixture()
    try f.schedule("once", at: now - 1)
    try f.schedule("rep", at: now - 180, repeat: .minute)
    let claims = try f.store.claimDue(
      now: now, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64)
    #expect(claims.count == 2)
    #expect(claims.first { $0.notification.id == "rep" }?.coalesced == 3)
    // When they are released unstarted
    try f.store.release(claims)
    // Then both are pending and due again, and a new claim sees the same occurrences
    #expect(Set(try f.store.pending(app: nil).map(\.notification.id)) == ["once", "rep"])
    let again = try f.store.claimDue(
      now: now, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64)
    #expect(
      Set(again.map { "\($0.notification.id)#\($0.occurrence)/\($0.coalesced)" }) == ["once#0/0", "rep#3/3"])
  }

  @Test("a released claim whose notification was cancelled is dropped")
  func releaseAfterCancel() throws {
    let f = try FiringFixture()
    try f.schedule("r", at: now - 1, repeat: .hour)
    let claims = try f.store.claimDue(
      now: now, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64)
    _ = try f.store.cancel(app: "test", ids: ["r"], at: now)
    try f.store.release(claims)
    #expect(try f.store.pending(app: nil).isEmpty)
    #expect(try f.store.dueCount(now: now + 3600) == 0)
  }

  @Test("a released claim whose row moved on stays claimable by anyone")
  func releaseAfterMoveOn() throws {
    // Given occurrences 0 and 1 claimed by a firer that died, taken over by this one
    let f = try FiringFixture()
    try f.schedule("r", at: now - 1, repeat: .minute)
    _ = try f.store.claimDue(
      now: now, zones: testZones(f.utc), owner: deadFirer, misfireGrace: nil, limit: 64)
    _ = try f.store.claimDue(
      now: now + 60, zones: testZones(f.utc), owner: deadFirer, misfireGrace: nil, limit: 64)
    let taken = try f.store.claimDue(
      now: now + 61, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64)
    #expect(taken.map(\.occurrence) == [0, 1])
    // When both are released (the row has moved past 0, but not past 1)
    try f.store.release(taken)
    // Then 1 is pending again, 0 stays claimable, and the next firer gets both
    #expect(try f.store.pending(app: nil).first?.nextOccurrence == 1)
    let again = try f.store.claimDue(
      now: now + 62, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64)
    #expect(again.map(\.occurrence) == [0, 1])
  }

  @Test("past the misfire grace an occurrence is recorded missed, not claimed")
  func misfireGrace() throws {
    let f = try FiringFixture()
    try f.schedule("old", at: now - 3600)
    try f.schedule("fresh", at: now - 5)
    let claims = try f.store.claimDue(
      now: now, zones: testZones(f.utc), owner: me, misfireGrace: 60, limit: 64)
    #expect(claims.map(\.notification.id) == ["fresh"])
    let missed = try f.events(.missed)
    #expect(missed.map(\.notificationID) == ["old"])
    #expect(missed.first?.reason == "misfire-grace")
    #expect(missed.first?.occurrence == 1)
    #expect(try f.store.pending(app: nil).isEmpty)
  }

  @Test("delivering records history, the count and the badge; the last one leaves pending")
  func markDelivered() throws {
    // Given a repeat of 2 with a badge
    let f = try FiringFixture()
    try f.schedule("r", at: now - 61, repeat: .minute, count: 2, badge: 7)
    // When its first occurrence is claimed and delivered
    let first = try #require(
      try f.store.claimDue(now: now - 60, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64)
        .first)
    try f.store.markDelivered([HandOff(claim: first, delivery: Delivery(first, at: now - 60))])
    // Then it is still pending, counted and the badge is set
    #expect(try f.store.pending(app: nil).first?.notification.deliveredCount == 1)
    #expect(try f.store.badge(app: "test") == 7)
    // When the second (last) one is delivered
    let second = try #require(
      try f.store.claimDue(now: now, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64).first)
    try f.store.markDelivered([HandOff(claim: second, delivery: Delivery(second, at: now))])
    // Then it left pending but stays in history with both occurrences
    #expect(try f.store.pending(app: nil).isEmpty)
    #expect(try f.store.nextFireDate(zones: testZones(f.utc)) == nil)
    #expect(try f.events(.delivered).map { $0.occurrence } == [1, 2])
    #expect(try f.store.notification(app: "test", id: "r")?.notification.deliveredCount == 2)
  }

  @Test("a failed delivery is recorded with its reason")
  func markFailed() throws {
    let f = try FiringFixture()
    try f.schedule("x", at: now - 1)
    let claim = try #require(
      try f.store.claimDue(now: now, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64).first)
    try f.store.markFailed(claim, reason: "desktop sink: timed out", at: now)
    let failed = try f.events(.failed)
    #expect(failed.map(\.reason) == ["desktop sink: timed out"])
    #expect(try f.store.dueCount(now: now) == 0)
  }

  @Test("a clock set backwards delivers nothing twice")
  func backwardsClock() throws {
    let f = try FiringFixture()
    try f.schedule("r", at: now - 30, repeat: .minute)
    let claims = try f.store.claimDue(
      now: now, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64)
    #expect(claims.count == 1)
    // When the clock is set back an hour and back to now
    #expect(
      try f.store.claimDue(now: now - 3600, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64)
        .isEmpty
    )
    #expect(
      try f.store.claimDue(now: now, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64).isEmpty
    )
    // Then the next one is still the next future minute
    #expect(try f.store.nextFireDate(zones: testZones(f.utc)) == now + 30)
  }

  @Test("a local wall-clock notification follows the system zone")
  func localZoneMoves() throws {
    // Given 09:00 local scheduled while the zone was Berlin
    let f = try FiringFixture()
    let berlin = testZone("Europe/Berlin")
    let tokyo = testZone("Asia/Tokyo")
    let wall = WallClock(year: 2030, month: 1, day: 15, hour: 9)
    let n = LocalNotification(
      id: "w", app: "test", schedule: Schedule(fireDate: .wallClock(wall, .local)), title: "t", createdAt: now
    )
    _ = try f.store.schedule(n, zones: testZones(berlin))
    #expect(try f.store.nextFireDate(zones: testZones(berlin)) == ZoneResolver.instant(for: wall, in: berlin))
    // When the system zone becomes Tokyo
    // Then the next fire instant is 09:00 in Tokyo
    #expect(try f.store.nextFireDate(zones: testZones(tokyo)) == ZoneResolver.instant(for: wall, in: tokyo))
    // And it follows each later move, whichever side of the old zone's name the new one sorts
    for zone in ["America/New_York", "UTC", "Asia/Kolkata", "Asia/Tokyo"] {
      let moved = testZone(zone)
      #expect(try f.store.nextFireDate(zones: testZones(moved)) == ZoneResolver.instant(for: wall, in: moved))
    }
  }
}

/// Strings gathered from several tasks.
final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [String] = []
  func append(_ more: [String]) { lock.withLock { items += more } }
  var values: [String] { lock.withLock { items } }
}

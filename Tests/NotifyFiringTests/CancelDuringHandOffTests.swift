import Foundation
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// A cancel and a hand-off of the same occurrence: exactly one of them is its fate
/// (`FiringStore.beginHandOff`; the race "8 writers and 2 firers" found).
@Suite("A cancel racing a hand-off", .ownThreads)
struct CancelDuringHandOffTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)
  let me = FirerIdentity.current

  @Test("a cancel while a hand-off is under way leaves that occurrence to the firer (delivered), not others")
  func cancelDuringHandOff() throws {
    // Given two occurrences this firer claimed, the hand-off of `x` under way
    let f = try FiringFixture()
    try f.schedule("x", at: now - 2)
    try f.schedule("y", at: now - 1)
    let claims = try f.store.claimDue(
      now: now, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64)
    let claim = try #require(claims.first { $0.notification.id == "x" })
    try f.store.beginHandOff([claim], owner: me)
    #expect(try f.store.keepClaim(claim, owner: me, now: now))
    // When another process cancels both
    let missing = try f.openAgain().cancel(app: "test", ids: ["x", "y"], at: now)
    // Then the cancel finds only `x` not its to cancel: `y` is cancelled
    #expect(missing == ["x"])
    #expect(try f.events(.cancelled).map(\.notificationID) == ["y"])
    // And once the hand-off is noted and recorded, its one fate is delivered
    let handOff = HandOff(claim: claim, delivery: Delivery(claim, at: now))
    try f.store.noteHandedOver([handOff], owner: me)
    f.store.finishHandOff(owner: me)
    try f.store.markDelivered([handOff])
    #expect(try f.events(.delivered).map(\.notificationID) == ["x"])
    #expect(try f.events(.cancelled).map(\.notificationID) == ["y"])
    f.store.endHandOffs(owner: me)
  }

  @Test("a cancel before the hand-off began wins: the confirmation fails, nothing else is recorded")
  func cancelBeforeHandOff() throws {
    // Given an occurrence this firer claimed, cancelled by another process
    let f = try FiringFixture()
    try f.schedule("x", at: now - 1)
    let claim = try #require(
      try f.store.claimDue(now: now, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64).first)
    #expect(try f.openAgain().cancel(app: "test", ids: ["x"], at: now).isEmpty)
    // When the firer begins its hand-off
    try f.store.beginHandOff([claim], owner: me)
    defer { f.store.finishHandOff(owner: me) }
    // Then the claim is gone, and a late record or failure of it adds nothing
    #expect(try f.store.keepClaim(claim, owner: me, now: now) == false)
    try f.store.markFailed(claim, reason: "test", at: now)
    #expect(try f.events(.cancelled).map(\.notificationID) == ["x"])
    #expect(try f.events(.failed).isEmpty)
    f.store.endHandOffs(owner: me)
  }

  @Test("a held occurrence cancelled before it was recorded stays cancelled: quiet hours do not keep it")
  func cancelBeforeHeldRecord() throws {
    // Given an occurrence the firer decided to hold for quiet hours, not yet recorded
    let f = try FiringFixture()
    try f.schedule("x", at: now - 1)
    let claim = try #require(
      try f.store.claimDue(now: now, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64).first)
    var held = Delivery(claim, at: now)
    held.held = true
    // When the app cancels it before the record
    #expect(try f.openAgain().cancel(app: "test", ids: ["x"], at: now).isEmpty)
    try f.store.markDelivered([HandOff(claim: claim, delivery: held)])
    // Then nothing is held for later and its one fate is cancelled
    #expect(try f.store.heldCount(app: nil) == 0)
    #expect(try f.events(.cancelled).map(\.notificationID) == ["x"])
    #expect(try f.events(.delivered).isEmpty)
  }
}

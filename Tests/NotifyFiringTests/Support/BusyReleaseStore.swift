import Foundation
import NotifyCore
import NotifyStore

/// The real SQLite store, except that recording a release (`markReleased`) can be made to
/// fail as a busy store fails (exit 75: another process held the write lock past 5 s), a
/// given number of times: the fault right after a held notification was shown.
final class BusyReleaseStore: FiringStore, @unchecked Sendable {
  // Safe: `busyLeft` and `failed` are only touched with `lock` held.
  private let lock = NSLock()
  private var busyLeft = 0
  private var failed = 0
  let store: SQLiteStore

  init(_ store: SQLiteStore) { self.store = store }

  /// The next `count` calls of `markReleased` fail, without writing anything.
  func failReleases(_ count: Int) { lock.withLock { busyLeft = count } }

  /// How many calls of `markReleased` failed.
  var failedReleases: Int { lock.withLock { failed } }

  func markReleased(_ held: [HeldNotification], at date: Date, summaryID: String?, bubble: ServerBubbleID?)
    throws
  {
    try lock.withLock {
      guard busyLeft > 0 else { return }
      busyLeft -= 1
      failed += 1
      throw NotifyError(
        .temporary, "the store \(store.path) stayed busy for more than 5 s",
        fix: "try again; another notify process is writing")
    }
    try store.markReleased(held, at: date, summaryID: summaryID, bubble: bubble)
  }

  // Everything else is the real store's.

  func nextFireDate(zones: Zones, app: String?) throws -> Date? {
    try store.nextFireDate(zones: zones, app: app)
  }

  func recomputeWallClockRows(zones: Zones) throws -> Int { try store.recomputeWallClockRows(zones: zones) }

  func countDue(at instant: Date, app: String?) throws -> Int { try store.countDue(at: instant, app: app) }

  func claimDue(
    now: Date, zones: Zones, owner: FirerIdentity, misfireGrace: TimeInterval?, limit: Int, app: String?
  ) throws -> [Claim] {
    try store.claimDue(
      now: now, zones: zones, owner: owner, misfireGrace: misfireGrace, limit: limit, app: app)
  }

  func beginHandOff(_ claims: [Claim], owner: FirerIdentity) throws {
    try store.beginHandOff(claims, owner: owner)
  }

  func beginRelease(_ held: [HeldNotification], owner: FirerIdentity) throws {
    try store.beginRelease(held, owner: owner)
  }

  func finishHandOff(owner: FirerIdentity) {
    store.finishHandOff(owner: owner)
  }

  func noteHandedOver(_ handOffs: [HandOff], owner: FirerIdentity) throws {
    try store.noteHandedOver(handOffs, owner: owner)
  }

  func keepClaim(_ claim: Claim, owner: FirerIdentity, now: Date) throws -> Bool {
    try store.keepClaim(claim, owner: owner, now: now)
  }

  func markDelivered(_ handOffs: [HandOff]) throws { try store.markDelivered(handOffs) }

  func recordPresented(_ delivery: Delivery, bubble: ServerBubbleID?) throws {
    try store.recordPresented(delivery, bubble: bubble)
  }

  func recordHeld(_ delivery: Delivery) throws { try store.recordHeld(delivery) }

  func outlook(zones: Zones, app: String?) throws -> FiringOutlook {
    try store.outlook(zones: zones, app: app)
  }

  func claimBatch(
    now: Date, zones: Zones, owner: FirerIdentity, misfireGrace: TimeInterval?, limit: Int, app: String?
  ) throws -> ClaimBatch {
    try store.claimBatch(
      now: now, zones: zones, owner: owner, misfireGrace: misfireGrace, limit: limit, app: app)
  }

  func markDelivered(_ handOffs: [HandOff], zones: Zones, app: String?) throws -> FiringOutlook? {
    try store.markDelivered(handOffs, zones: zones, app: app)
  }

  func isUnchanged(since version: StoreVersion) -> Bool { store.isUnchanged(since: version) }

  func endHandOffs(owner: FirerIdentity) { store.endHandOffs(owner: owner) }

  func markFailed(_ claim: Claim, reason: String, at: Date) throws {
    try store.markFailed(claim, reason: reason, at: at)
  }

  func release(_ claims: [Claim]) throws { try store.release(claims) }

  func settingsInForce(app: String) throws -> NotificationSettings { try store.settingsInForce(app: app) }

  func quietHours() throws -> QuietHours { try store.quietHours() }

  func heldApps(app: String?) throws -> [String] { try store.heldApps(app: app) }

  func claimHeld(apps: [String], owner: FirerIdentity, now: Date) throws -> [HeldNotification] {
    try store.claimHeld(apps: apps, owner: owner, now: now)
  }

  func unclaimHeld(_ held: [HeldNotification]) throws { try store.unclaimHeld(held) }

  func keepHeld(_ held: [HeldNotification], owner: FirerIdentity) throws -> [HeldNotification] {
    try store.keepHeld(held, owner: owner)
  }

  func noteReleased(_ held: [HeldNotification], at date: Date, summaryID: String?, owner: FirerIdentity)
    throws
  {
    try store.noteReleased(held, at: date, summaryID: summaryID, owner: owner)
  }

  func changedByOthers() throws -> Bool { try store.changedByOthers() }
}

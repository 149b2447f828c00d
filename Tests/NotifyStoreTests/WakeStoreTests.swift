import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

@testable import NotifyStore

/// Waking notifications in the store: kept, read back, and the earliest one an outlook
/// gives the firer, of the apps the user lets wake the machine, with the lead.
@Suite("Waking notifications in the store", .ownThreads)
struct WakeStoreTests {
  let folder = TemporaryFolder()
  let utc = testZone("UTC")
  let base = Date(timeIntervalSince1970: 1_900_000_000)

  func note(
    _ id: String, app: String = "a", at offset: TimeInterval, wake: Bool, expireLate: TimeInterval? = nil
  )
    -> LocalNotification
  {
    LocalNotification(
      id: id, app: app, schedule: Schedule(fireDate: .instant(base + offset)), title: id, wake: wake,
      expireLate: expireLate, createdAt: base)
  }

  @Test("wake and expireLate are kept and read back, in the claim's snapshot too")
  func roundTrip() throws {
    let store = try SQLiteStore(path: folder.file("n.db"))
    _ = try store.schedule(note("w", at: -1, wake: true, expireLate: 90.5), zones: testZones(utc))
    let pending = try #require(try store.pending(app: "a").first?.notification)
    #expect(pending.wake && pending.expireLate == 90.5)
    let batch = try store.claimBatch(
      now: base, zones: testZones(utc), owner: .current, misfireGrace: nil, limit: 64)
    #expect(batch.claims.first?.notification.wake == true)
    #expect(batch.claims.first?.notification.expireLate == 90.5)
  }

  @Test(
    "the outlook's earliest waking one: plain ones and apps the user does not let wake are left out; the lead"
  )
  func outlook() throws {
    let store = try SQLiteStore(path: folder.file("n.db"))
    let zones = testZones(utc)
    _ = try store.schedule(note("plain", at: 100, wake: false), zones: zones)
    _ = try store.schedule(note("muted", app: "quiet", at: 200, wake: true), zones: zones)
    _ = try store.schedule(note("later", at: 300, wake: true), zones: zones)
    #expect(try store.outlook(zones: zones).wake == WakePlanner.Due(instant: base + 200, lead: 60))
    // When the user does not let app quiet wake the machine, and sets the lead
    try store.change(SettingsChange(wake: false), app: "quiet")
    try store.setWakeLead(120)
    // Then the earliest is app a's, with the new lead; and an app's own outlook is its own
    #expect(try store.outlook(zones: zones).wake == WakePlanner.Due(instant: base + 300, lead: 120))
    #expect(try store.outlook(zones: zones, app: "quiet").wake == nil)
    // When the default policy is off, only apps the user let are kept
    try store.change(SettingsChange(wake: false), app: nil)
    #expect(try store.outlook(zones: zones).wake == nil)
    try store.change(SettingsChange(wake: true), app: "a")
    #expect(try store.outlook(zones: zones).wake?.instant == base + 300)
    #expect(try store.wakeOutlook().pending == 2)
  }

  @Test("a lead outside 0 to 10 minutes is refused and the store keeps the one it had")
  func leadBounds() throws {
    let store = try SQLiteStore(path: folder.file("n.db"))
    try store.setWakeLead(30)
    #expect(throws: NotifyError.self) { try store.setWakeLead(601) }
    #expect(try store.wakeLead() == 30)
  }
}

import Foundation
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// One process holding the store open twice while other processes come and go, as the
/// embedding API, the daemon's helpers and the tests do (SPEC.md §9: shared safely by
/// several processes).
@Suite("Reliability: one process, two connections", .ownThreads)
struct SharedStoreTests {
  @Test(
    "opening a second SQLiteStore keeps the first one's locks: another process's close cannot take the WAL away"
  )
  func secondOpenKeepsLocks() throws {
    // Given a store open in this process, with a write in its WAL
    let folder = TemporaryFolder(prefix: "notify-shared")
    let db = folder.file("notify.db")
    let utc = testZone("UTC")
    let first = try SQLiteStore(path: db)
    func note(_ id: String) -> LocalNotification {
      LocalNotification(
        id: id, app: "shared", schedule: Schedule(fireDate: .instant(Date() + 3600)), title: id,
        createdAt: Date())
    }
    _ = try first.schedule(note("before"), zones: testZones(utc))
    // When the same process opens the store a second time, and another process opens and
    // closes it (a CLI run)
    let second = try SQLiteStore(path: db)
    #expect(try notify(["list", "--app", "shared"], db: db).status == 0)
    // And the first connection then writes
    _ = try first.schedule(note("after"), zones: testZones(utc))
    // Then other processes see that write, and the store is sound
    let listed = try notify(["list", "--json", "--app", "shared"], db: db)
    #expect(listed.stdout.contains("\"after\""), "another process does not see the write: \(listed.stdout)")
    #expect(try second.pending(app: "shared").map(\.notification.id).sorted() == ["after", "before"])
    #expect(try first.integrityCheck() == "ok")
  }
}

import Foundation
import GRDB
import NotifyCore
import NotifyTestSupport
import Testing

@testable import NotifyStore

/// The daemon checkpoints the WAL itself, after its wake-ups: never inside a
/// burst's commits.
@Suite("The daemon's own checkpoints")
struct DaemonCheckpointTests {
  let folder = TemporaryFolder()

  func note(_ id: String) -> LocalNotification {
    LocalNotification(
      id: id, app: "a", schedule: Schedule(fireDate: .instant(Date() + 3600)), body: id, createdAt: Date())
  }

  @Test("with its checkpoints taken, commits leave pages in the WAL until checkpointIfLarge copies them")
  func backlog() throws {
    let store = try SQLiteStore(path: folder.file("notify.db"))
    try store.takeCheckpoints()
    #expect(try store.queue.read { try Int.fetchOne($0, sql: "PRAGMA wal_autocheckpoint") } == 0)
    let start = try #require(store.walBacklog())
    for n in 0..<5 { _ = try store.schedule(note("n\(n)"), zones: testZones(testZone("UTC"))) }
    let backlog = try #require(store.walBacklog())
    #expect(backlog > start)
    // A backlog under the threshold is left; at it, a passive checkpoint copies it all
    #expect(!store.checkpointIfLarge(pages: backlog + 1))
    #expect(store.walBacklog() == backlog)
    #expect(store.checkpointIfLarge(pages: backlog))
    #expect(store.walBacklog() == 0)
    #expect(try store.pending(app: "a").count == 5)
  }
}

import Foundation
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// The store file deleted or replaced under a running firer: it stops with exit
/// 75 and says why, instead of firing from the unlinked file forever; started again, it
/// fires from the file now at the path.
@Suite(.serialized, .ownThreads)
struct StoreReplacedTests {
  enum Change: String, CaseIterable, CustomTestStringConvertible {
    case replaced = "replaced by another store (mv over it)"
    case deleted = "deleted"
    var testDescription: String { rawValue }
  }

  @Test(
    "the daemon stops with 75 when its store goes, and a restart fires from the new one",
    arguments: Change.allCases)
  func daemonNotices(_ change: Change) throws {
    // Given a daemon firing from a store that holds a notification due in an hour
    let f = try FiringFixture()
    try f.schedule("old", at: Date() + 3600)
    let daemon = try ChildProcess.daemon(db: f.path, folder: f.folder, name: "d1")
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    // When the file is replaced by another store (with a notification due at once), or deleted
    let other = f.folder.file("other.db")
    do {
      let store = try SQLiteStore(path: other)
      try store.schedule(
        LocalNotification(
          id: "new", app: "test", schedule: Schedule(fireDate: .instant(Date() + 1)),
          body: "from the new store",
          createdAt: Date()),
        zones: testZones(f.utc))
    }
    switch change {
    case .replaced:
      // (as a store is replaced: with its WAL, which holds its latest commits and takes the
      // place of the old one's, which would otherwise be replayed onto it)
      #expect(rename(other, f.path) == 0)
      #expect(rename(other + "-wal", f.path + "-wal") == 0)
      unlink(f.path + "-shm")
      unlink(other + "-shm")
    case .deleted: #expect(unlink(f.path) == 0)
    }
    // Then the daemon stops with 75 and says why
    #expect(daemon.waitExit() == 75, "\(daemon.stderr)")
    #expect(daemon.stderr.contains("was deleted or replaced while running"), "\(daemon.stderr)")
    guard change == .replaced else { return }
    // And started again (as systemd does), it fires what the new store holds
    let again = try ChildProcess.daemon(db: f.path, folder: f.folder, name: "d2")
    #expect(waitUntil(timeout: 15) { again.deliveries.contains { $0.id == "new" } }, "\(again.stderr)")
    again.send(SIGTERM)
    #expect(again.waitExit() == 0)
  }
}

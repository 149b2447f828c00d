import Foundation
import NotifyTestSupport
import Testing

/// What a delivery costs `notify daemon`'s store connection, counted in the daemon itself
/// (`NOTIFY_STORE_TRACE`) with the real change filter on inotify (at most 3
/// transactions per stdout delivery). Counts, not times.
@Suite(.ownThreads)
struct DaemonStoreReadsTests {
  @Test("a notification scheduled after a checkpoint costs the daemon one read and two writes")
  func oneReadAfterAWALRestart() throws {
    // Given an idle daemon tracing its store transactions, with the WAL checkpointed to
    // nothing: the next commit of another process restarts the WAL, a write to it before
    // the commit is readable
    let f = try FiringFixture()
    let daemon = try NotifyProcess.daemon(
      db: f.path, folder: f.folder, name: "d", environment: ["NOTIFY_STORE_TRACE": "1"])
    #expect(daemon.waitReady(), "\(daemon.errorText)")
    let checkpoint = try CommandRunner(executable: "/usr/bin/python3").run([
      "-c",
      "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA wal_checkpoint(PASSIVE)').fetchone())",
      f.path,
    ])
    #expect(checkpoint.status == 0, "\(checkpoint.stderr)")
    let mark = daemon.errorText.count
    // When another process schedules one for 2 s later, and it is delivered
    try notify(["schedule", "--in", "2s", "--title", "once", "--id", "once"], db: f.path)
    let delivered = waitUntil(timeout: 30) { daemon.errorText.contains("delivered app=notify id=once") }
    #expect(delivered, "\(daemon.errorText)")
    // Then from the change to the delivery the daemon read its store once and wrote twice
    // (the claim, the record)
    let walk = String(daemon.errorText.dropFirst(mark))
    let upToDelivery = walk.components(separatedBy: "delivered app=notify id=once").first ?? ""
    let reads = upToDelivery.components(separatedBy: "notify store: read BEGIN").count - 1
    let writes = upToDelivery.components(separatedBy: "notify store: write BEGIN").count - 1
    #expect(reads == 1, "\(upToDelivery)")
    #expect(writes == 2, "\(upToDelivery)")
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }
}

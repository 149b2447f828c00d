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
    let daemon = try ChildProcess.daemon(
      db: f.path, folder: f.folder, name: "d", environment: ["NOTIFY_STORE_TRACE": "1"])
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    let checkpoint = try CommandRunner(executable: "/usr/bin/python3").run([
      "-c",
      "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA wal_checkpoint(PASSIVE)').fetchone())",
      f.path,
    ])
    #expect(checkpoint.status == 0, "\(checkpoint.stderr)")
    let mark = daemon.stderr.count
    // When another process schedules one for 2 s later, and it is delivered
    try notify(["schedule", "--in", "2s", "--title", "once", "--id", "once"], db: f.path)
    let delivered = waitUntil(timeout: 30) { daemon.stderr.contains("delivered app=notify id=once") }
    #expect(delivered, "\(daemon.stderr)")
    // Then from the change to the delivery the daemon read its store once and wrote twice
    // (the claim, the record)
    let walk = String(daemon.stderr.dropFirst(mark))
    let upToDelivery = walk.components(separatedBy: "delivered app=notify id=once").first ?? ""
    let reads = upToDelivery.components(separatedBy: "notify store: read BEGIN").count - 1
    let writes = upToDelivery.components(separatedBy: "notify store: write BEGIN").count - 1
    #expect(reads == 1, "\(upToDelivery)")
    #expect(writes == 2, "\(upToDelivery)")
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }

  @Test(
    "from one notify schedule to its delivery SQLite takes at most 3 read transactions and 2 writes in the daemon",
    .enabled(if: SQLiteCount.compiler != nil, "needs a C compiler (cc) to build the counting VFS"))
  func sqliteCountsAtMostThreeReadsPerDelivery() throws {
    // Given an idle daemon whose SQLite counts its own transactions (a pass-through VFS
    // noting every read mark and write lock it takes on the WAL index, `sqlite-count.c`),
    // the change filter's `PRAGMA data_version` looks included
    let f = try FiringFixture()
    let count = try SQLiteCount(folder: f.folder)
    let daemon = try ChildProcess.daemon(
      db: f.path, folder: f.folder, name: "d", environment: count.environment)
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    let before = count.settled()
    // When another process schedules one for 2 s later, and it is delivered
    try notify(["schedule", "--in", "2s", "--title", "once", "--id", "once"], db: f.path)
    let delivered = waitUntil(timeout: 30) { daemon.stderr.contains("delivered app=notify id=once") }
    #expect(delivered, "\(daemon.stderr)")
    // Then, once the daemon is quiet again, it began at most 3 read transactions of its own
    // and 2 writes (the claim, the record)
    let walk = count.settled().dropFirst(before.count)
    let writes = walk.filter { $0 == "write" }.count
    // (a write takes a read mark first, as SQLite begins it)
    let reads = walk.filter { $0 == "read" }.count - writes
    #expect(writes == 2, "\(walk)")
    #expect(reads <= 3, "\(reads) reads: \(walk)")
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }
}

/// SQLite's own count of a process's transactions: `Tests/Fixtures/sqlite-count.c` built
/// into the test's folder and preloaded (`environment`); every read mark and write lock
/// the process takes is a line of `file`.
struct SQLiteCount {
  /// The C compiler, when there is one.
  static let compiler: String? = ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Where the lines go.
  let file: String
  /// What the counted process runs with.
  let environment: [String: String]

  /// Builds the shim into `folder`.
  init(folder: TemporaryFolder) throws {
    let shim = folder.file("sqlite-count.so")
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/sqlite-count.c").path
    let build = try CommandRunner(executable: Self.compiler!).run(
      ["-shared", "-fPIC", "-O2", "-o", shim, source, "-lsqlite3"])
    try #require(build.status == 0, "\(build.stderr)")
    file = folder.file("sqlite-count.txt")
    environment = ["LD_PRELOAD": shim, "SQLITE_COUNT_FILE": file]
  }

  /// The lines so far.
  var lines: [String] {
    ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
  }

  /// The lines once none was added for half a second (what comes after a change, its looks
  /// again 50 ms later included, is in): at most 10 s.
  func settled() -> [String] {
    var last = lines
    var quietSince = Date()
    _ = waitUntil(timeout: 10, interval: 0.05) {
      let now = lines
      if now != last {
        last = now
        quietSince = Date()
      }
      return Date().timeIntervalSince(quietSince) >= 0.5
    }
    return last
  }
}

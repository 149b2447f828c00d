import Foundation
import GRDB
import Glibc
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// The store failing under the CLI and the daemon: a full disk, a read-only file system, a
/// corrupt file, another process holding the write lock. Each gets a clear error with the
/// spec's exit code (74 unusable, 75 busy), nothing stored is lost, and the daemon keeps
/// running and delivers once the fault clears (SPEC.md §5, §9).
@Suite("Reliability: store faults", .serialized, .ownThreads)
struct StoreFaultTests {
  /// Schedules far-away notifications `keep0...` in `app` through the library.
  static func seed(_ db: String, count: Int = 5, app: String = "faults") throws {
    let store = try SQLiteStore(path: db)
    for i in 0..<count {
      let n = LocalNotification(
        id: "keep\(i)", app: app, schedule: Schedule(fireDate: .instant(Date() + 3600 + Double(i))),
        title: "keep \(i)", createdAt: Date())
      _ = try store.schedule(n, zones: testZones(testZone("UTC")))
    }
  }

  /// The ids pending in `app`, through the CLI.
  static func pendingIDs(_ db: String, app: String = "faults") throws -> [String] {
    let result = try notify(["list", "--json", "--app", app], db: db)
    guard result.status == 0,
      let array = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
    else { return [] }
    return array.compactMap { $0["id"] as? String }.sorted()
  }

  static let kept = (0..<5).map { "keep\($0)" }

  @Test(
    "a full disk: schedule exits 74 saying so; the daemon waits it out and delivers after",
    .enabled(if: ScratchMount.isAllowed, "needs root (CAP_SYS_ADMIN) to mount a tmpfs"))
  func fullDisk() throws {
    // (the setup runs the daemon in slices while it empties the WAL; on a loaded machine
    // that can take until the notification falls due, and the daemon could claim it
    // before the disk is full: then it is set up again with more room)
    var setUp: FullDisk?
    for margin in [6.0, 20.0, 60.0] {
      setUp = try FullDisk.setUp(dueIn: margin)
      if setUp != nil { break }
    }
    let disk = try #require(setUp, "setting the fault up took longer than 60 s three times")
    let (daemon, db, due, filler, refused) = (disk.daemon, disk.db, disk.due, disk.filler, disk.refused)
    Thread.sleep(forTimeInterval: max(0, due.timeIntervalSinceNow))
    let retriesBefore = daemon.stderr.components(separatedBy: "trying again").count
    daemon.send(SIGCONT)
    // Then scheduling fails with 74 and a message naming the full disk, changing nothing
    #expect(refused.status == 74, "\(refused.stderr)")
    #expect(refused.stderr.contains("full"), "\(refused.stderr)")
    // And the daemon, unable to record its claim, delivers nothing but keeps running (looked
    // at once it has tried and said it will try again: not after a sleep it may have slept
    // through on a busy machine)
    #expect(
      waitUntil(timeout: 20) { daemon.stderr.components(separatedBy: "trying again").count > retriesBefore },
      "\(daemon.stderr)")
    #expect(daemon.isRunning, "\(daemon.stderr)")
    #expect(daemon.deliveries.isEmpty)
    // When space is freed
    unlink(filler)
    // Then the daemon delivers the due notification, once, and the store works and lost nothing
    #expect(waitUntil(timeout: 15) { !daemon.deliveries.isEmpty }, "\(daemon.stderr)")
    #expect(daemon.deliveries.map(\.id) == ["due"])
    #expect(try Self.pendingIDs(db) == Self.kept)
    #expect(try notify(["schedule", "--app", "faults", "--in", "1h", "after"], db: db).status == 0)
    #expect(try SQLiteStore(path: db).integrityCheck() == "ok")
    daemon.send(SIGTERM)
    #expect(daemon.waitExit(timeout: 10) == 0, "\(daemon.stderr)")
    CrashTests.report("full disk: schedule exit \(refused.status); daemon survived and delivered after")
  }

  @Test(
    "a read-only file system: commands and the daemon exit 74 saying so; nothing changes; a restart recovers",
    .enabled(if: ScratchMount.isAllowed, "needs root (CAP_SYS_ADMIN) to mount a tmpfs"))
  func readOnly() throws {
    let (made, reason) = ScratchMount.make(size: "4m")
    let mount = try #require(made, "\(reason)")
    // Given a store with five notifications and one due in 1 s, on a file system remounted
    // read-only (a mount with a writer open cannot be: the daemon starts after)
    let folder = TemporaryFolder(prefix: "notify-ro")
    let db = mount.file("notify.db")
    try Self.seed(db)
    let due = Date() + 1
    #expect(
      try notify(["schedule", "--app", "faults", "--id", "due", "--at", rfc3339(due), "x"], db: db).status
        == 0)
    if let failure = mount.setReadOnly(true) {
      Issue.record("cannot remount read-only: \(failure)")
      return
    }
    let before = fileBytes(db)
    // When a notification is scheduled, one cancelled, the list read and the daemon started
    let schedule = try notify(["schedule", "--app", "faults", "--in", "1h", "refused"], db: db)
    let cancel = try notify(["cancel", "--app", "faults", "keep0"], db: db)
    let list = try notify(["list", "--app", "faults"], db: db)
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "stdout"], db: db, folder: folder, name: "daemon")
    let daemonStatus = daemon.waitExit(timeout: 15)
    // Then each change exits 74 with a message naming the read-only store, reading still
    // works (the -wal and -shm files stay, so SQLite reads them read-only), and nothing changed
    for (name, result) in [("schedule", schedule), ("cancel", cancel)] {
      #expect(result.status == 74, "\(name): \(result.stderr)")
      #expect(result.stderr.contains("read-only"), "\(name): \(result.stderr)")
    }
    #expect(list.status == 0, "list: \(list.stderr)")
    #expect(list.stdout.contains("keep0") && !list.stdout.contains("refused"), "\(list.stdout)")
    #expect(
      daemonStatus == 74, "daemon: \(daemonStatus.map(String.init) ?? "still running"): \(daemon.stderr)")
    #expect(daemon.stderr.contains("read-only"), "\(daemon.stderr)")
    #expect(fileBytes(db) == before)
    // When the file system is writable again and the daemon restarted (systemd's
    // Restart=on-failure does that)
    mount.setReadOnly(false)
    let restarted = try ChildProcess.notify(
      ["daemon", "--sink", "stdout"], db: db, folder: folder, name: "restarted")
    // Then the overdue notification is delivered once, late, and nothing was lost
    #expect(waitUntil(timeout: 15) { !restarted.deliveries.isEmpty }, "\(restarted.stderr)")
    #expect(restarted.deliveries.map(\.id) == ["due"])
    #expect(try Self.pendingIDs(db) == Self.kept)
    restarted.send(SIGTERM)
    #expect(restarted.waitExit(timeout: 10) == 0, "\(restarted.stderr)")
    CrashTests.report(
      "read-only: schedule/cancel/list exit \(schedule.status)/\(cancel.status)/\(list.status), daemon exit "
        + "\(daemonStatus ?? -1); after remount rw a restarted daemon delivered the overdue one")
  }

  /// How a store file is damaged.
  enum Damage: String, CaseIterable, Sendable {
    /// The 100-byte header overwritten: not a database any more.
    case header
    /// A page in the middle overwritten with noise: the b-tree is broken.
    case page
    /// The file cut to half its size.
    case truncated
  }

  @Test(
    "a corrupt store: commands and the daemon exit 74 saying so; the file is never replaced",
    arguments: Damage.allCases)
  func corrupt(_ damage: Damage) throws {
    // Given a store with 200 notifications, damaged
    let folder = TemporaryFolder(prefix: "notify-corrupt")
    let db = folder.file("notify.db")
    let store = try SQLiteStore(path: db)
    for i in 0..<200 {
      let n = LocalNotification(
        id: "n\(i)", app: "app\(i % 4)", schedule: Schedule(fireDate: .instant(Date() + 3600 + Double(i))),
        title: "notification \(i)", body: String(repeating: "x", count: 300), createdAt: Date())
      _ = try store.schedule(n, zones: testZones(testZone("UTC")))
    }
    try DatabaseQueue(path: db).writeWithoutTransaction {
      try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    }
    try Self.damage(db, damage)
    let before = try #require(fileBytes(db))
    // When commands run on it and the daemon starts on it
    var results: [(String, CommandRunner.Result)] = []
    for arguments in [
      ["list", "--all-apps"], ["schedule", "--app", "app0", "--in", "1h", "x"], ["history", "--all-apps"],
    ] {
      results.append((arguments[0], try notify(arguments, db: db)))
    }
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "stdout"], db: db, folder: folder, name: "daemon")
    let daemonStatus = daemon.waitExit(timeout: 15)
    // Then each exits 74 saying the store is corrupt and how to recover, and the file is as it was
    for (name, result) in results {
      #expect(result.status == 74, "\(name): \(result.status) \(result.stderr)")
      #expect(result.stderr.contains("corrupt"), "\(name): \(result.stderr)")
    }
    #expect(
      daemonStatus == 74, "daemon: \(daemonStatus.map(String.init) ?? "still running") \(daemon.stderr)")
    #expect(daemon.stderr.contains("corrupt"), "\(daemon.stderr)")
    #expect(fileBytes(db) == before, "the damaged file was changed")
    CrashTests.report(
      "corrupt (\(damage.rawValue)): \(results.map { "\($0.0) \($0.1.status)" }.joined(separator: ", ")), daemon \(daemonStatus ?? -1)"
    )
  }

  @Test("another process holds the write lock past the busy timeout: 75, then the daemon delivers")
  func lockedPastTimeout() throws {
    // Given a store with five notifications and a daemon on it, held stopped (SIGSTOP) while
    // the lock is taken so that a busy machine cannot let it deliver first
    let folder = TemporaryFolder(prefix: "notify-locked")
    let db = folder.file("notify.db")
    try Self.seed(db)
    // (a busy timeout of 1 s for every process here: the test need not wait 5 real seconds)
    let busy = ["NOTIFY_BUSY_TIMEOUT": "1"]
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "stdout"], db: db, folder: folder, name: "daemon", environment: busy)
    // Stopped only once it is ready (store open, timer armed): stopped while still opening,
    // it would hold the store's open lock and the schedule below would rightly get 75.
    try #require(waitUntil(timeout: 20) { daemon.stderr.contains("ready;") }, "\(daemon.stderr)")
    daemon.send(SIGSTOP)
    let due = Date() + 0.5
    #expect(
      try notify(["schedule", "--app", "faults", "--id", "due", "--at", rfc3339(due), "x"], db: db).status
        == 0)
    // When another connection takes the write lock and keeps it, the daemon running
    // again meanwhile, and the notification falls due
    var holdOpen = Configuration()
    holdOpen.allowsUnsafeTransactions = true  // the point: a transaction left open
    let locker = try DatabaseQueue(path: db, configuration: holdOpen)
    try locker.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE") }
    let lockedAt = Date()
    daemon.send(SIGCONT)
    let schedule = try notify(
      ["schedule", "--app", "faults", "--in", "1h", "refused"], db: db, environment: busy)
    let waited = Date().timeIntervalSince(lockedAt)
    let list = try notify(["list", "--app", "faults"], db: db)
    // (the daemon has met the lock once the notification fell due: it says it tries again)
    let triedAndWaits = waitUntil(timeout: 20) { daemon.stderr.contains("trying again") }
    // Then schedule gave up after the 1 s busy timeout with 75 naming the holder (this
    // test's process), reading still worked, and the daemon could not claim but kept running
    #expect(schedule.status == 75, "\(schedule.stderr)")
    #expect(schedule.stderr.contains("busy"), "\(schedule.stderr)")
    #expect(schedule.stderr.contains("process \(getpid()) ("), "\(schedule.stderr)")
    #expect(schedule.stderr.contains("held it all that time"), "\(schedule.stderr)")
    #expect(waited >= 0.9 && waited < 10, "gave up after \(waited) s")
    #expect(list.status == 0, "\(list.stderr)")
    #expect(triedAndWaits, "\(daemon.stderr)")
    #expect(daemon.isRunning, "\(daemon.stderr)")
    #expect(daemon.deliveries.isEmpty)
    // When the lock is released
    try locker.inDatabase { try $0.execute(sql: "ROLLBACK") }
    // Then the daemon delivers the due notification once; nothing was lost
    #expect(waitUntil(timeout: 15) { !daemon.deliveries.isEmpty }, "\(daemon.stderr)")
    #expect(daemon.deliveries.map(\.id) == ["due"])
    #expect(try Self.pendingIDs(db) == Self.kept)
    daemon.send(SIGTERM)
    #expect(daemon.waitExit(timeout: 10) == 0, "\(daemon.stderr)")
    CrashTests.report(
      String(
        format: "locked: schedule exit %d after %.1f s; daemon delivered after the lock", schedule.status,
        waited))
  }

  /// Writes zeros to `path` until the file system is full.
  static func fill(_ path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    defer { close(fd) }
    let chunk = [UInt8](repeating: 0, count: 4096)
    while write(fd, chunk, chunk.count) > 0 {}
    fsync(fd)
  }

  /// Damages the store file in place.
  static func damage(_ path: String, _ damage: Damage) throws {
    let handle = try #require(FileHandle(forUpdatingAtPath: path))
    defer { try? handle.close() }
    let size = try handle.seekToEnd()
    switch damage {
    case .header:
      try handle.seek(toOffset: 0)
      handle.write(Data(repeating: 0x5A, count: 100))
    case .page:
      // Page size 4096: leave the header page, overwrite pages 2 to 4.
      var noise = SystemRandomNumberGenerator()
      try handle.seek(toOffset: 4096)
      handle.write(Data((0..<(3 * 4096)).map { _ in UInt8.random(in: 0...255, using: &noise) }))
    case .truncated:
      try handle.truncate(atOffset: size / 2)
    }
    try handle.synchronize()
  }
}

/// A daemon on a full 4 MiB tmpfs, stopped, with a notification due `dueIn` after the
/// setup began, scheduled before the disk was filled, and one `schedule` refused since.
struct FullDisk {
  let mount: ScratchMount
  let folder: TemporaryFolder
  let db: String
  let daemon: ChildProcess
  let due: Date
  let filler: String
  let refused: CommandRunner.Result

  /// The setup, or nil when it took until half a second before the notification was due
  /// (the daemon is then ended).
  static func setUp(dueIn margin: TimeInterval) throws -> FullDisk? {
    let (made, reason) = ScratchMount.make(size: "4m")
    let mount = try #require(made, "\(reason)")
    // Given a store on a small tmpfs with five notifications and a daemon running on it,
    // held stopped (SIGSTOP) while the fault is set up, so that a busy machine cannot let it
    // deliver first
    let folder = TemporaryFolder(prefix: "notify-full")
    let db = mount.file("notify.db")
    try StoreFaultTests.seed(db)
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "stdout"], db: db, folder: folder, name: "daemon")
    // Stopped only once it is ready (store open, timer armed): stopped while still opening,
    // it would hold the store's open lock and the schedule below would rightly get 75.
    try #require(waitUntil(timeout: 20) { daemon.stderr.contains("ready;") }, "\(daemon.stderr)")
    daemon.send(SIGSTOP)
    // When one notification falls due while the disk is full (the write-ahead log emptied
    // first, so that the next write must grow it)
    let due = Date() + margin  // (room for the WAL to be emptied and the disk filled first)
    let scheduled = try notify(
      ["schedule", "--app", "faults", "--id", "due", "--at", rfc3339(due), "x"], db: db)
    try #require(scheduled.status == 0, "\(scheduled.stderr)")
    // (the daemon may have been stopped inside a read, which keeps the WAL from being
    // emptied: it runs a moment between tries until the WAL is empty)
    let emptied = waitUntil(timeout: 20) {
      let truncated = try? DatabaseQueue(path: db).writeWithoutTransaction { db in
        try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)").map { ($0[0] as Int) == 0 } ?? false
      }
      if truncated == true,
        (try? FileManager.default.attributesOfItem(atPath: db + "-wal")[.size] as? Int) == 0
      {
        return true
      }
      daemon.send(SIGCONT)
      Thread.sleep(forTimeInterval: 0.05)
      daemon.send(SIGSTOP)
      return false
    }
    try #require(emptied, "the WAL could not be emptied")
    let filler = mount.file("filler")
    StoreFaultTests.fill(filler)
    let refused = try notify(["schedule", "--app", "faults", "--in", "1h", "refused"], db: db)
    guard due.timeIntervalSinceNow > 0.5 else {
      daemon.send(SIGKILL)
      _ = daemon.waitExit(timeout: 10)
      return nil
    }
    return FullDisk(
      mount: mount, folder: folder, db: db, daemon: daemon, due: due, filler: filler, refused: refused)
  }
}

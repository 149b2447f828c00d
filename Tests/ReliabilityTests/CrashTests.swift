import Foundation
import GRDB
import Glibc
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// `kill -9` of the daemon, over and over, while notifications fall due (SPEC.md §6:
/// claimed durably before the hand-off, marked after; only a crash between the two may
/// repeat a delivery, on restart).
@Suite("Reliability: crashes", .serialized, .ownThreads)
struct CrashTests {
  /// How many times the daemon is killed.
  static let kills = 50

  @Test(
    "50 random kill -9s during a stream of due notifications: nothing lost, duplicates only from hand-offs")
  func killNineLoop() throws {
    // Given 600 notifications over ten apps falling due one every 20 ms from now on (dense,
    // so that kills land between hand-off and mark now and then), some already overdue
    let folder = TemporaryFolder(prefix: "notify-crash")
    let db = folder.file("notify.db")
    let store = try SQLiteStore(path: db)
    let utc = testZone("UTC")
    let start = Date() + 0.3
    var expected: Set<String> = []
    for i in 0..<600 {
      let app = "crash\(i % 10)"
      let due = start + Double(i - 30) * 0.02
      let n = LocalNotification(
        id: "n\(i)", app: app, schedule: Schedule(fireDate: .instant(due)), title: "crash \(i)",
        createdAt: Date())
      _ = try store.schedule(n, zones: testZones(utc))
      expected.insert("\(app)/n\(i)#1")
    }
    let inspector = try DatabaseQueue(path: db)

    // When the daemon is started and killed with SIGKILL 50 times, after 20-300 ms each,
    // and the claims it left are read right after each death
    var daemons: [ChildProcess] = []
    // (how many deaths left each occurrence's claim behind: each may repeat it once)
    var claimedAtDeath: [String: Int] = [:]
    var killedWhileClaiming = 0
    for round in 0..<Self.kills {
      let daemon = try ChildProcess.notify(
        ["daemon", "--sink", "stdout"], db: db, folder: folder, name: "d\(round)")
      daemons.append(daemon)
      Thread.sleep(forTimeInterval: Double.random(in: 0.02...0.3))
      daemon.send(SIGKILL)
      // (60 s: how fast a loaded machine reaps the dead is not this test's subject)
      #expect(daemon.waitExit(timeout: 60) == 128 + SIGKILL, "round \(round): \(daemon.stderr)")
      let claims = try Self.claims(inspector)
      if !claims.isEmpty { killedWhileClaiming += 1 }
      for claim in claims { claimedAtDeath[claim, default: 0] += 1 }
    }
    // And a last daemon runs to the end of the stream
    let last = try ChildProcess.notify(["daemon", "--sink", "stdout"], db: db, folder: folder, name: "final")
    daemons.append(last)
    let printed = { daemons.flatMap(\.deliveries).map(\.key) }
    #expect(waitUntil(timeout: 30) { Set(printed()).isSuperset(of: expected) }, "\(last.stderr)")
    // (a second look after the store settles: a duplicate would have come out by now)
    #expect(waitUntil(timeout: 10) { (try? Self.claims(inspector).isEmpty) ?? false })
    // Stopped only once it is ready: with the hand-off note, the killed daemons' noted
    // deliveries are recorded by whichever starts next, and the stream can be complete
    // while the last one is still starting, before SIGTERM is in its hands.
    #expect(waitUntil(timeout: 20) { last.stderr.contains("ready;") }, "\(last.stderr)")
    last.send(SIGTERM)
    #expect(last.waitExit(timeout: 10) == 0, "\(last.stderr)")

    // Then every occurrence came out, and came out again only as often as a killed daemon
    // left its claim behind (a daemon that takes a claim over can die in the same window)
    let all = printed()
    var counts: [String: Int] = [:]
    for key in all { counts[key, default: 0] += 1 }
    #expect(Set(all) == expected, "missing: \(expected.subtracting(all).sorted().prefix(10))")
    let unexplained = counts.filter { $0.value > 1 + claimedAtDeath[$0.key, default: 0] }
    #expect(unexplained.isEmpty, "repeated more often than claims were left at death: \(unexplained)")
    let duplicated = Set(counts.filter { $0.value > 1 }.keys)
    let repeats = counts.values.reduce(0) { $0 + $1 - 1 }
    #expect(repeats <= Self.kills)
    // And history records each occurrence delivered exactly once, nothing left pending or claimed
    let delivered = try store.history(app: nil, limit: 100_000).filter { $0.kind == .delivered }
    #expect(delivered.count == expected.count, "\(delivered.count) delivered events for \(expected.count)")
    #expect(Set(delivered.map { "\($0.app)/\($0.notificationID)#\($0.occurrence ?? 0)" }) == expected)
    #expect(try store.pending(app: nil).isEmpty)
    #expect(try store.integrityCheck() == "ok")
    CrashTests.report(
      "crash: \(Self.kills) kills (\(killedWhileClaiming) left claims behind), \(expected.count) occurrences, "
        + "\(all.count) lines, \(repeats) repeats of \(duplicated.count) occurrences, all from claims left at death"
    )
  }

  /// `app/id#occurrence` of every claim in the store.
  static func claims(_ queue: DatabaseQueue) throws -> Set<String> {
    try queue.read { db in
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT n.app AS app, n.id AS id, c.occurrence AS occurrence FROM claim c
          JOIN notification n ON n.rowid = c.notification_rowid
          """)
      return Set(
        rows.map { row in "\(row["app"] as String)/\(row["id"] as String)#\((row["occurrence"] as Int) + 1)" }
      )
    }
  }

  /// Prints a figure for BENCHMARKS.md's Reliability section.
  static func report(_ line: String) {
    FileHandle.standardError.write(Data("reliability: \(line)\n".utf8))
  }
}

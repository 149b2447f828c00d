import Foundation
import Glibc
import NotifyTestSupport
import Testing

/// Many processes on one store over a slow disk: every fsync takes 50 ms (in place of the
/// host's) and runs one at a time across processes (`Tests/Fixtures/slow-sync.c` under `LD_PRELOAD`),
/// with two CPU-bound processes beside. No process may answer busy (exit 75), nothing may
/// be lost, the 64 limit stays exact. `SLOW_SYNC_MS` in the environment sets another delay
/// (BENCHMARKS.md, "Reliability", has the figures at 50 and 200 ms).
@Suite(
  "Reliability: a slow disk under many processes", .serialized, .ownThreads,
  .enabled(if: SlowDisk.compiler != nil, "needs a C compiler (cc) to build the slow-sync shim"))
struct SlowDiskTests {
  let disk = SlowDisk()

  @Test("40 processes creating five new stores at once all succeed, 8 notifications in each")
  func manyCreators() throws {
    // Given five store paths with nothing there yet, a slow disk and two busy CPUs
    let stores = (1...5).map { disk.folder.file("store-\($0)/notify.db") }
    let hogs = try SlowDisk.cpuHogs(2)
    defer { SlowDisk.stop(hogs) }
    // When 8 processes schedule into each of them at the same moment
    let script = """
      for s in "$@"; do
        for p in 1 2 3 4 5 6 7 8; do
          ( "$NOTIFY" schedule --db "$s" --in 1h "x$p" >/dev/null 2>>"$ERR"; echo "$s $p $?" >>"$OUT" ) &
        done
      done
      wait
      """
    let exits = try disk.run(script, arguments: stores)
    // Then every process exited 0 and each store holds its 8
    #expect(exits.count == 40)
    let failed = exits.filter { $0.status != 0 }
    #expect(failed.isEmpty, "\(failed) \(disk.errors)")
    for store in stores {
      let list = try notify(["list", "--json"], db: store, environment: ["NOTIFY_APP": "notify"])
      let pending = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [Any]
      #expect(pending?.count == 8, "\(store): \(list.stdout) \(list.stderr)")
      // And no half-made store or temporary file is left beside it
      let names = try FileManager.default.contentsOfDirectory(
        atPath: (store as NSString).deletingLastPathComponent)
      #expect(!names.contains { $0.contains(".new-") }, "\(names)")
    }
    CrashTests.report(
      "slow disk (\(disk.milliseconds) ms a sync): 40 creators of 5 stores, \(failed.count) failed")
  }

  @Test(
    "40 processes creating five new stores, each on a slow disk of its own (a sync 50 ms, a write 25 ms): none gives up at the busy timeout of 5 s"
  )
  func manyCreatorsOnSlowDisks() throws {
    // Given five store paths with nothing there yet, each on a disk whose every write takes
    // 25 ms and every sync 50 ms (one at a time per disk), two busy CPUs beside, and the
    // busy timeout of 5 s: making a store takes its creator over 6 s and each commit about
    // half a second, so its waiters wait longer than 5 s, while the disk is written all the
    // time. Each store has a disk of its own, so that nobody waits on a sync for another
    // store, which its own waiters could not see; and the disk is all the shim's
    // (SLOW_SYNC_FAKE), so that the host's (shared with whatever else runs) adds no stall of
    // its own.
    let stores = (1...5).map { disk.folder.file("store-\($0)/notify.db") }
    let hogs = try SlowDisk.cpuHogs(2)
    defer { SlowDisk.stop(hogs) }
    // When 8 processes schedule into each of them at the same moment
    let script = """
      for s in "$@"; do
        for p in 1 2 3 4 5 6 7 8; do
          ( SLOW_SYNC_LOCK="${s%/*}.disk" "$NOTIFY" schedule --db "$s" --in 1h "x$p" >/dev/null 2>>"$ERR"
            echo "$s $p $?" >>"$OUT" ) &
        done
      done
      wait
      """
    let exits = try disk.run(
      script, arguments: stores,
      environment: [
        "SLOW_SYNC_MS": "50", "SLOW_WRITE_MS": "25", "SLOW_SYNC_FAKE": "1", "NOTIFY_BUSY_TIMEOUT": "5",
      ])
    // Then none gave up: each waited while the others visibly wrote, longer than 5 s in all
    #expect(exits.count == 40)
    let failed = exits.filter { $0.status != 0 }
    #expect(failed.isEmpty, "\(failed.count) failed: \(failed) \(disk.errors)")
    // And each store holds its 8
    for store in stores {
      let list = try notify(["list", "--json"], db: store, environment: ["NOTIFY_APP": "notify"])
      let pending = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [Any]
      #expect(pending?.count == 8, "\(store): \(list.stdout) \(list.stderr)")
    }
    CrashTests.report(
      "slow disks (50 ms a sync, 25 ms a write, busy timeout 5 s): 40 creators of 5 stores, \(failed.count) failed"
    )
  }

  @Test("8 processes x 25 schedules into one app: no busy, the 64 soonest kept, every other one discarded")
  func manyWriters() throws {
    // Given one store with a notification in it, a slow disk and two busy CPUs
    let store = disk.folder.file("shared/notify.db")
    #expect(try notify(["schedule", "--app", "other", "--in", "1h", "seed"], db: store).status == 0)
    let hogs = try SlowDisk.cpuHogs(2)
    defer { SlowDisk.stop(hogs) }
    // When 8 processes each schedule 25 with distinct fire instants into one app
    let script = """
      for p in 0 1 2 3 4 5 6 7; do
        (
          for i in $(seq 0 24); do
            n=$(( p * 25 + i ))
            at=$(date -u -d "@$(( 1900000000 + (n * 7919 % 200) * 60 ))" +%Y-%m-%dT%H:%M:%SZ)
            "$NOTIFY" schedule --db "$1" --app load --at "$at" --id "p$n" x >/dev/null 2>>"$ERR"
            echo "$p $n $?" >>"$OUT"
          done
        ) &
      done
      wait
      """
    let exits = try disk.run(script, arguments: [store])
    // Then every schedule took effect or was discarded by the limit (exit 1), none was busy
    #expect(exits.count == 200)
    let unexpected = exits.filter { $0.status != 0 && $0.status != 1 }
    #expect(unexpected.isEmpty, "\(unexpected) \(disk.errors)")
    // And the 64 soonest are pending, the other 136 are in history as discarded
    let list = try notify(["list", "--json", "--app", "load"], db: store)
    let pending = try #require(
      try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
    let kept = Set(pending.compactMap { $0["id"] as? String })
    let soonest = Set((0..<200).filter { $0 * 7919 % 200 < 64 }.map { "p\($0)" })
    #expect(kept == soonest)
    let history = try notify(["history", "--json", "--app", "load", "--limit", "1000"], db: store)
    let events = try #require(
      try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]])
    let discarded = events.filter { $0["event"] as? String == "discarded" }.compactMap { $0["id"] as? String }
    #expect(discarded.count == 136)
    #expect(Set(discarded) == Set((0..<200).map { "p\($0)" }).subtracting(soonest))
    CrashTests.report(
      "slow disk (\(disk.milliseconds) ms a sync): 8 x 25 schedules, \(unexpected.count) unexpected exits, \(kept.count) kept, \(discarded.count) discarded"
    )
  }

  @Test("a store really held by a stopped process: 75 naming that process, after the busy timeout")
  func heldByStoppedProcess() throws {
    // Given a store whose write lock a process holds, then stopped (SIGSTOP)
    let store = disk.folder.file("held/notify.db")
    #expect(try notify(["schedule", "--in", "1h", "before"], db: store).status == 0)
    let ready = disk.folder.file("held/ready")
    let holder = try CommandRunner.spawn(
      [
        "/usr/bin/python3", "-c",
        """
        import sqlite3, sys, time
        c = sqlite3.connect(sys.argv[1], isolation_level=None)
        c.execute("BEGIN IMMEDIATE")
        open(sys.argv[2], "w").close()
        time.sleep(600)
        """,
        store, ready,
      ], environment: ProcessInfo.processInfo.environment)
    defer {
      kill(holder, SIGKILL)
      CommandRunner.wait(holder)
    }
    try #require(waitUntil(timeout: 20) { FileManager.default.fileExists(atPath: ready) })
    kill(holder, SIGSTOP)
    // When a schedule waits for it with a busy timeout of 1 s
    let started = Date()
    let result = try notify(
      ["schedule", "--in", "1h", "refused"], db: store, environment: ["NOTIFY_BUSY_TIMEOUT": "1"])
    let waited = Date().timeIntervalSince(started)
    // Then it exits 75 naming the stopped process and how to resume it, and nothing was stored
    #expect(result.status == 75, "\(result.stderr)")
    #expect(result.stderr.contains("process \(holder) (python3"), "\(result.stderr)")
    #expect(result.stderr.contains("is stopped"), "\(result.stderr)")
    #expect(result.stderr.contains("kill -CONT \(holder)"), "\(result.stderr)")
    #expect(waited >= 0.9, "gave up after \(waited) s")
    kill(holder, SIGKILL)
    CommandRunner.wait(holder)
    let list = try notify(["list", "--json"], db: store)
    let pending = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
    #expect(pending?.compactMap { $0["body"] as? String } == ["before"], "\(list.stdout)")
  }
}

/// The slow disk: the shim built into a folder of the test's own, and how to run a shell
/// script of `notify` processes over it.
struct SlowDisk {
  /// The C compiler, when there is one.
  static let compiler: String? = ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  let folder = TemporaryFolder(prefix: "notify-slow-disk")
  /// Milliseconds each sync takes.
  let milliseconds = Int(ProcessInfo.processInfo.environment["SLOW_SYNC_MS"] ?? "") ?? 50

  /// One process's exit.
  struct Exit: CustomStringConvertible {
    var line: String
    var status: Int32
    var description: String { line }
  }

  /// Builds the shim and runs `script` under `sh` with it preloaded into every process;
  /// `$NOTIFY` is the built `notify`, `$OUT` a file where the script writes one line per
  /// process ending in its exit status, `$ERR` one for their error output (`errors`).
  /// `environment` adds to the processes' environment or overrides it (`SLOW_WRITE_MS`,
  /// `NOTIFY_BUSY_TIMEOUT`).
  func run(_ script: String, arguments: [String], environment: [String: String] = [:]) throws -> [Exit] {
    let shim = folder.file("slow-sync.so")
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/slow-sync.c").path
    let build = try CommandRunner(executable: Self.compiler!).run(
      ["-shared", "-fPIC", "-O2", "-o", shim, source, "-ldl"])
    try #require(build.status == 0, "\(build.stderr)")
    let out = folder.file("exits-\(UUID().uuidString)")
    let shell = CommandRunner(
      executable: "/bin/sh",
      environment: [
        // The disk is the shim's alone (SLOW_SYNC_FAKE): every commit syncs, and the host's
        // own disk, shared with whatever else runs there, would add stalls of its own (seen:
        // a real fdatasync waiting seconds on writeback while other builds wrote).
        "LD_PRELOAD": shim, "SLOW_SYNC_MS": String(milliseconds), "SLOW_SYNC_LOCK": folder.file("disk.lock"),
        "SLOW_SYNC_FAKE": "1",
        "NOTIFY": CommandRunner.product("notify"), "OUT": out, "ERR": folder.file("errors"),
        "NOTIFY_APP": "notify",
        "JOURNAL_STREAM": "", "INVOCATION_ID": "", "NOTIFY_SOCKET": "",
      ].merging(environment) { $1 })
    let result = try shell.run(["-c", script, "sh"] + arguments, timeout: 600)
    try #require(result.status == 0, "\(result.stderr)")
    let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map { line in
      Exit(line: String(line), status: Int32(line.split(separator: " ").last ?? "") ?? -1)
    }
  }

  /// What the processes wrote to their error output.
  var errors: String { (try? String(contentsOfFile: folder.file("errors"), encoding: .utf8)) ?? "" }

  /// Starts `count` processes that only spin, as other work on the machine. They run at
  /// nice 19: alone (`--filter SlowDiskTests`) they take both cores as any spinning
  /// process does; in the parallel suite, which loads the machine by itself, they yield to
  /// the other tests instead of starving their deadlines for as long as this one runs.
  static func cpuHogs(_ count: Int) throws -> [pid_t] {
    try (0..<count).map { _ in
      try CommandRunner.spawn(
        ["/usr/bin/nice", "-n", "19", "/bin/sh", "-c", "while :; do :; done"], environment: [:])
    }
  }

  static func stop(_ pids: [pid_t]) {
    for pid in pids {
      kill(pid, SIGKILL)
      CommandRunner.wait(pid)
    }
  }
}

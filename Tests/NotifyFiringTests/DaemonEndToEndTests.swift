import Foundation
import Glibc
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// `notify daemon` as a user runs it, and an app firing in process as the chat client does:
/// the built binaries, a real store file, real sd-event. These tests check that deliveries
/// come, in order, once, and never before their instant, whichever driver fires. How soon
/// after is a figure for the benchmarks (BENCHMARKS.md, "Firing"): a test on a busy
/// machine cannot hold it.
@Suite("firing end to end: notify daemon and an app in process", .serialized, .ownThreads)
struct DaemonEndToEndTests {

  @Test(
    "20 notifications due in 6-8 s, scheduled in shuffled order, come out in fire order, once each",
    arguments: FiringDriver.allCases)
  func fireOrder(driver: FiringDriver) throws {
    // Given a running firer
    let f = try FiringFixture()
    let daemon = try ChildProcess.firer(driver, db: f.path, folder: f.folder, name: "d")
    #expect(daemon.waitReady())
    // When 20 notifications due 6 s to 7.8 s from now are scheduled in shuffled order (the
    // lead is for a machine whose disk the other suites keep busy: 20 commits once took
    // over 3 s there)
    let start = Date() + 6
    var due: [String: Date] = [:]
    for i in (0..<20).shuffled() {
      let at = start + Double(i) * 0.09
      due["n\(i)"] = at
      try f.schedule("n\(i)", at: at, createdAt: Date())
    }
    // (all of them before the first is due: else the order is not the daemon's to keep)
    try #require(Date() < start, "the machine is too busy: scheduling 20 took over 6 s")
    // Then all 20 come out, in fire order, each once and none early (counted once nothing is
    // due or claimed and the firer has stopped: a duplicate, were there one, is in by then)
    #expect(waitUntil(timeout: 15) { daemon.deliveries.count >= 20 }, "\(daemon.stderr)")
    #expect(f.waitSettled(), "\(daemon.stderr)")
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0, "\(daemon.stderr)")
    let lines = daemon.deliveries
    #expect(lines.map(\.id) == (0..<20).map { "n\($0)" })
    // And its log names each delivery by id and app (the daemon's; an app logs only what
    // goes wrong), never by its body
    if driver == .daemon { #expect(daemon.stderr.contains("id=n0")) }
    #expect(!daemon.stderr.contains("private body"))
    for line in lines {
      let lateness = line.deliveredAt.timeIntervalSince(due[line.id]!)
      #expect(lateness > -0.002, "\(line.id) came \(-lateness) s before its due instant")
    }
  }

  @Test(
    "a notification scheduled while the firer sleeps on a far timer fires at its instant",
    arguments: FiringDriver.allCases)
  func scheduledWhileSleeping(driver: FiringDriver) throws {
    // Given a firer armed for a notification an hour away
    let f = try FiringFixture()
    try f.schedule("far", at: Date() + 3600)
    let daemon = try ChildProcess.firer(driver, db: f.path, folder: f.folder, name: "d")
    #expect(daemon.waitReady())
    // When another process (the CLI) schedules one for 1.5 s from now
    let at = Date() + 1.5
    let result = try notify(
      ["schedule", "--app", "test", "--id", "soon", "--at", rfc3339(at), "--title", "x"], db: f.path)
    #expect(result.status == 0, "\(result.stderr)")
    // Then it fires at its instant, not an hour later with the far one, and not before
    #expect(waitUntil(timeout: 10) { !daemon.deliveries.isEmpty })
    let line = try #require(daemon.deliveries.first)
    #expect(line.id == "soon")
    let lateness = line.deliveredAt.timeIntervalSince(at)
    #expect(lateness > -0.002, "came \(-lateness) s before its due instant")
  }

  @Test(
    "a notification cancelled while the firer is armed for it never fires", arguments: FiringDriver.allCases)
  func cancelWhileArmed(driver: FiringDriver) throws {
    // Given a firer armed for `doomed` in 6 s, with `witness` due 1 s later
    let f = try FiringFixture()
    let doomedAt = Date() + 6
    try f.schedule("doomed", at: doomedAt)
    try f.schedule("witness", at: doomedAt + 1)
    let daemon = try ChildProcess.firer(driver, db: f.path, folder: f.folder, name: "d")
    #expect(daemon.waitReady())
    // When the CLI cancels `doomed` (before its instant: else there is nothing to test)
    let result = try notify(["cancel", "--app", "test", "doomed"], db: f.path)
    #expect(result.status == 0, "\(result.stderr)")
    try #require(
      Date() < doomedAt, "the machine is too busy: starting the daemon and cancelling took over 6 s")
    // Then only the witness comes out, after the cancelled one's instant has passed
    // (counted once nothing is due or claimed and the firer has stopped)
    #expect(waitUntil(timeout: 10) { !daemon.deliveries.isEmpty })
    #expect(f.waitSettled(), "\(daemon.stderr)")
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0, "\(daemon.stderr)")
    #expect(daemon.deliveries.map(\.id) == ["witness"])
    #expect(try f.events(.cancelled).map(\.notificationID) == ["doomed"])
  }

  @Test(
    "kill -9 while delivering, restarted each time: nothing lost, duplicates only from hand-offs",
    arguments: FiringDriver.allCases)
  func killLoop(driver: FiringDriver) throws {
    // Given 60 notifications due over the next 4 s (two apps for the daemon, under the 64
    // limit; the app's own for an app)
    let f = try FiringFixture()
    let start = Date() + 0.5
    var expected: Set<String> = []
    for i in 0..<60 {
      let app = driver == .daemon ? "app\(i % 2)" : "test"
      try f.schedule("n\(i)", at: start + Double(i) * 0.066, app: app, createdAt: Date())
      expected.insert("\(app)/n\(i)#1")
    }
    // When the daemon is killed with SIGKILL every 150-450 ms and restarted at once
    var daemons: [ChildProcess] = []
    var kills = 0
    for round in 0..<10 {
      let daemon = try ChildProcess.firer(driver, db: f.path, folder: f.folder, name: "d\(round)")
      daemons.append(daemon)
      Thread.sleep(forTimeInterval: Double.random(in: 0.15...0.45))
      daemon.send(SIGKILL)
      #expect(daemon.waitExit() != nil)
      kills += 1
    }
    let last = try ChildProcess.firer(driver, db: f.path, folder: f.folder, name: "final")
    daemons.append(last)
    // (ready before anything else: a stop sent while it still starts would find no handler)
    #expect(last.waitReady(), "\(last.stderr)")
    // Then every occurrence comes out at least once
    let delivered = { daemons.flatMap(\.deliveries).map(\.key) }
    #expect(waitUntil(timeout: 20) { Set(delivered()).isSuperset(of: expected) })
    // And the store ends with nothing due, claimed or pending
    #expect(f.waitSettled(), "\(last.stderr)")
    #expect(try f.store.pending(app: nil).isEmpty)
    // And, counted once the last firer has stopped too, each duplicate stems from one kill
    // between hand-off and mark
    last.send(SIGTERM)
    #expect(last.waitExit() == 0, "\(last.stderr)")
    let all = delivered()
    #expect(Set(all) == expected)
    let duplicates = all.count - Set(all).count
    #expect(duplicates <= kills, "\(duplicates) duplicates from \(kills) kills")
  }

  @Test(
    "two daemons, an app per app firing in process, and fire-due on one store at once: no duplicates at all")
  func concurrentFirers() throws {
    // Given 100 notifications, some overdue and the rest due over 3 s, in two apps
    let f = try FiringFixture()
    let start = Date() - 1
    var expected: Set<String> = []
    for i in 0..<100 {
      let app = "app\(i % 2)"
      try f.schedule("n\(i)", at: start + Double(i) * 0.04, app: app, createdAt: Date())
      expected.insert("\(app)/n\(i)#1")
    }
    // When two daemons run and fire-due runs over and over beside them
    let a = try ChildProcess.daemon(db: f.path, folder: f.folder, name: "a")
    let b = try ChildProcess.daemon(db: f.path, folder: f.folder, name: "b")
    let apps = try (0..<2).map {
      try ChildProcess.firer(.app, db: f.path, folder: f.folder, name: "app\($0)", app: "app\($0)")
    }
    var runs: [ChildProcess] = []
    let deadline = Date() + 20
    func seen() -> [String] { ([a, b] + apps + runs).flatMap(\.deliveries).map(\.key) }
    // (at least twice: on a loaded machine the firers may deliver all before one run exits)
    while Date() < deadline, runs.count < 2 || !Set(seen()).isSuperset(of: expected) {
      let run = try ChildProcess.notify(
        ["fire-due", "--sink", "stdout"], db: f.path, folder: f.folder, name: "f\(runs.count)")
      runs.append(run)
      #expect(run.waitExit() == 0)
    }
    // (counted once nothing is due or claimed and every firer has stopped: a duplicate, were
    // there one, is in their output by then; each fire-due run has exited already)
    #expect(f.waitSettled(), "\(([a, b] + apps).map(\.stderr))")
    for firer in [a, b] + apps {
      #expect(firer.waitReady(), "\(firer.stderr)")
      firer.send(SIGTERM)
      #expect(firer.waitExit() == 0, "\(firer.stderr)")
    }
    // Then every occurrence came out exactly once, whoever delivered it
    let all = seen()
    #expect(Set(all) == expected)
    #expect(all.count == expected.count, "\(all.count - Set(all).count) duplicates")
    // And the apps fired some of their own (they share the work, not just watch)
    #expect(apps.contains { !$0.deliveries.isEmpty }, "\(apps.map(\.stderr))")
  }

  @Test("--misfire-grace records an old occurrence as missed instead of delivering it")
  func misfireGrace() throws {
    let f = try FiringFixture()
    try f.schedule("ancient", at: Date() - 3600)
    try f.schedule("recent", at: Date() - 5)
    let daemon = try ChildProcess.daemon(
      db: f.path, folder: f.folder, name: "d", extra: ["--misfire-grace", "1m"])
    #expect(daemon.waitReady())
    #expect(waitUntil(timeout: 10) { !daemon.deliveries.isEmpty })
    // (counted once nothing is due or claimed and the daemon has stopped)
    #expect(f.waitSettled(), "\(daemon.stderr)")
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0, "\(daemon.stderr)")
    #expect(daemon.deliveries.map(\.id) == ["recent"])
    #expect(daemon.deliveries.first?.late == true)
    #expect(try f.events(.missed).map(\.notificationID) == ["ancient"])
  }

  @Test("READY=1 and STATUS reach NOTIFY_SOCKET; SIGTERM exits 0 with STOPPING=1")
  func readyAndSigterm() throws {
    // Given a store with one pending notification
    let f = try FiringFixture()
    try f.schedule("later", at: Date() + 3600)
    // When the daemon starts under a NOTIFY_SOCKET listener
    let daemon = try ChildProcess.daemon(db: f.path, folder: f.folder, name: "d")
    // Then it reports ready with a status naming the pending count and the next instant
    let ready = try #require(daemon.listener.waitFor("READY=1", timeout: 20))
    #expect(ready.contains("STATUS=1 pending, next at "))
    // When it gets SIGTERM
    daemon.send(SIGTERM)
    // Then it says it is stopping and exits 0 by itself (death by a signal reads 128 + signal)
    #expect(daemon.waitExit() == 0)
    #expect(daemon.listener.waitFor("STOPPING=1", timeout: 5) != nil)
  }

  @Test("with WATCHDOG_USEC set the daemon pings WATCHDOG=1")
  func watchdog() throws {
    let f = try FiringFixture()
    let daemon = try ChildProcess.daemon(
      db: f.path, folder: f.folder, name: "d", environment: ["WATCHDOG_USEC": "400000"])
    #expect(daemon.waitReady())
    #expect(daemon.listener.waitFor("WATCHDOG=1", timeout: 5) != nil)
  }

  @Test("SIGINT stops it cleanly too, giving back nothing it had not started")
  func sigint() throws {
    // Given a daemon that has claimed nothing yet
    let f = try FiringFixture()
    try f.schedule("later", at: Date() + 3600)
    let daemon = try ChildProcess.daemon(db: f.path, folder: f.folder, name: "d")
    #expect(daemon.waitReady())
    // When it gets SIGINT
    daemon.send(SIGINT)
    // Then it exits 0 and the notification is still pending
    #expect(daemon.waitExit() == 0)
    #expect(try f.store.pending(app: nil).map(\.notification.id) == ["later"])
  }
}

/// The idle check runs apart from the suite above so that its 30 s window overlaps the
/// other tests; the daemon's own counters are not affected by their load.
@Suite("firing idle: notify daemon and an app in process", .ownThreads)
struct DaemonIdleTests {
  @Test(
    "idle with 64 pending an hour away, the firer makes no wake-ups for 30 s",
    arguments: FiringDriver.allCases)
  func noWakeUps(driver: FiringDriver) async throws {
    // Given 64 notifications an hour away and a firer that has settled
    let f = try FiringFixture()
    for i in 0..<64 { try f.schedule("n\(i)", at: Date() + 3600 + Double(i)) }
    let daemon = try ChildProcess.firer(driver, db: f.path, folder: f.folder, name: "d")
    #expect(daemon.waitReady())
    // (an app's process holds more than the firing thread: libdispatch's workqueue monitor
    // ticks once a second in every process that uses Swift concurrency on Linux; what
    // notify owns there is its firing thread, and that is what is counted)
    let thread: String? = driver == .app ? "notify.firing" : nil
    var settled = false
    for _ in 0..<20 where !settled {
      let before = contextSwitches(of: daemon.pid, thread: thread)
      try await Task.sleep(for: .milliseconds(500))
      settled = before == contextSwitches(of: daemon.pid, thread: thread)
    }
    #expect(settled)
    // When 30 s pass (sleeping without holding a cooperative thread)
    let before = contextSwitches(of: daemon.pid, thread: thread)
    try await Task.sleep(for: .seconds(30))
    let after = contextSwitches(of: daemon.pid, thread: thread)
    // Then not one thread of it was scheduled
    #expect(before != nil)
    #expect(after == before, "context switches went from \(before ?? -1) to \(after ?? -1)")
    #expect(daemon.deliveries.isEmpty)
  }
}

/// Voluntary plus involuntary context switches over all threads of `pid`, or over those
/// named `thread` only (nil when there is none).
func contextSwitches(of pid: Int32, thread name: String? = nil) -> Int? {
  guard var threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else {
    return nil
  }
  if let name {
    threads = threads.filter {
      (try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines) == name
    }
    if threads.isEmpty { return nil }
  }
  var total = 0
  for thread in threads {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/status", encoding: .utf8)
    else {
      continue
    }
    for line in status.split(separator: "\n") where line.contains("ctxt_switches") {
      total += Int(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) ?? 0
    }
  }
  return total
}

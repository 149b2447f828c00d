import Foundation
import Glibc
import NotifyTestSupport
import Testing

/// Busy (exit 75) means stuck, not slow (SPEC.md §5): a process that holds the store's write
/// lock or its migration lock for longer than the busy timeout while it visibly works (writes
/// the WAL, builds a new store) is waited for; one that holds it stopped (SIGSTOP), or doing
/// nothing, for the busy timeout makes the waiter give up with 75 naming it. Each holder here
/// works for 6 s against a busy timeout of 2 s, then finishes or stops itself.
@Suite("Reliability: busy means stuck, not slow", .serialized, .ownThreads)
struct BusyProgressTests {
  /// A writer in one IMMEDIATE transaction on `store` that adds a page to a table of its own
  /// every 50 ms for `seconds` (a cache of one page spills each into the WAL as it comes),
  /// then commits, or (`then` = `stop`) stops itself still holding the lock. It creates
  /// `ready` once it holds the lock.
  static let slowWriter = """
    import os, signal, sqlite3, sys, time
    store, ready, seconds, then = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
    c = sqlite3.connect(store, isolation_level=None)
    c.execute("CREATE TABLE IF NOT EXISTS scratch(b BLOB)")
    c.execute("PRAGMA cache_size = 1")
    c.execute("BEGIN IMMEDIATE")
    open(ready, "w").close()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        c.execute("INSERT INTO scratch VALUES (zeroblob(8192))")
        time.sleep(0.05)
    if then == "stop":
        os.kill(os.getpid(), signal.SIGSTOP)
    c.execute("COMMIT")
    """

  /// A creator of the store at `store` as notify's are (`StoreCreator`): it holds the
  /// migration lock (`STORE.lock`) and grows a temporary file `.NAME.new-PID-…` beside the
  /// store by 4 KiB every 50 ms for `seconds`; then it fills it with the whole store at
  /// `source` and links it into place, or (`then` = `stop`) stops itself first, the lock
  /// held. It creates `ready` once it holds the lock.
  static let slowCreator = """
    import fcntl, os, signal, sqlite3, sys, time
    store, source, ready, seconds, then = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5]
    lock = open(store + ".lock", "a")
    fcntl.flock(lock, fcntl.LOCK_EX)
    folder, name = os.path.split(store)
    temporary = os.path.join(folder, ".%s.new-%d-5105" % (name, os.getpid()))
    out = open(temporary, "wb")
    open(ready, "w").close()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        out.write(b"\\0" * 4096)
        out.flush()
        time.sleep(0.05)
    if then == "stop":
        os.kill(os.getpid(), signal.SIGSTOP)
    whole = sqlite3.connect(source)
    whole.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    whole.close()
    out.seek(0)
    out.truncate()
    out.write(open(source, "rb").read())
    out.close()
    os.link(temporary, store)
    os.unlink(temporary)
    """

  /// The busy timeout of the waiters here: the holders work three times as long (2 s, not
  /// less: a holder that gets no CPU for that long on a loaded machine shows no progress).
  static let busy = ["NOTIFY_BUSY_TIMEOUT": "2"]

  /// A holder: `script` under Python with `arguments`, once it created `ready`. The script
  /// is a file in `ready`'s folder, so that messages name the holder as `python3 FILE`.
  final class Holder {
    let pid: pid_t
    private var status: Int32?

    init(_ script: String, _ arguments: [String], ready: String) throws {
      let file = (ready as NSString).deletingLastPathComponent + "/holder.py"
      try script.write(toFile: file, atomically: true, encoding: .utf8)
      pid = try CommandRunner.spawn(
        ["/usr/bin/python3", file] + arguments, environment: ProcessInfo.processInfo.environment)
      _ = waitUntil(timeout: 20) { FileManager.default.fileExists(atPath: ready) || hasEnded }
      let holds = FileManager.default.fileExists(atPath: ready)
      if !holds { end() }
      try #require(holds, "the holder ended or took 20 s before it held the lock")
    }

    /// Whether it ended (reaped now when it did).
    private var hasEnded: Bool {
      guard status == nil else { return true }
      var raw: Int32 = 0
      guard waitpid(pid, &raw, WNOHANG) == pid else { return false }
      status = CommandRunner.exitCode(ofWaitStatus: raw)
      return true
    }

    /// Its exit status, once it ended by itself.
    func wait() -> Int32 {
      if status == nil { status = CommandRunner.wait(pid) }
      return status!
    }

    /// Kills it (stopped or not) unless it was reaped already.
    func end() {
      guard status == nil else { return }
      kill(pid, SIGKILL)
      status = CommandRunner.wait(pid)
    }

    deinit { end() }
  }

  /// The bodies pending in `store`.
  static func pendingBodies(_ store: String) throws -> [String] {
    let list = try notify(["list", "--json"], db: store, environment: ["NOTIFY_APP": "notify"])
    let pending = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
    return (pending ?? []).compactMap { $0["body"] as? String }.sorted()
  }

  @Test(
    "a writer that keeps writing for 6 s: a schedule with a busy timeout of 2 s waits it out and goes through"
  )
  func writerMakingProgress() throws {
    // Given a store and a process writing to it in one transaction for 6 s
    let folder = TemporaryFolder(prefix: "notify-busy-writer")
    let store = folder.file("notify.db")
    #expect(try notify(["schedule", "--in", "1h", "before"], db: store).status == 0)
    let writer = try Holder(
      Self.slowWriter, [store, folder.file("ready"), "6", "commit"], ready: folder.file("ready"))
    // When a schedule waits for it with a busy timeout of 2 s
    let result = try notify(["schedule", "--in", "1h", "after"], db: store, environment: Self.busy)
    // Then it waited as long as the writer wrote (3 times its timeout) and went through
    #expect(result.status == 0, "\(result.stderr)")
    #expect(writer.wait() == 0)
    #expect(try Self.pendingBodies(store) == ["after", "before"])
  }

  @Test("a writer that writes for 6 s, then stops holding the lock: 75 naming it as stopped")
  func writerStoppedAfterProgress() throws {
    // Given a store and a process writing to it in one transaction for 6 s, then stopped
    let folder = TemporaryFolder(prefix: "notify-busy-stopped-writer")
    let store = folder.file("notify.db")
    #expect(try notify(["schedule", "--in", "1h", "before"], db: store).status == 0)
    let writer = try Holder(
      Self.slowWriter, [store, folder.file("ready"), "6", "stop"], ready: folder.file("ready"))
    // When a schedule waits for it with a busy timeout of 2 s
    let result = try notify(["schedule", "--in", "1h", "refused"], db: store, environment: Self.busy)
    // Then it waited through the writing and gave up once the writer was stopped: 75 naming
    // it and how to resume it
    #expect(result.status == 75, "\(result.stderr)")
    #expect(result.stderr.contains("process \(writer.pid) (python3"), "\(result.stderr)")
    #expect(result.stderr.contains("is stopped"), "\(result.stderr)")
    #expect(result.stderr.contains("kill -CONT \(writer.pid)"), "\(result.stderr)")
    // And nothing was stored (read beside the stopped writer)
    #expect(try Self.pendingBodies(store) == ["before"])
  }

  @Test("a writer that keeps writing for 13 s against a busy timeout of 1 s: 75 at the cap, saying so")
  func writerPastTheCap() throws {
    // Given a store and a process writing to it in one transaction for 13 s
    let folder = TemporaryFolder(prefix: "notify-busy-cap")
    let store = folder.file("notify.db")
    #expect(try notify(["schedule", "--in", "1h", "before"], db: store).status == 0)
    let writer = try Holder(
      Self.slowWriter, [store, folder.file("ready"), "13", "commit"], ready: folder.file("ready"))
    // When a schedule waits for it with a busy timeout of 1 s (a cap of 10 s)
    let result = try notify(
      ["schedule", "--in", "1h", "refused"], db: store, environment: ["NOTIFY_BUSY_TIMEOUT": "1"])
    // Then it gave up at the cap, saying that others kept writing and how to wait longer
    #expect(result.status == 75, "\(result.stderr)")
    #expect(
      result.stderr.contains("stayed busy for more than 10 s while other processes kept writing to it"),
      "\(result.stderr)")
    #expect(result.stderr.contains("NOTIFY_BUSY_TIMEOUT"), "\(result.stderr)")
    // And nothing was stored (read beside the writer, still writing)
    #expect(try Self.pendingBodies(store) == ["before"])
    writer.end()
  }

  @Test(
    "a creator that keeps building the store for 6 s: a schedule with a busy timeout of 2 s waits and goes through"
  )
  func creatorMakingProgress() throws {
    // Given no store yet, and a process creating it that builds for 6 s
    let folder = TemporaryFolder(prefix: "notify-busy-creator")
    let store = folder.file("notify.db")
    let source = folder.file("source/notify.db")
    #expect(try notify(["schedule", "--in", "1h", "before"], db: source).status == 0)
    let creator = try Holder(
      Self.slowCreator, [store, source, folder.file("ready"), "6", "link"], ready: folder.file("ready"))
    // When a schedule that finds no store waits for the creator with a busy timeout of 2 s
    let result = try notify(["schedule", "--in", "1h", "after"], db: store, environment: Self.busy)
    // Then it waited until the store was there and scheduled into it
    #expect(result.status == 0, "\(result.stderr)")
    #expect(creator.wait() == 0)
    #expect(try Self.pendingBodies(store) == ["after", "before"])
  }

  @Test("a creator that builds for 6 s, then stops holding the lock: 75 naming it as stopped, no store made")
  func creatorStoppedAfterProgress() throws {
    // Given no store yet, and a process creating it that builds for 6 s, then stops
    let folder = TemporaryFolder(prefix: "notify-busy-stopped-creator")
    let store = folder.file("notify.db")
    let source = folder.file("source/notify.db")
    #expect(try notify(["schedule", "--in", "1h", "before"], db: source).status == 0)
    let creator = try Holder(
      Self.slowCreator, [store, source, folder.file("ready"), "6", "stop"], ready: folder.file("ready"))
    // When a schedule that finds no store waits for the creator with a busy timeout of 2 s
    let result = try notify(["schedule", "--in", "1h", "refused"], db: store, environment: Self.busy)
    // Then it waited through the building and gave up once the creator was stopped: 75
    // naming it and how to resume it
    #expect(result.status == 75, "\(result.stderr)")
    #expect(result.stderr.contains("process \(creator.pid) (python3"), "\(result.stderr)")
    #expect(result.stderr.contains("is stopped"), "\(result.stderr)")
    #expect(result.stderr.contains("kill -CONT \(creator.pid)"), "\(result.stderr)")
    // And it made no store of its own
    #expect(!FileManager.default.fileExists(atPath: store))
  }
}

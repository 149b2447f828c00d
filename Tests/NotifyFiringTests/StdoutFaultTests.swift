import Foundation
import Glibc
import NotifyCore
import NotifyTestSupport
import Testing

/// A stdout whose reader stops reading or goes away is a fault of the sink
/// (SPEC.md §6): retried, the daemon stays responsive and obeys
/// SIGTERM, nothing is recorded `failed`, and a reader gone for good ends the daemon with
/// a message instead of SIGPIPE. The daemon's stdout is a FIFO the test reads, or not.
@Suite("A stdout reader that stalls or leaves", .serialized, .ownThreads)
struct StdoutFaultTests {
  /// How many notifications fall due; each line is about 3 KB, so the pipe (16 pages of
  /// 4 KiB) holds sixteen of them.
  static let count = 40
  static let body = String(repeating: "b", count: 3000)

  @Test(
    "a reader that stops reading: deliveries wait (none failed), the daemon stays responsive, all come out once when it reads again"
  )
  func stalledReaderThenReads() throws {
    // Given a daemon whose stdout is a FIFO nobody reads, and 40 notifications due at once
    let f = try FiringFixture()
    let reader = try FIFO(at: f.folder.file("d.out"))
    let ids = (0..<Self.count).map { "n\($0)" }
    for id in ids { try f.schedule(id, at: Date() - 1, body: Self.body) }
    let daemon = try ChildProcess.daemon(db: f.path, folder: f.folder, name: "d")
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    // When the pipe is full
    #expect(
      waitUntil(timeout: 20) { daemon.stderr.contains("the stdout sink is stalled") },
      "\(daemon.stderr)")
    // Then nothing is recorded failed, what was not written is pending again
    #expect(try f.events(.failed).isEmpty)
    let written = try f.events(.delivered).count
    #expect(written < Self.count)
    #expect(waitUntil(timeout: 10) { (try? f.store.pendingCount()) == Self.count - written })
    // And the daemon still answers: a change to the store reaches its status line
    try f.schedule("later", at: Date() + 3600)
    #expect(daemon.listener.waitFor("STATUS=\(Self.count - written + 1) pending", timeout: 10) != nil)
    #expect(daemon.isRunning)

    // When the reader reads again
    var lines: [String] = []
    #expect(
      waitUntil(timeout: 30) {
        lines += reader.readLines()
        return lines.count >= Self.count
      }, "\(lines.count) lines; \(daemon.stderr)")
    // Then each came out exactly once, recorded delivered once, nothing failed
    let printed = lines.compactMap { Delivered(line: $0) }.map(\.id)
    #expect(printed.sorted() == ids.sorted())
    // (recorded, and logged, once the burst that wrote the last line is over)
    #expect(
      waitUntil(timeout: 10) { (try? f.events(.delivered).map(\.notificationID).sorted()) == ids.sorted() })
    #expect(try f.events(.failed).isEmpty)
    #expect(waitUntil(timeout: 10) { daemon.stderr.contains("the stdout sink takes deliveries again") })
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }

  @Test(
    "SIGTERM while the reader does not read: the daemon stops, what was not written is pending, nothing failed"
  )
  func sigtermWhileStalled() throws {
    // Given a daemon stalled on a full pipe
    let f = try FiringFixture()
    let reader = try FIFO(at: f.folder.file("d.out"))
    for i in 0..<Self.count { try f.schedule("n\(i)", at: Date() - 1, body: Self.body) }
    let daemon = try ChildProcess.daemon(db: f.path, folder: f.folder, name: "d")
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    #expect(
      waitUntil(timeout: 20) { daemon.stderr.contains("the stdout sink is stalled") },
      "\(daemon.stderr)")
    // When it is told to stop
    daemon.send(SIGTERM)
    // Then it does, and every line in the pipe is a recorded delivery, the rest pending
    #expect(daemon.waitExit(timeout: 10) == 0, "\(daemon.stderr)")
    let printed = reader.readLines().compactMap { Delivered(line: $0) }.map(\.id)
    #expect(try f.events(.delivered).map(\.notificationID).sorted() == printed.sorted())
    #expect(try f.events(.failed).isEmpty)
    #expect(try f.store.claimsHeld() == (alive: 0, dead: 0))
    #expect(try f.store.pendingCount() == Self.count - printed.count)
  }

  @Test("fire-due on a stdout nobody reads: exit 75 saying so, what was not written pending, nothing failed")
  func fireDueStalled() throws {
    // Given 40 notifications due and a fire-due run whose stdout is a FIFO nobody reads
    let f = try FiringFixture()
    let reader = try FIFO(at: f.folder.file("run.out"))
    for i in 0..<Self.count { try f.schedule("n\(i)", at: Date() - 1, body: Self.body) }
    let run = try ChildProcess.notify(
      ["fire-due", "--sink", "stdout"], db: f.path, folder: f.folder, name: "run")
    // Then it ends with 75 (temporary) once the pipe is full, saying what it left
    #expect(run.waitExit(timeout: 20) == 75, "\(run.stderr)")
    #expect(run.stderr.contains("the stdout sink is stalled"), "\(run.stderr)")
    #expect(run.stderr.contains("for the next run"), "\(run.stderr)")
    // And every line in the pipe is a recorded delivery; the rest is pending, none failed
    let printed = reader.readLines().compactMap { Delivered(line: $0) }.map(\.id)
    #expect(!printed.isEmpty)
    #expect(try f.events(.delivered).map(\.notificationID).sorted() == printed.sorted())
    #expect(try f.events(.failed).isEmpty)
    #expect(try f.store.claimsHeld() == (alive: 0, dead: 0))
    #expect(try f.store.pendingCount() == Self.count - printed.count)
  }

  @Test(
    "notify daemon | head -1: the daemon is not killed by SIGPIPE; it exits 69 saying why, the rest pending")
  func readerGoesAway() throws {
    // Given one notification due now
    let f = try FiringFixture()
    try f.schedule("first", at: Date() - 1)
    // When the daemon's output goes to `head -1`, which reads one line and exits; the
    // group closes its own copy of the pipe before it marks head gone, so no reader is left
    let gone = f.folder.file("head-gone")
    let shell = try CommandRunner.spawn(
      [
        "/bin/bash", "-c",
        #""$0" daemon --sink stdout --db "$1" | { head -1; exec 0<&-; : > "$2"; }; echo "daemon exit ${PIPESTATUS[0]}" >&2"#,
        CommandRunner.product("notify"), f.path, gone,
      ],
      environment: ProcessInfo.processInfo.environment.merging([
        "JOURNAL_STREAM": "", "INVOCATION_ID": "", "NOTIFY_SOCKET": "",
      ]) { $1 }, stdout: f.folder.file("shell.out"), stderr: f.folder.file("shell.err"))
    defer { if !CommandRunner.hasExited(shell) { kill(shell, SIGKILL) } }
    #expect(waitUntil(timeout: 30) { FileManager.default.fileExists(atPath: gone) }, "head never read a line")
    // And two more fall due once nobody reads any more (however slowly the daemon started)
    try f.schedule("second", at: Date() - 1)
    try f.schedule("third", at: Date() + 0.5)
    #expect(waitUntil(timeout: 30) { CommandRunner.hasExited(shell) }, "the daemon did not end")
    // Then head printed the first, and the daemon exited 69 (not 141, SIGPIPE) saying why
    let printed = (try? String(contentsOfFile: f.folder.file("shell.out"), encoding: .utf8)) ?? ""
    let errors = (try? String(contentsOfFile: f.folder.file("shell.err"), encoding: .utf8)) ?? ""
    #expect(Delivered(line: printed.trimmingCharacters(in: .newlines))?.id == "first", "\(printed)")
    #expect(errors.contains("daemon exit 69"), "\(errors)")
    #expect(errors.contains("notify: error: the stdout sink is gone: its reader went away"), "\(errors)")
    // And nothing is failed or claimed; what it could not write is pending for the next start
    #expect(try f.events(.failed).isEmpty)
    #expect(try f.events(.delivered).map(\.notificationID) == ["first"])
    #expect(try f.store.claimsHeld() == (alive: 0, dead: 0))
    #expect(try f.store.pendingCount() == 2)
  }
}

/// A FIFO the test holds open for reading (non-blocking), so a child can write to it.
final class FIFO {
  let path: String
  private let fd: Int32
  private var partial = ""

  init(at path: String) throws {
    self.path = path
    guard mkfifo(path, 0o600) == 0 else { throw NotifyError(.ioError, "mkfifo \(path) failed") }
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { throw NotifyError(.ioError, "cannot open \(path)") }
  }

  deinit { close(fd) }

  /// Reads what is there; returns the complete lines.
  func readLines() -> [String] {
    var buffer = [UInt8](repeating: 0, count: 65536)
    var data: [UInt8] = []
    while true {
      let n = read(fd, &buffer, buffer.count)
      if n <= 0 { break }
      data += buffer[0..<n]
    }
    partial += String(decoding: data, as: UTF8.self)
    var lines = partial.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    partial = lines.removeLast()
    return lines
  }
}

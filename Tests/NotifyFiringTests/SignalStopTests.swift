import Foundation
import Glibc
import NotifyCore
import NotifyTestSupport
import Testing

/// SIGTERM, SIGINT and SIGHUP stop `notify daemon` and `notify fire-due` while the
/// notification server answers slowly or never: no new
/// hand-off starts, the one in flight ends within the sink's own timeout, what was not
/// shown goes back to pending, and the next firer shows nothing twice. Real processes on a
/// private session bus with the scripted server (`--notify-delay`, `--silent`).
@Suite("Stopping on a signal while the server is slow", .serialized, .ownThreads)
struct SignalStopTests {
  /// One way of stopping: which command, which signal, which server.
  struct Case: CustomTestStringConvertible, Sendable {
    var command: String
    var signal: Int32
    /// `--notify-delay 0.5` (answers, slowly) or `--silent` (never answers).
    var server: [String]

    var silent: Bool { server == ["--silent"] }
    var testDescription: String {
      "\(command), \(silent ? "a server that never answers" : "a server answering in 0.5 s"), \(signalName)"
    }
    var signalName: String {
      [SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGHUP: "SIGHUP"][signal] ?? "\(signal)"
    }
    /// What the process ends with: the daemon exits 0; fire-due ends by the signal, after
    /// giving its claims back.
    var expectedStatus: Int32 { command == "daemon" ? 0 : 128 + signal }
  }

  static let cases: [Case] = [
    Case(command: "daemon", signal: SIGTERM, server: ["--notify-delay", "0.5"]),
    Case(command: "daemon", signal: SIGINT, server: ["--notify-delay", "0.5"]),
    Case(command: "daemon", signal: SIGHUP, server: ["--notify-delay", "0.5"]),
    Case(command: "fire-due", signal: SIGTERM, server: ["--notify-delay", "0.5"]),
    Case(command: "fire-due", signal: SIGINT, server: ["--notify-delay", "0.5"]),
    Case(command: "daemon", signal: SIGTERM, server: ["--silent"]),
    Case(command: "fire-due", signal: SIGTERM, server: ["--silent"]),
  ]

  /// How many notifications fall due at once.
  static let burst = 12

  @Test(
    "a stop signal mid-burst: the rest goes back, nothing failed, the next run shows each once",
    arguments: cases)
  func stopMidBurst(_ c: Case) throws {
    // Given twelve notifications due at once and a server that is slow (or silent)
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(
      in: f.folder, services: f.folder.file("services"), serverArguments: c.server)
    let all = (0..<Self.burst).map { "n\($0)" }
    let due = Date() - 1
    for id in all { try f.schedule(id, at: due) }
    // When the firer is handing them over and the signal comes while the first call waits
    let firer = try ChildProcess.notify(
      [c.command, "--sink", "desktop"], db: f.path, folder: f.folder, name: "first", environment: desktop.bus)
    #expect(waitUntil(timeout: 20) { desktop.arrivedCount >= 1 }, "\(firer.stderr)")
    firer.send(c.signal)
    // Then it ends (a burst would take 6 s, and a silent server 12 × 3 × 5 s) as it should
    // (the in-flight call is bounded by the sink's 5 s timeout)
    let status = firer.waitExit(timeout: 15)
    #expect(status == c.expectedStatus, "\(firer.stderr)")
    // And what the server showed is recorded delivered (a call to a silent server that timed
    // out is recorded too, with a note: the server may still show it, so it is not sent
    // again), nothing failed, no claim is left, the rest is pending again
    let shown = desktop.shownSummaries
    let delivered = try f.events(.delivered)
    let ids = delivered.map(\.notificationID)
    if c.silent {
      #expect(shown.isEmpty)
      #expect(delivered.count <= 1 && delivered.allSatisfy { $0.detail["note"] != nil }, "\(delivered)")
    } else {
      #expect(Set(shown) == Set(ids.map { "title \($0)" }), "shown \(shown), recorded \(ids)")
    }
    #expect(delivered.count <= 2, "a stop should not wait for the burst: \(delivered.count) delivered")
    #expect(try f.events(.failed).isEmpty)
    #expect(try f.store.claimsHeld() == (alive: 0, dead: 0))
    #expect(try f.store.pendingCount() == Self.burst - delivered.count)
    if c.command == "fire-due" {
      #expect(firer.stderr.contains("stopped by \(c.signalName)"), "\(firer.stderr)")
    } else {
      #expect(firer.stderr.contains("stopping on \(c.signalName)"), "\(firer.stderr)")
    }
    guard !c.silent else { return }

    // When the next run delivers the rest through the same slow server
    let next = try notifyRun(["fire-due", "--sink", "desktop"], db: f.path, environment: desktop.bus)
    #expect(next.status == 0, "\(next.stderr)")
    // Then every notification was shown exactly once and recorded delivered once
    #expect(waitUntil(timeout: 10) { desktop.shownSummaries.count >= Self.burst })
    #expect(desktop.shownSummaries.sorted() == all.map { "title \($0)" }.sorted())
    #expect(try f.events(.delivered).map(\.notificationID).sorted() == all.sorted())
    #expect(try f.events(.failed).isEmpty)
  }
}

/// Runs `notify ARGUMENTS --db DB` with `environment`, logs on stderr.
func notifyRun(_ arguments: [String], db: String, environment: [String: String]) throws
  -> CommandRunner.Result
{
  var env = ["JOURNAL_STREAM": "", "INVOCATION_ID": "", "NOTIFY_SOCKET": ""]
  for (key, value) in environment { env[key] = value }
  return try CommandRunner(environment: env).run(arguments + ["--db", db])
}

import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// A bubble the user closed while no process listened: the process
/// that showed it stopped and left it for a take-over, the user closed it, and the firer
/// that starts next must not bring it back. Dunst under Xvfb: `dunstctl close` closes the
/// newest bubble as a user does (reason 2) and sends the signal to the connection that
/// showed it, which is gone.
@Suite(
  .serialized, .needsHeadlessDesktop, .ownThreads)
struct ClosedBubbleTakeOverTests {
  /// Who showed the bubble and stopped, and who starts right after.
  enum Restart: String, CaseIterable, CustomTestStringConvertible {
    case daemon = "notify daemon restarted"
    case fireDue = "fire-due, then a daemon"
    case app = "an embedded app restarted"
    var testDescription: String { rawValue }
  }

  /// Bubbles dunst shows or is about to show (a `Notify` it took waits a moment before it
  /// is displayed).
  func onScreen(_ desktop: HeadlessDesktop) throws -> Int {
    func count(_ what: String) throws -> Int {
      Int(try desktop.dunstctl("count", what).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
    return try count("displayed") + count("waiting")
  }

  /// The bubbles left in the store for a take-over, read by another connection.
  func leftBubbles(_ f: FiringFixture) throws -> Int {
    let result = try CommandRunner(executable: "/usr/bin/sqlite3").run([
      f.path, "SELECT count(*) FROM left_bubble",
    ])
    try #require(result.status == 0, "\(result.stderr)")
    return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
  }

  @Test(
    "a bubble closed by the user while no firer ran is not brought back by the firer that starts next",
    arguments: Restart.allCases)
  func closedBubbleStaysClosed(restart: Restart) throws {
    // Given a desktop and a firer of `restart`'s kind that shows notification "gone"
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let environment = desktop.environment
    func firer(_ name: String) throws -> ChildProcess {
      let process =
        restart == .app
        ? try ChildProcess.notify(
          ["--app", "closer", "--sink", "desktop"], db: f.path, folder: f.folder, name: name,
          environment: environment, program: "embedded-app-fixture")
        : try ChildProcess.notify(
          ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: name, environment: environment)
      #expect(process.waitReady(), "\(process.stderr)")
      return process
    }
    switch restart {
    case .daemon, .app:
      let first = try firer("first")
      try f.schedule("gone", at: Date() + 0.3, app: "closer")
      #expect(waitUntil(timeout: 20) { (try? f.events(.delivered).count) == 1 }, "\(first.stderr)")
      // When it stops, leaving the bubble on screen for a take-over
      first.send(SIGTERM)
      #expect(first.waitExit() == 0, "\(first.stderr)")
    case .fireDue:
      try f.schedule("gone", at: Date(), app: "closer")
      let fired = try CommandRunner(environment: environment).run([
        "fire-due", "--sink", "desktop", "--db", f.path,
      ])
      #expect(fired.status == 0, "\(fired.stderr)")
    }
    #expect(waitUntil(timeout: 10) { (try? onScreen(desktop)) == 1 })
    #expect(try leftBubbles(f) == 1)
    // And the user closes it while no firer runs (the close reaches nobody)
    try desktop.dunstctl("close")
    #expect(waitUntil(timeout: 10) { (try? onScreen(desktop)) == 0 })
    #expect(try desktop.dunstctl("count", "history").hasPrefix("1"))
    // And a firer starts right after: it takes the left bubble over as it starts, before
    // it says it is ready
    let next = try firer("next")
    defer {
      next.send(SIGTERM)
      _ = next.waitExit()
    }
    #expect(try leftBubbles(f) == 0, "\(next.stderr)")
    if restart != .app {
      // (the line is written after the take-over's commit, which the count above saw)
      #expect(
        waitUntil(timeout: 10) {
          next.stderr.contains("took over a bubble") && next.stderr.contains("id=gone")
        }, "\(next.stderr)")
    }
    // Then the closed bubble is not back: dunst has answered every call the take-over made
    // before the firer was ready, and asked now it shows nothing, nor is about to
    #expect(try onScreen(desktop) == 0, "\(next.stderr)")
    #expect(try f.events(.delivered).count == 1)
  }
}

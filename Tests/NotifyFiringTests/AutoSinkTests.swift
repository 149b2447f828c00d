import Foundation
import Glibc
import NotifyCore
import NotifyTestSupport
import Testing

/// `--sink auto` follows the bus: a daemon started
/// before the notification server moves to the desktop when the server takes its name
/// (NameOwnerChanged), back to stdout when it goes, and says so in its log; nothing is
/// recorded `failed` meanwhile.
@Suite("--sink auto follows the bus", .serialized, .ownThreads)
struct AutoSinkTests {
  @Test("the scripted server arrives after the daemon, then leaves: stdout, desktop, stdout")
  func scriptedServerComesAndGoes() throws {
    // Given a session bus with no notification server, and a daemon on --sink auto
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(in: f.folder, services: f.folder.file("services"), withServer: false)
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "auto"], db: f.path, folder: f.folder, name: "d", environment: desktop.bus)
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    // When one comes due: stdout
    try deliver("before", f, daemon)
    #expect(daemon.deliveries.map(\.id) == ["before"])
    // When the server takes its name: the daemon says so, and the next goes to the desktop
    try desktop.startServer()
    #expect(
      waitUntil(timeout: 10) { daemon.stderr.contains("a notification server is on the session bus") })
    try deliver("during", f, daemon)
    #expect(desktop.shownSummaries == ["title during"])
    // When the server goes away: back to stdout, said in the log
    desktop.stopServer()
    #expect(
      waitUntil(timeout: 10) { daemon.stderr.contains("the notification server left the session bus") })
    try deliver("after", f, daemon)
    // Then each went to one place, once, and nothing failed
    #expect(daemon.deliveries.map(\.id) == ["before", "after"])
    #expect(desktop.shownSummaries == ["title during"])
    #expect(try f.events(.failed).isEmpty)
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }

  @Test(
    "dunst starts after the daemon and is stopped again: stdout, dunst, stdout",
    .needsHeadlessDesktop)
  func dunstComesAndGoes() throws {
    // Given a headless desktop whose dunst is stopped, and a daemon on --sink auto
    let desktop = try HeadlessDesktop()
    #expect(desktop.stopDunst())
    let f = try FiringFixture()
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "auto"], db: f.path, folder: f.folder, name: "d", environment: desktop.environment)
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    try deliver("before", f, daemon)
    // When dunst starts: the daemon moves to it
    try desktop.start()
    #expect(
      waitUntil(timeout: 20) { daemon.stderr.contains("a notification server is on the session bus") })
    try deliver("during", f, daemon)
    #expect(
      waitUntil(timeout: 10) {
        (try? desktop.dunstctl("count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines)) == "1"
      })
    // When dunst is stopped: back to stdout, instead of failed deliveries
    #expect(desktop.stopDunst())
    #expect(
      waitUntil(timeout: 10) { daemon.stderr.contains("the notification server left the session bus") })
    try deliver("after", f, daemon)
    #expect(daemon.deliveries.map(\.id) == ["before", "after"])
    #expect(try f.events(.failed).isEmpty)
    #expect(try f.events(.delivered).map(\.notificationID) == ["before", "during", "after"])
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }

  @Test("login order: activation fails, the server starts later; status says stdout, then desktop")
  func activationFailsThenServerStarts() throws {
    // Given a bus whose notification service file names a program that exits at once (a
    // server that needs a display the session does not have yet), and a daemon on --sink auto
    let f = try FiringFixture()
    let desktop = try Self.busWithFailingServer(f)
    let session = desktop.bus.merging(["DISPLAY": ":notify-test"]) { $1 }
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "auto"], db: f.path, folder: f.folder, name: "d", environment: session)
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    // When one comes due: the daemon tries to start the server once, fails, and uses stdout
    try deliver("before", f, daemon)
    #expect(daemon.deliveries.map(\.id) == ["before"])
    #expect(daemon.stderr.contains("no notification server yet"), "\(daemon.stderr)")
    #expect(daemon.listener.waitFor("delivering to stdout", timeout: 10) != nil)
    // Then status names stdout as a problem of a session with a display
    let before = try CommandRunner(environment: session).run(["status", "--db", f.path])
    #expect(before.status == 1, "\(before.stdout)")
    #expect(
      before.stdout.contains("daemon: running (pid \(daemon.pid)), delivering to stdout"), "\(before.stdout)")
    #expect(before.stdout.contains("problem (firer): the daemon (pid \(daemon.pid)) delivers to stdout"))
    // When the server starts by other means (the desktop's autostart)
    try desktop.startServer()
    #expect(
      waitUntil(timeout: 10) { daemon.stderr.contains("a notification server is on the session bus") })
    // Then the next notification is on it, and status and STATUS= say desktop
    try deliver("after", f, daemon)
    #expect(desktop.shownSummaries == ["title after"])
    #expect(daemon.deliveries.map(\.id) == ["before"])
    #expect(daemon.listener.waitFor("delivering to desktop", timeout: 10) != nil)
    let after = try CommandRunner(environment: session).run(["status", "--db", f.path, "--json"])
    let record = try #require(
      try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])
    #expect((record["daemon"] as? [String: Any])?["deliveringTo"] as? String == "desktop", "\(after.stdout)")
    #expect(
      !((record["problems"] as? [[String: Any]]) ?? []).contains { $0["area"] as? String == "firer" },
      "\(after.stdout)")
    #expect(try f.events(.failed).isEmpty)
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }

  @Test("fire-due with a service file that fails: one short attempt, then stdout; nothing lost")
  func fireDueActivationFails() throws {
    let f = try FiringFixture()
    let desktop = try Self.busWithFailingServer(f)
    try f.schedule("one", at: Date() - 1)
    try f.schedule("two", at: Date() - 1)
    // When fire-due runs on --sink auto
    let run = try CommandRunner(environment: desktop.bus).run(["fire-due", "--sink", "auto", "--db", f.path])
    // Then both went to stdout after one attempt to start the server
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.split(separator: "\n").count == 2, "\(run.stdout)")
    #expect(run.stderr.components(separatedBy: "no notification server yet").count == 2, "\(run.stderr)")
    #expect(try f.events(.delivered).map(\.notificationID).sorted() == ["one", "two"])
  }

  /// A private bus whose notification service file names a program that exits at once (a
  /// server that needs a display the session does not have yet), with no server running.
  static func busWithFailingServer(_ f: FiringFixture) throws -> ScriptedDesktop {
    let services = f.folder.file("services")
    try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
    try "[D-BUS Service]\nName=org.freedesktop.Notifications\nExec=/bin/false\n".write(
      toFile: services + "/org.freedesktop.Notifications.service", atomically: true, encoding: .utf8)
    return try ScriptedDesktop(in: f.folder, services: services, withServer: false)
  }

  /// Schedules `id` due in 0.2 s and waits until it is recorded delivered.
  private func deliver(_ id: String, _ f: FiringFixture, _ daemon: ChildProcess) throws {
    try f.schedule(id, at: Date() + 0.2)
    #expect(
      waitUntil(timeout: 10) { (try? f.events(.delivered).map(\.notificationID))?.contains(id) == true },
      "\(daemon.stderr)")
  }
}

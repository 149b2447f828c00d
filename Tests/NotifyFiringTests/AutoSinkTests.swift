import Foundation
import Glibc
import NotifyCore
import NotifyTestSupport
import Testing

/// `--sink auto` follows the bus (issue 12, "Signals and slow peers"): a daemon started
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
    let daemon = try NotifyProcess(
      ["daemon", "--sink", "auto"], db: f.path, folder: f.folder, name: "d", environment: desktop.bus)
    #expect(daemon.waitReady(), "\(daemon.errorText)")
    // When one comes due: stdout
    try deliver("before", f, daemon)
    #expect(daemon.deliveries.map(\.id) == ["before"])
    // When the server takes its name: the daemon says so, and the next goes to the desktop
    try desktop.startServer()
    #expect(
      waitUntil(timeout: 10) { daemon.errorText.contains("a notification server is on the session bus") })
    try deliver("during", f, daemon)
    #expect(desktop.shownSummaries == ["title during"])
    // When the server goes away: back to stdout, said in the log
    desktop.stopServer()
    #expect(
      waitUntil(timeout: 10) { daemon.errorText.contains("the notification server left the session bus") })
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
    .enabled(if: HeadlessDesktop.toolsMissing == nil, "needs Xvfb, dbus and dunst"))
  func dunstComesAndGoes() throws {
    // Given a headless desktop whose dunst is stopped, and a daemon on --sink auto
    let desktop = try HeadlessDesktop()
    #expect(desktop.stopDunst())
    let f = try FiringFixture()
    let daemon = try NotifyProcess(
      ["daemon", "--sink", "auto"], db: f.path, folder: f.folder, name: "d", environment: desktop.environment)
    #expect(daemon.waitReady(), "\(daemon.errorText)")
    try deliver("before", f, daemon)
    // When dunst starts: the daemon moves to it
    try desktop.startDunst()
    #expect(
      waitUntil(timeout: 20) { daemon.errorText.contains("a notification server is on the session bus") })
    try deliver("during", f, daemon)
    #expect(
      waitUntil(timeout: 10) {
        (try? desktop.dunstctl("count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines)) == "1"
      })
    // When dunst is stopped: back to stdout, instead of failed deliveries
    #expect(desktop.stopDunst())
    #expect(
      waitUntil(timeout: 10) { daemon.errorText.contains("the notification server left the session bus") })
    try deliver("after", f, daemon)
    #expect(daemon.deliveries.map(\.id) == ["before", "after"])
    #expect(try f.events(.failed).isEmpty)
    #expect(try f.events(.delivered).map(\.notificationID) == ["before", "during", "after"])
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }

  /// Schedules `id` due in 0.2 s and waits until it is recorded delivered.
  private func deliver(_ id: String, _ f: FiringFixture, _ daemon: NotifyProcess) throws {
    try f.schedule(id, at: Date() + 0.2)
    #expect(
      waitUntil(timeout: 10) { (try? f.events(.delivered).map(\.notificationID))?.contains(id) == true },
      "\(daemon.errorText)")
  }
}

import Foundation
import Glibc
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// `notify daemon` and logind's delay inhibitor, against `python3-dbusmock`'s logind on the
/// private bus that also carries the scripted notification server (standing in for the
/// system bus: `DBUS_SYSTEM_BUS_ADDRESS`). No machine here can suspend: what is checked is
/// what logind would wait for.
@Suite(
  "sleep and shutdown: the delay inhibitor around a hand-off", .serialized, .ownThreads, .needsLogindMock)
struct SleepInhibitorTests {
  @Test(
    "taken before a hand-off, held while it is in flight also after PrepareForSleep(true), released once it is recorded"
  )
  func aroundHandOff() throws {
    // Given logind, a notification server that answers each Notify 2 s late, and a
    // notification due in 4 s
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(in: f.folder, services: f.folder.file("none"), notifyDelay: 2)
    let address = try #require(desktop.bus["DBUS_SESSION_BUS_ADDRESS"])
    let logind = try LogindMock(address: address, in: f.folder)
    let due = Date() + 4
    try f.schedule("soon", at: due)
    // When the daemon runs
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d",
      environment: desktop.bus.merging(logind.environment) { $1 })
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    // Then it holds no inhibitor while nothing is in hand
    if Date() < due - 1 { #expect(try logind.inhibitors().isEmpty) }
    // When the hand-off is in flight (the server has the Notify and holds its answer)
    #expect(waitUntil(timeout: 30) { desktop.arrivedCount >= 1 }, "\(daemon.stderr)")
    // Then logind lists notify's delay inhibitor for sleep and shutdown
    let held = try logind.inhibitors()
    let recordedEarly = try !f.events(.delivered).isEmpty
    if !recordedEarly {
      #expect(
        held == [
          .init(what: "sleep:shutdown", who: "notify", why: "delivering a notification", mode: "delay")
        ],
        "\(held)")
    }
    // When logind announces a suspend meanwhile
    try logind.prepareForSleep(true)
    // Then the hand-off finishes (delivered once), and only then is the inhibitor let go
    #expect(waitUntil(timeout: 30) { (try? f.events(.delivered).count) == 1 }, "\(daemon.stderr)")
    #expect(waitUntil(timeout: 30) { (try? logind.inhibitors().isEmpty) == true })
    // (the announcement is read once the hand-off has let the loop go: logind waited for it)
    #expect(
      waitUntil(timeout: 30) { daemon.stderr.contains("the machine is going to sleep") },
      "\(daemon.stderr)")
    // When the machine resumes
    try logind.prepareForSleep(false)
    #expect(waitUntil(timeout: 30) { daemon.stderr.contains("the machine resumed") })
    #expect(f.waitSettled())
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0, "\(daemon.stderr)")
    // And nothing was shown twice, and no inhibitor is left
    #expect(desktop.shownSummaries == ["title soon"])
    #expect(try logind.inhibitors().isEmpty)
  }

  @Test("without logind the daemon fires as before, saying once that sleep is not followed")
  func withoutLogind() throws {
    // Given a system bus address where nothing listens
    let f = try FiringFixture()
    try f.schedule("soon", at: Date() + 1)
    let daemon = try ChildProcess.daemon(
      db: f.path, folder: f.folder, name: "d",
      environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(f.folder.file("no-such-bus"))"])
    // Then it delivers all the same
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    #expect(waitUntil(timeout: 20) { !daemon.deliveries.isEmpty }, "\(daemon.stderr)")
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0, "\(daemon.stderr)")
    #expect(daemon.stderr.components(separatedBy: "sleep and shutdown are not followed").count == 2)
  }
}

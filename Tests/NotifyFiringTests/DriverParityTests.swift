import Foundation
import Glibc
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// Cases that only one driver was tested for, or neither, run against both: `notify
/// daemon` and an app firing in process (the one engine, two ways in).
@Suite("firing parity: notify daemon and an app in process", .serialized, .ownThreads)
struct DriverParityTests {
  @Test(
    "a claim left by a firer that died is delivered once, late; one it had shown is recorded, not shown again",
    arguments: FiringDriver.allCases)
  func deadFirersClaims(driver: FiringDriver) throws {
    // Given two overdue notifications claimed by a firer that has since died, which had
    // handed `shown` to its sink (its hand-off note says so) but not `orphan`
    let f = try FiringFixture()
    try f.schedule("orphan", at: Date() - 5)
    try f.schedule("shown", at: Date() - 5)
    let claims = try f.store.claimDue(
      now: Date(), zones: testZones(f.utc), owner: deadFirer, misfireGrace: nil, limit: 64)
    let shown = try #require(claims.first { $0.notification.id == "shown" })
    try f.store.noteHandedOver(
      [
        HandOff(
          claim: shown,
          delivery: Delivery(
            notification: shown.notification, occurrence: 1, fireDate: shown.fireDate,
            deliveredAt: Date() - 4,
            late: false))
      ], owner: deadFirer)
    #expect(try f.store.pending(app: nil).isEmpty)
    // When a firer starts
    let firer = try ChildProcess.firer(driver, db: f.path, folder: f.folder, name: "d")
    #expect(firer.waitReady(), "\(firer.stderr)")
    // Then it takes the dead firer's claims over: `orphan` comes out once, late, and
    // `shown` is recorded delivered without being shown a second time
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 2 }, "\(firer.stderr)")
    // And nothing is left due or claimed, and the dead firer's note is gone
    #expect(f.waitSettled(), "\(firer.stderr)")
    let deadNote = "\(f.path)-handoff-\(deadFirer.pid)-\(deadFirer.startTime)-\(deadFirer.bootID.prefix(8))"
    #expect(!FileManager.default.fileExists(atPath: deadNote))
    // When the firer stops (what it printed is then all it ever will: a repeat, were there
    // one, would be in it)
    firer.send(SIGTERM)
    #expect(firer.waitExit() == 0)
    // Then `orphan` came out once, late, and `shown` was recorded, not shown again
    #expect(firer.deliveries.map(\.id) == ["orphan"])
    #expect(firer.deliveries.first?.late == true)
    let recovered = try #require(try f.events(.delivered).first { $0.notificationID == "shown" })
    #expect(recovered.detail["recovered"] == .bool(true))
    // And its own note is gone too
    let notes = try FileManager.default.contentsOfDirectory(atPath: f.folder.path).filter {
      $0.contains("-handoff-")
    }
    #expect(notes.isEmpty, "\(notes)")
  }

  @Test(
    "where the server lacks `sound`, the firer plays the sound itself, whoever fires",
    .needsHeadlessDesktop,
    arguments: FiringDriver.allCases)
  func soundFallback(driver: FiringDriver) throws {
    // Given dunst (no `sound` capability), an audio server, a fake player on PATH, and the
    // app's sound file in its sound folder
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let stage = SoundStage(folder: f.folder)
    let firer = try ChildProcess.firer(
      driver, db: f.path, folder: f.folder, name: "d", sink: "desktop",
      environment: desktop.environment.merging(stage.environment) { $1 })
    #expect(firer.waitReady(), "\(firer.stderr)")
    // When a notification with that sound comes due
    let n = LocalNotification(
      id: "ping", app: "test", schedule: Schedule(fireDate: .instant(Date() + 0.5)), title: "ping",
      sound: .file("ping.wav"), createdAt: Date())
    _ = try f.store.schedule(n, zones: testZones(f.utc))
    // Then it is shown, and the fake player is asked to play the file
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 1 }, "\(firer.stderr)")
    #expect(
      waitUntil(timeout: 10) { stage.calls.contains { $0.hasSuffix("ping.wav") } }, "\(firer.stderr)")
    firer.send(SIGTERM)
    #expect(firer.waitExit() == 0)
  }
}

/// A private sound setup for a firer process: a fake `pw-play` that logs its arguments, a
/// runtime folder with a PipeWire socket path (an audio output), and `ping.wav` in the
/// app `test`'s sound folder under a private XDG_DATA_HOME.
struct SoundStage {
  let folder: TemporaryFolder
  var log: String { folder.file("player.log") }

  init(folder: TemporaryFolder) {
    self.folder = folder
    let manager = FileManager.default
    for path in ["bin", "runtime", "data/notify/sounds/test"] {
      try? manager.createDirectory(atPath: folder.file(path), withIntermediateDirectories: true)
    }
    _ = manager.createFile(atPath: folder.file("runtime/pipewire-0"), contents: nil)
    let script = folder.file("bin/pw-play")
    _ = manager.createFile(
      atPath: script, contents: Data("#!/bin/sh\necho \"$0 $*\" >> '\(log)'\n".utf8),
      attributes: [.posixPermissions: 0o755])
    _ = manager.createFile(atPath: folder.file("data/notify/sounds/test/ping.wav"), contents: TestWAV.pcm16())
  }

  var environment: [String: String] {
    [
      "PATH": folder.file("bin") + ":/usr/bin:/bin", "XDG_RUNTIME_DIR": folder.file("runtime"),
      "XDG_DATA_HOME": folder.file("data"),
    ]
  }

  /// What the fake player was called with, one line per call.
  var calls: [String] {
    ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
  }
}

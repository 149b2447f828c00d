import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// The user's per-app settings, honoured by the one firing engine whoever fires: the
/// daemon, `fire-due`, and an app firing its own in process.
@Suite(.ownThreads)
struct UserSettingsTests {
  @Test(
    "alerts off: nothing printed or shown, history has it delivered (alerts-off); on again: shown",
    arguments: StdoutFirer.allCases)
  func alertsOff(firer: StdoutFirer) throws {
    // Given the user switched alerts off for app "test"
    let f = try FiringFixture()
    let off = try notify(["settings", "--app", "test", "--alerts", "off"], db: f.path)
    #expect(off.status == 0, "\(off.stderr)")
    #expect(off.stdout.contains("alerts off (set)"), "\(off.stdout)")
    let run = try StdoutFiring(f, firer)
    // When one of its notifications fires
    try run.fire("hidden")
    // Then history records it as delivered, suppressed by the user's setting
    let hidden = try #require(try f.events(.delivered).first { $0.notificationID == "hidden" })
    #expect(hidden.reason == "alerts-off")
    #expect(hidden.detail["suppressed"] == .array([.string("alerts")]))
    let history = try notify(["history", "--app", "test"], db: f.path)
    #expect(
      history.stdout.contains("(alerts-off)")
        && history.stdout.contains("suppressed by your settings: alerts"))
    // And an app firing its own still hears of it
    if firer == .app, let app = run.resident {
      #expect(
        waitUntil(timeout: 10) { app.stderr.contains("event: delivered hidden") }, "\(app.stderr)")
    }
    // When the user switches alerts on again and another fires
    #expect(try notify(["settings", "--app", "test", "--alerts", "on"], db: f.path).status == 0)
    try run.fire("shown")
    // Then that one is printed, and the hidden one never was (the sink writes in order)
    #expect(waitUntil(timeout: 10) { run.printed.map(\.id).contains("shown") })
    #expect(run.printed.map(\.id) == ["shown"])
    #expect(try f.events(.delivered).first { $0.notificationID == "shown" }?.reason == nil)
    run.stop()
  }
}

/// Sounds off, against a notification server that plays sounds itself: a scripted one on a
/// private bus (dunst has no `sound` capability), which records every call.
@Suite(
  .serialized, .enabled(if: ActivationTools.missing == nil, "needs dbus, gdbus and python3-gi"), .ownThreads)
struct SoundSettingTests {
  @Test(
    "sounds off: the server is told to stay silent; on again: it gets the sound",
    arguments: FiringDriver.allCases)
  func soundsOff(driver: FiringDriver) throws {
    // Given a private bus with a notification server that plays sounds, and a firer on it
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(
      in: f.folder, services: f.folder.file("services"), capabilities: "body,sound")
    let bus = desktop.bus
    // And the user switched sounds off for app "test"
    #expect(try notify(["settings", "--app", "test", "--sounds", "off"], db: f.path).status == 0)
    let firer = try ChildProcess.firer(
      driver, db: f.path, folder: f.folder, name: "d", sink: "desktop", environment: bus)
    #expect(firer.waitReady(), "\(firer.stderr)")
    func hints(of title: String) -> [String: Any]? {
      desktop.calls.first { $0["call"] as? String == "Notify" && $0["summary"] as? String == title }?["hints"]
        as? [String: Any]
    }
    // When a notification with the default sound fires
    try f.schedule("quiet", at: Date() + 0.3, sound: .default)
    // Then the bubble is shown, silent: suppress-sound and no sound name
    #expect(waitUntil(timeout: 10) { hints(of: "title quiet") != nil }, "\(firer.stderr)")
    let silent = try #require(hints(of: "title quiet"))
    #expect(silent["suppress-sound"] as? Bool == true && silent["sound-name"] == nil, "\(silent)")
    // (the firer records the delivery once the server took it)
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 1 })
    let delivered = try #require(try f.events(.delivered).first)
    #expect(delivered.reason == nil && delivered.detail["suppressed"] == .array([.string("sounds")]))
    // When sounds are on again
    #expect(try notify(["settings", "--app", "test", "--sounds", "on"], db: f.path).status == 0)
    try f.schedule("loud", at: Date() + 0.3, sound: .default)
    // Then the server gets the sound
    #expect(waitUntil(timeout: 10) { hints(of: "title loud") != nil }, "\(firer.stderr)")
    let loud = try #require(hints(of: "title loud"))
    #expect(loud["sound-name"] as? String != nil && loud["suppress-sound"] == nil, "\(loud)")
    firer.send(SIGTERM)
    #expect(firer.waitExit() == 0)
  }
}

/// Badges off, with the daemon on a real session bus: the launcher is told nothing of the
/// app's count until the user switches badges on again.
@Suite(
  .serialized, .needsHeadlessDesktop, .ownThreads)
struct BadgeSettingTests {
  @Test("badges off: the launcher gets no count, the store keeps it; on again: the daemon publishes it")
  func badgesOff() throws {
    // Given badges off for app "tally", whose stored badge is 7, and a bus monitor
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    try f.store.setBadge(app: "tally", count: 7, at: Date())
    try f.store.change(SettingsChange(badges: false), app: "tally")
    let monitor = try BusMonitor(environment: desktop.environment, folder: f.folder)
    func updates() -> [String] {
      // One signal per `signal` line; keep tally's.
      monitor.seen.components(separatedBy: "signal time=").filter {
        $0.contains("application://tally.desktop")
      }
    }
    // When the daemon starts, and one of tally's notifications with badge 8 fires
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d",
      environment: desktop.environment)
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    try f.schedule("counted", at: Date() + 0.2, app: "tally", badge: 8)
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 1 }, "\(daemon.stderr)")
    // Then the launcher was told no count for tally, and the store keeps 8
    #expect(waitUntil(timeout: 10) { !updates().isEmpty }, "the daemon published nothing for tally")
    #expect(updates().allSatisfy { !$0.contains("int64 7") && !$0.contains("int64 8") }, "\(updates())")
    #expect(try f.store.badge(app: "tally") == 8)
    // When the user switches badges on
    #expect(try notify(["settings", "--app", "tally", "--badges", "on"], db: f.path).status == 0)
    // Then the daemon publishes the stored count
    #expect(waitUntil(timeout: 10) { updates().contains { $0.contains("int64 8") } }, "\(updates())")
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }
}

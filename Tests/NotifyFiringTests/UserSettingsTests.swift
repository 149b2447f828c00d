import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// The user's per-app settings, honoured by the one firing engine whoever fires: the
/// daemon, `fire-due`, and an app firing its own in process.
@Suite(.ownThreads)
struct UserSettingsTests {
  /// Who fires.
  enum Firer: String, CaseIterable, CustomTestStringConvertible {
    case daemon, app
    case fireDue = "fire-due"
    var testDescription: String { rawValue }
  }

  /// Runs `firer` until the notification `id` has a `delivered` event; returns the ids
  /// the stdout sink printed.
  final class Run {
    let f: FiringFixture
    let firer: Firer
    let resident: NotifyProcess?
    private var fireDueLines: [String] = []

    init(_ f: FiringFixture, _ firer: Firer) throws {
      self.f = f
      self.firer = firer
      switch firer {
      case .daemon: resident = try NotifyProcess.firer(.daemon, db: f.path, folder: f.folder, name: "d")
      case .app: resident = try NotifyProcess.firer(.app, db: f.path, folder: f.folder, name: "a")
      case .fireDue: resident = nil
      }
      if let resident { #expect(resident.waitReady(), "\(resident.errorText)") }
    }

    func fire(_ id: String) throws {
      try f.schedule(id, at: Date() + (resident == nil ? 0 : 0.3))
      if resident == nil {
        let run = try notify(["fire-due", "--sink", "stdout"], db: f.path)
        #expect(run.status == 0, "\(run.stderr)")
        fireDueLines += run.stdout.split(separator: "\n").map(String.init)
      }
      #expect(
        waitUntil(timeout: 10) {
          (try? self.f.events(.delivered).map(\.notificationID))?.contains(id) == true
        },
        "\(resident?.errorText ?? "")")
    }

    var printed: [String] {
      resident.map { $0.deliveries.map(\.id) } ?? fireDueLines.compactMap { Delivered(line: $0)?.id }
    }

    func stop() {
      guard let resident else { return }
      resident.send(SIGTERM)
      #expect(resident.waitExit() == 0)
    }
  }

  @Test(
    "alerts off: nothing printed or shown, history has it delivered (alerts-off); on again: shown",
    arguments: Firer.allCases)
  func alertsOff(firer: Firer) throws {
    // Given the user switched alerts off for app "test"
    let f = try FiringFixture()
    let off = try notify(["settings", "--app", "test", "--alerts", "off"], db: f.path)
    #expect(off.status == 0, "\(off.stderr)")
    #expect(off.stdout.contains("alerts off (set)"), "\(off.stdout)")
    let run = try Run(f, firer)
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
        waitUntil(timeout: 10) { app.errorText.contains("event: delivered hidden") }, "\(app.errorText)")
    }
    // When the user switches alerts on again and another fires
    #expect(try notify(["settings", "--app", "test", "--alerts", "on"], db: f.path).status == 0)
    try run.fire("shown")
    // Then that one is printed, and the hidden one never was (the sink writes in order)
    #expect(waitUntil(timeout: 10) { run.printed.contains("shown") })
    #expect(run.printed == ["shown"])
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
    let fixtures = DBusActivationTests.fixtures
    let state = f.folder.file("bus")
    let started = try CommandRunner(executable: "/bin/bash").run([
      fixtures + "/private-bus.sh", "start", state, f.folder.file("services"),
    ])
    try #require(started.status == 0, "\(started.stderr)")
    defer {
      _ = try? CommandRunner(executable: "/bin/bash").run([fixtures + "/private-bus.sh", "stop", state])
    }
    let bus = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(state)/bus"]
    let record = f.folder.file("server.record")
    let serverOut = f.folder.file("server.out")
    let server = try CommandRunner.spawn(
      [
        "/usr/bin/python3", fixtures + "/notification-server.py", "--record", record, "--capabilities",
        "body,sound",
      ],
      environment: ProcessInfo.processInfo.environment.merging(bus) { $1 }, stdout: serverOut)
    defer {
      kill(server, SIGTERM)
      _ = CommandRunner.wait(server)
    }
    try #require(
      waitUntil(timeout: 10) {
        fileBytes(serverOut).map { String(decoding: $0, as: UTF8.self) }?.contains("READY") == true
      })
    // And the user switched sounds off for app "test"
    #expect(try notify(["settings", "--app", "test", "--sounds", "off"], db: f.path).status == 0)
    let firer = try NotifyProcess.firer(
      driver, db: f.path, folder: f.folder, name: "d", sink: "desktop", environment: bus)
    #expect(firer.waitReady(), "\(firer.errorText)")
    func hints(of title: String) -> [String: Any]? {
      let lines = (fileBytes(record).map { String(decoding: $0, as: UTF8.self) } ?? "").split(separator: "\n")
      for line in lines {
        guard let call = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          call["call"] as? String == "Notify", call["summary"] as? String == title
        else { continue }
        return call["hints"] as? [String: Any]
      }
      return nil
    }
    // When a notification with the default sound fires
    try f.schedule("quiet", at: Date() + 0.3, sound: .default)
    // Then the bubble is shown, silent: suppress-sound and no sound name
    #expect(waitUntil(timeout: 10) { hints(of: "title quiet") != nil }, "\(firer.errorText)")
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
    #expect(waitUntil(timeout: 10) { hints(of: "title loud") != nil }, "\(firer.errorText)")
    let loud = try #require(hints(of: "title loud"))
    #expect(loud["sound-name"] as? String != nil && loud["suppress-sound"] == nil, "\(loud)")
    firer.send(SIGTERM)
    #expect(firer.waitExit() == 0)
  }
}

/// Badges off, with the daemon on a real session bus: the launcher is told nothing of the
/// app's count until the user switches badges on again.
@Suite(
  .serialized, .enabled(if: HeadlessDesktop.toolsMissing == nil, "needs Xvfb, dbus and dunst"), .ownThreads)
struct BadgeSettingTests {
  @Test("badges off: the launcher gets no count, the store keeps it; on again: the daemon publishes it")
  func badgesOff() throws {
    // Given badges off for app "tally", whose stored badge is 7, and a bus monitor
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    try f.store.setBadge(app: "tally", count: 7, at: Date())
    try f.store.change(SettingsChange(badges: false), app: "tally")
    let monitorOutput = f.folder.file("monitor.out")
    let monitor = try CommandRunner.spawn(
      ["dbus-monitor", "type='signal',interface='com.canonical.Unity.LauncherEntry',member='Update'"],
      environment: ProcessInfo.processInfo.environment.merging(desktop.environment) { $1 },
      stdout: monitorOutput)
    defer {
      kill(monitor, SIGKILL)
      waitpid(monitor, nil, 0)
    }
    func updates() -> [String] {
      // One signal per `signal` line; keep tally's.
      (fileBytes(monitorOutput).map { String(decoding: $0, as: UTF8.self) } ?? "")
        .components(separatedBy: "signal time=").filter { $0.contains("application://tally.desktop") }
    }
    try #require(
      waitUntil(timeout: 10) {
        fileBytes(monitorOutput).map { String(decoding: $0, as: UTF8.self) }?.contains("member=NameLost")
          == true
      }, "dbus-monitor did not start")
    // When the daemon starts, and one of tally's notifications with badge 8 fires
    let daemon = try NotifyProcess(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d",
      environment: desktop.environment)
    #expect(daemon.waitReady(), "\(daemon.errorText)")
    try f.schedule("counted", at: Date() + 0.2, app: "tally", badge: 8)
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 1 }, "\(daemon.errorText)")
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

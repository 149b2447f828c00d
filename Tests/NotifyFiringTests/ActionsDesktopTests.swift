import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// Actions on a notification, end to end on a real desktop: buttons picked in
/// dunst's menu (a scripted dmenu) reach the app whichever way it was shown; a snooze comes
/// back once, on time, across a `kill -9`; KDE's inline reply on the scripted server.
@Suite(
  .serialized, .needsHeadlessDesktop, .ownThreads)
struct ActionsDesktopTests {
  static let buttons: [NotificationAction] = [
    .button(key: "read", title: "Mark read"), .button(key: "open", title: "Open", opensApp: true),
  ]

  /// How the notification came to be shown. (A bubble `fire-due` showed is taken over by a
  /// daemon without being shown again; dunst then tells its clicks to nobody: the take-over
  /// is clicked on the scripted server, `ClickToAppTests`.)
  enum Way: String, CaseIterable, CustomTestStringConvertible {
    case daemon = "notify daemon"
    case app = "an embedded app"
    var testDescription: String { rawValue }
  }

  @Test(
    "a button picked in the menu is recorded with its key and reaches the app, now or when it asks",
    arguments: Way.allCases)
  func pickedButton(way: Way) throws {
    // Given a desktop and a notification of app "act" with two buttons, shown `way`
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let environment = desktop.environment
    func daemon() throws -> ChildProcess {
      let daemon = try ChildProcess.notify(
        ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d", environment: environment)
      #expect(daemon.waitReady(), "\(daemon.stderr)")
      return daemon
    }
    var running: [ChildProcess] = []
    defer {
      for process in running {
        process.send(SIGTERM)
        _ = process.waitExit()
      }
    }
    switch way {
    case .daemon:
      running.append(try daemon())
      try f.schedule("ping", at: Date() + 0.3, app: "act", actions: Self.buttons)
    case .app:
      let app = try ChildProcess.notify(
        ["--app", "act", "--sink", "desktop"], db: f.path, folder: f.folder, name: "app",
        environment: environment, program: "embedded-app-fixture")
      #expect(app.waitReady(), "\(app.stderr)")
      running.append(app)
      try f.schedule("ping", at: Date() + 0.3, app: "act", actions: Self.buttons)
    }
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 1 }, "\(running.map(\.stderr))")
    #expect(waitUntil(timeout: 10) { (try? desktop.dunstctl("count", "displayed"))?.hasPrefix("1") == true })
    // When the user picks "Mark read" in the bubble's menu
    let offered = try desktop.pick(",read]")
    // Then both buttons were offered, and the default action where a click on it reaches the
    // app: the app runs, or (the daemon's case) nothing (no desktop entry, no action text)
    #expect(
      offered.contains("#Mark read (title ping)") && offered.contains("#Open (title ping)"), "\(offered)")
    #expect(offered.contains("#View (title ping)") == (way == .app), "\(offered)")
    // And history records the activation with the key
    #expect(waitUntil(timeout: 10) { (try? f.events(.activated).count) == 1 }, "\(running.map(\.stderr))")
    let activated = try #require(try f.events(.activated).first)
    #expect(activated.reason == "read")
    let waiting = try CommandRunner().run(["responses", "--app", "act", "--db", f.path])
    #expect(waiting.status == 0, "\(waiting.stderr)")
    if way == .app {
      // And the running app hears it at once; nothing waits
      #expect(activated.detail["opened"] == .string("running"))
      #expect(running[0].stderr.contains("event: activated ping read"), "\(running[0].stderr)")
      #expect(waiting.stdout.isEmpty, "\(waiting.stdout)")
    } else {
      // And, the app not running and "read" not opening it, the response waits for the app
      // (nothing is launched), which takes it once
      guard case .string(let why)? = activated.detail["notOpened"] else {
        Issue.record("no notOpened in \(activated.detail)")
        return
      }
      #expect(why.contains("waits for the app"), "\(why)")
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(waiting.stdout.utf8)) as? [String: Any],
        "\(waiting.stdout)")
      #expect(object["actionKey"] as? String == "read")
      #expect(object["id"] as? String == "ping")
      #expect(object["userInfo"] as? [String: String] == ["k": "v"])
      let again = try CommandRunner().run(["responses", "--app", "act", "--db", f.path])
      #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stdout)")
    }
  }

  /// When the firer that showed a snoozed notification is killed, and who brings it back.
  enum SnoozeCase: String, CaseIterable, CustomTestStringConvertible {
    case restartedInTime = "daemon killed -9 and restarted within the interval: on time"
    case restartedLate = "daemon killed -9 and restarted after the interval: late"
    case appItself = "the app that showed it brings it back itself"
    case fireDue = "daemon killed -9, fire-due runs after the interval: late"
    var testDescription: String { rawValue }
  }

  @Test("a snooze comes back once with the same content, across a kill -9", arguments: SnoozeCase.allCases)
  func snooze(_ c: SnoozeCase) throws {
    // Given a desktop and a notification with a 3-second snooze, shown by a daemon or an app
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let environment = desktop.environment
    let firer: ChildProcess
    if c == .appItself {
      firer = try ChildProcess.notify(
        ["--app", "snz", "--sink", "desktop"], db: f.path, folder: f.folder, name: "app",
        environment: environment, program: "embedded-app-fixture")
    } else {
      firer = try ChildProcess.notify(
        ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d1", environment: environment)
    }
    #expect(firer.waitReady(), "\(firer.stderr)")
    try f.schedule("nap", at: Date() + 0.3, app: "snz", actions: [.snooze(seconds: 3)])
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 1 }, "\(firer.stderr)")
    // (the delivery is recorded as the call returns; dunst may draw the bubble a moment later)
    #expect(waitUntil(timeout: 10) { (try? desktop.dunstctl("count", "displayed"))?.hasPrefix("1") == true })
    // When the user picks "Snooze 3 s"
    let offered = try desktop.pick("notify.snooze.3]")
    #expect(offered.contains("#Snooze 3 s (title nap)"), "\(offered)")
    // Then history records the snooze, and list shows the copy
    #expect(waitUntil(timeout: 10) { (try? f.events(.snoozed).count) == 1 }, "\(firer.stderr)")
    let snoozed = try #require(try f.events(.snoozed).first)
    let due = try #require(snoozed.fireDate)
    let listed = try CommandRunner().run(["list", "--app", "snz", "--json", "--db", f.path])
    #expect(listed.stdout.contains(#""snoozedOccurrence":1"#), "\(listed.stdout)")
    var last = firer
    // When the new daemon was ready (a loaded machine may take longer than the interval)
    var restartedAt: Date?
    if c != .appItself {
      // When the daemon is killed at once, and a new one started within or after the interval
      firer.send(SIGKILL)
      _ = firer.waitExit()
      if c == .restartedLate || c == .fireDue { #expect(waitUntil(timeout: 10) { Date() > due + 2 }) }
      if c == .fireDue {
        let fired = try CommandRunner(environment: environment).run([
          "fire-due", "--sink", "desktop", "--db", f.path,
        ])
        #expect(fired.status == 0, "\(fired.stderr)")
      } else {
        last = try ChildProcess.notify(
          ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d2", environment: environment)
        #expect(last.waitReady(), "\(last.stderr)")
        restartedAt = Date()
      }
    }
    // Then it comes back: a second delivery of the same notification, with its content
    #expect(waitUntil(timeout: 15) { (try? f.events(.delivered).count) == 2 }, "\(last.stderr)")
    let back = try #require(try f.events(.delivered).last)
    #expect(back.notificationID == "nap")
    #expect(back.detail["title"] == .string("title nap") && back.detail["body"] == .string("private body"))
    #expect(back.detail["userInfo"] == .object(["k": .string("v")]))
    // On time unless the firer came back after the interval (or, restarted within it, was
    // not ready before the copy was due: then it may be either)
    if c == .restartedLate || c == .fireDue {
      #expect(back.late == true, "\(back)")
    } else if (restartedAt ?? .distantPast) < due {
      #expect(back.late == false, "\(back)")
    }
    #expect(back.fireDate == due)
    // And only once: nothing is left pending, due or claimed, and once the firer has stopped
    // (fire-due has exited already) there were two deliveries, not three
    #expect(try f.store.pending(app: "snz").isEmpty)
    #expect(f.waitSettled(), "\(last.stderr)")
    if c != .fireDue {
      last.send(SIGTERM)
      #expect(last.waitExit() == 0)
    }
    #expect(try f.events(.delivered).count == 2)
  }
}

import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// The default action is offered only where a click on the bubble can reach its app
///: xfce4-notifyd shows it as a button, so a "View" that opens nothing
/// is a button that lies. On the scripted server, which records the `actions` of each
/// `Notify`, for every way a notification is shown.
@Suite(.serialized, .ownThreads)
struct DefaultActionOfferTests {
  /// What a click on the notification could reach.
  enum Reach: String, CaseIterable, CustomTestStringConvertible {
    case nowhere = "no desktop entry, nobody of the app online, no action text"
    case desktopEntry = "a desktop entry that launches the app"
    case appOnline = "a process of the app online"
    case actionText = "an action text of its own (a response waits for the app)"
    var testDescription: String { rawValue }
  }

  /// Who shows the notification.
  enum Shower: String, CaseIterable, CustomTestStringConvertible {
    case daemon = "notify daemon"
    case fireDue = "notify fire-due"
    case now = "notify now"
    var testDescription: String { rawValue }
  }

  static let button = NotificationAction.button(key: "read", title: "Mark read")

  /// The actions of the `Notify` calls the server got for `id`'s title.
  func offered(_ desktop: ScriptedDesktop, id: String) throws -> [String] {
    try #require(
      waitUntil(timeout: 10) {
        desktop.calls.contains {
          $0["call"] as? String == "Notify" && $0["summary"] as? String == "title \(id)"
        }
      }, "\(desktop.calls)")
    let calls = desktop.calls.filter {
      $0["call"] as? String == "Notify" && $0["summary"] as? String == "title \(id)"
    }
    try #require(calls.count == 1, "\(calls)")
    return try #require(calls[0]["actions"] as? [String])
  }

  /// Shows notification `id` of `app` (with the button, and `action` as its action text)
  /// by `shower`; returns the daemon when one shows it (stopped by the caller).
  func show(
    _ id: String, app: String, action: String?, by shower: Shower, f: FiringFixture,
    environment: [String: String]
  ) throws -> ChildProcess? {
    switch shower {
    case .daemon:
      let daemon = try ChildProcess.notify(
        ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d", environment: environment)
      #expect(daemon.waitReady(), "\(daemon.stderr)")
      try f.schedule(id, at: Date() + 0.3, app: app, actions: [Self.button], action: action)
      return daemon
    case .fireDue:
      try f.schedule(id, at: Date(), app: app, actions: [Self.button], action: action)
      let fired = try CommandRunner(environment: environment).run([
        "fire-due", "--sink", "desktop", "--db", f.path,
      ])
      #expect(fired.status == 0, "\(fired.stderr)")
      return nil
    case .now:
      let shown = try CommandRunner(environment: environment).run(
        [
          "now", "--app", app, "--id", id, "--title", "title \(id)", "--button", "read:Mark read", "--sink",
          "desktop", "--db", f.path,
        ] + (action.map { ["--action", $0] } ?? []))
      #expect(shown.status == 0, "\(shown.stderr)")
      return nil
    }
  }

  @Test(
    "the default action is offered, labelled with the action text, only where a click reaches the app",
    arguments: Shower.allCases, Reach.allCases)
  func offeredWhereAClickReachesTheApp(shower: Shower, reach: Reach) throws {
    // Given the scripted server, scratch application folders, and app "reach" that `reach`
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(in: f.folder, services: f.folder.file("none"))
    let apps = try ClickToAppTests.Applications(f.folder)
    let environment = desktop.bus.merging(apps.environment) { $1 }
    var running: [ChildProcess] = []
    defer {
      for process in running {
        process.send(SIGTERM)
        _ = process.waitExit()
      }
    }
    switch reach {
    case .nowhere, .actionText:
      break
    case .desktopEntry:
      try apps.entry("reach", "Type=Application\nName=Reach\nExec=\(try apps.launcher(app: "reach"))")
    case .appOnline:
      let app = try ChildProcess.notify(
        ["--app", "reach", "--sink", "desktop", "--no-fire"], db: f.path, folder: f.folder, name: "app",
        environment: environment, program: "embedded-app-fixture")
      #expect(app.waitReady(), "\(app.stderr)")
      running.append(app)
    }
    // When the notification is shown, with a button, and its own action text or none
    let action = reach == .actionText ? "Read later" : nil
    if let daemon = try show("n", app: "reach", action: action, by: shower, f: f, environment: environment) {
      running.append(daemon)
    }
    // Then the default action comes first, labelled with the action text ("View" when it
    // has none, SPEC §1), where a click reaches the app; elsewhere only the button is there
    let actions = try offered(desktop, id: "n")
    switch reach {
    case .nowhere: #expect(actions == ["read", "Mark read"])
    case .desktopEntry, .appOnline: #expect(actions == ["default", "View", "read", "Mark read"])
    case .actionText: #expect(actions == ["default", "Read later", "read", "Mark read"])
    }
  }

  @Test("an app firing its own notifications is online: its default action is offered without an entry")
  func appFiringItsOwn() throws {
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(in: f.folder, services: f.folder.file("none"))
    let apps = try ClickToAppTests.Applications(f.folder)
    let app = try ChildProcess.notify(
      ["--app", "self", "--sink", "desktop"], db: f.path, folder: f.folder, name: "app",
      environment: desktop.bus.merging(apps.environment) { $1 }, program: "embedded-app-fixture")
    #expect(app.waitReady(), "\(app.stderr)")
    defer {
      app.send(SIGTERM)
      _ = app.waitExit()
    }
    try f.schedule("own", at: Date() + 0.3, app: "self", actions: [Self.button])
    #expect(try offered(desktop, id: "own") == ["default", "View", "read", "Mark read"])
  }

  @Test("a click on the default action of an app nothing can open leaves a response waiting for it")
  func clickWaitsForTheApp() throws {
    // Given a daemon showing a notification with its own action text, of an app that has
    // no desktop entry and nobody online
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(in: f.folder, services: f.folder.file("none"))
    let apps = try ClickToAppTests.Applications(f.folder)
    let daemon = try show(
      "later", app: "reach", action: "Read later", by: .daemon, f: f,
      environment: desktop.bus.merging(apps.environment) { $1 })
    defer {
      daemon?.send(SIGTERM)
      _ = daemon?.waitExit()
    }
    #expect(try offered(desktop, id: "later") == ["default", "Read later", "read", "Mark read"])
    let shown = try #require(
      desktop.calls.first { $0["call"] as? String == "Notify" && $0["summary"] as? String == "title later" })
    // When the user clicks it
    try desktop.drive("Click", "\(try #require(shown["id"] as? Int))", "default", "")
    // Then history records the click, which opened nothing, and the response waits
    #expect(waitUntil(timeout: 10) { (try? f.events(.activated).count) == 1 }, "\(daemon?.stderr ?? "")")
    let activated = try #require(try f.events(.activated).first)
    #expect(activated.reason == "default")
    guard case .string(let why)? = activated.detail["notOpened"] else {
      Issue.record("no reason in \(activated.detail)")
      return
    }
    #expect(why.contains("no desktop entry reach.desktop") && why.contains("waits for the app"), "\(why)")
    let waiting = try CommandRunner().run(["responses", "--app", "reach", "--db", f.path])
    #expect(waiting.status == 0, "\(waiting.stderr)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(waiting.stdout.utf8)) as? [String: Any], "\(waiting.stdout)"
    )
    #expect(object["actionKey"] as? String == "default")
    #expect(object["id"] as? String == "later")
    #expect(object["action"] as? String == "Read later")
  }
}

import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// The way back to the app, end to end with dunst under Xvfb on a private session bus: a
/// click launches an app that is not running (it reads its launch response from the store),
/// reaches an app that runs (nothing is launched), an app in the foreground shows its own
/// notification, and `notify dismiss` withdraws a bubble. A bubble taken over from a process
/// that stopped is clicked on the scripted server, which tells every connection of a click
/// (dunst tells only the one that showed the bubble).
@Suite(
  .serialized, .needsHeadlessDesktop, .ownThreads)
struct ClickToAppTests {
  /// A scratch `XDG_DATA_HOME` with desktop entries, and the environment a daemon gets.
  final class Applications {
    let folder: TemporaryFolder
    let dataHome: String
    let launches: String

    init(_ folder: TemporaryFolder) throws {
      self.folder = folder
      dataHome = folder.file("data")
      launches = folder.file("launches")
      for path in [dataHome + "/applications", launches, folder.file("empty")] {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      }
    }

    var environment: [String: String] { ["XDG_DATA_HOME": dataHome, "XDG_DATA_DIRS": folder.file("empty")] }

    /// Writes `NAME.desktop` with `body` after the group line.
    func entry(_ name: String, _ body: String) throws {
      try Data("[Desktop Entry]\n\(body)\n".utf8).write(
        to: URL(fileURLWithPath: "\(dataHome)/applications/\(name).desktop"))
    }

    /// A launcher script for `app`: each run writes its arguments and environment to
    /// `launches/N.args`, then runs the embedded app fixture, which writes the launch
    /// response it read to `launches/N.response` and exits.
    func launcher(app: String) throws -> String {
      let path = folder.file("launch-\(app).sh")
      let script = """
        #!/bin/sh
        n=$(ls "\(launches)" | grep -c args)
        { printf '%s\\n' "$@"; echo "token=$XDG_ACTIVATION_TOKEN"; echo "db=$NOTIFY_DB"; echo "app=$NOTIFY_APP"; } > "\(launches)/$n.args.tmp"
        mv "\(launches)/$n.args.tmp" "\(launches)/$n.args"
        "\(CommandRunner.product("embedded-app-fixture"))" --app \(app) --launch-response "\(launches)/$n.response.tmp" --exit \\
          && mv "\(launches)/$n.response.tmp" "\(launches)/$n.response"
        """
      try Data(script.utf8).write(to: URL(fileURLWithPath: path))
      chmod(path, 0o755)
      return path
    }

    func read(_ name: String) -> String? {
      fileBytes(launches + "/" + name).map { String(decoding: $0, as: UTF8.self) }
    }

    var launchCount: Int {
      ((try? FileManager.default.contentsOfDirectory(atPath: launches)) ?? []).filter {
        $0.hasSuffix(".args")
      }.count
    }
  }

  @Test(
    "a click on a notification of an app that is not running launches it from its Exec entry; it reads the response once"
  )
  func clickLaunchesFromExec() throws {
    // Given a desktop, an Exec entry for app "launchy", and a daemon on the desktop
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let apps = try Applications(f.folder)
    try apps.entry(
      "launchy", "Type=Application\nName=Launchy\nExec=\(try apps.launcher(app: "launchy")) --from-click %u")
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d",
      environment: desktop.environment.merging(apps.environment) { $1 })
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    // When two of its notifications are shown
    try f.schedule("first", at: Date() + 0.5, app: "launchy")
    try f.schedule("second", at: Date() + 0.5, app: "launchy")
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 2 }, "\(daemon.stderr)")
    #expect(waitUntil(timeout: 10) { (try? desktop.dunstctl("count", "displayed"))?.hasPrefix("2") == true })
    // And the user clicks one
    try desktop.dunstctl("action", "0")
    // Then the app is launched and reads the response that launched it, userInfo included
    #expect(waitUntil(timeout: 15) { apps.read("0.response") != nil }, "\(daemon.stderr)")
    let response = try #require(apps.read("0.response"))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(response.utf8)) as? [String: Any])
    #expect(object["actionKey"] as? String == "default")
    #expect(object["app"] as? String == "launchy")
    #expect((object["userInfo"] as? [String: String]) == ["k": "v"])
    let clicked = try #require(object["id"] as? String)
    // And its command line carries the entry's arguments (the field code removed) and the
    // store's path, never the notification
    let arguments = try #require(apps.read("0.args"))
    #expect(arguments.hasPrefix("--from-click\ntoken=\ndb=\(f.path)\n"), "\(arguments)")
    #expect(!arguments.contains("%u") && !arguments.contains(clicked))
    // And history says it was opened by its Exec line (recorded once the launch is under way)
    #expect(waitUntil(timeout: 10) { (try? f.events(.activated).count) == 1 })
    let activated = try #require(try f.events(.activated).first)
    #expect(activated.notificationID == clicked)
    #expect(activated.detail["opened"] == .string("exec"))
    // When the user clicks again (dunst keeps a clicked bubble on screen)
    try desktop.dunstctl("action", "0")
    // Then the app is launched again, with a response of its own
    #expect(waitUntil(timeout: 15) { apps.read("1.response") != nil }, "\(daemon.stderr)")
    #expect(
      apps.read("1.response")?.contains("\"app\":\"launchy\"") == true, "\(apps.read("1.response") ?? "-")")
    #expect(waitUntil(timeout: 10) { (try? f.events(.activated).count) == 2 })
    // And a second read of a response gets nothing (exit 1)
    let again = try notify(["launch-response", "--app", "launchy"], db: f.path)
    #expect(again.status == 1)
    #expect(again.stderr.contains("no launch response waits for app 'launchy'"))
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }

  /// Who shows a bubble and stops before it is clicked.
  enum Leaver: String, CaseIterable, CustomTestStringConvertible {
    case notifyNow = "notify now"
    case fireDue = "fire-due"
    case embeddedApp = "an app going offline"
    var testDescription: String { rawValue }
  }

  @Test(
    "a bubble whose process stopped is taken over by the daemon without showing it again; a click the server tells every connection of still opens the app",
    arguments: Leaver.allCases)
  func takenOverBubbleOpensTheApp(leaver: Leaver) throws {
    // Given the scripted server, which tells every connection of a click (as GNOME Shell
    // does; dunst tells only the connection that showed the bubble), and an Exec entry for
    // app "leaver"
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(in: f.folder, services: f.folder.file("none"))
    let apps = try Applications(f.folder)
    try apps.entry("leaver", "Type=Application\nName=Leaver\nExec=\(try apps.launcher(app: "leaver"))")
    let environment = desktop.bus.merging(apps.environment) { $1 }
    func startDaemon() throws -> ChildProcess {
      // (with an app of its own in NOTIFY_APP, which a launched app must not inherit)
      let daemon = try ChildProcess.notify(
        ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d",
        environment: environment.merging(["NOTIFY_APP": "t"]) { $1 })
      #expect(daemon.waitReady(), "\(daemon.stderr)")
      return daemon
    }
    // (fire-due runs with no daemon, which starts later: a restarted firer takes over too)
    var daemon = leaver == .fireDue ? nil : try startDaemon()
    // When a process shows one of its notifications and stops
    let runner = CommandRunner(environment: environment)
    switch leaver {
    case .notifyNow:
      let shown = try runner.run(
        [
          "now", "--app", "leaver", "--id", "left", "--title", "title left", "--user-info", #"{"k":"v"}"#,
          "--sink", "desktop", "--db", f.path,
        ])
      #expect(shown.status == 0, "\(shown.stderr)")
    case .fireDue:
      try f.schedule("left", at: Date(), app: "leaver")
      let fired = try runner.run(["fire-due", "--sink", "desktop", "--db", f.path])
      #expect(fired.status == 0, "\(fired.stderr)")
    case .embeddedApp:
      let app = try ChildProcess.notify(
        ["--app", "leaver", "--sink", "desktop"], db: f.path, folder: f.folder, name: "app",
        environment: environment, program: "embedded-app-fixture")
      #expect(app.waitReady(), "\(app.stderr)")
      try f.schedule("left", at: Date() + 0.3, app: "leaver")
      #expect(waitUntil(timeout: 10) { app.stderr.contains("event: delivered left") }, "\(app.stderr)")
      app.send(SIGTERM)
      #expect(app.waitExit() == 0)
    }
    func shown() -> [[String: Any]] {
      desktop.calls.filter { $0["call"] as? String == "Notify" && $0["summary"] as? String == "title left" }
    }
    #expect(shown().count == 1, "\(desktop.calls)")
    let running = try daemon ?? startDaemon()
    daemon = running
    // Then the daemon takes the bubble over (as it starts, before it is ready, or on the
    // wake the leaver's commit causes)
    #expect(
      waitUntil(timeout: 10) {
        running.stderr.contains("took over a bubble") && running.stderr.contains("id=left")
      },
      "\(running.stderr)")
    // And sent nothing for it: the server got the one Notify (asked after the take-over,
    // so that every call made before it has been recorded)
    try desktop.drive("Shown")
    #expect(shown().count == 1, "\(desktop.calls)")
    // And when the user clicks it, the app is launched with its response
    try desktop.drive("Click", "\(try #require(shown().first?["id"] as? Int))", "default", "")
    #expect(waitUntil(timeout: 15) { apps.read("0.response") != nil }, "\(running.stderr)")
    #expect(apps.read("0.response")?.contains(#""id":"left""#) == true, "\(apps.read("0.response") ?? "-")")
    // And it runs as the clicked app: NOTIFY_APP is its id, not the daemon's
    #expect(apps.read("0.args")?.contains("app=leaver\n") == true, "\(apps.read("0.args") ?? "-")")
    // (the click is recorded once the launch is under way: the app may read first)
    #expect(waitUntil(timeout: 10) { (try? f.events(.activated).count) == 1 })
    let activated = try #require(try f.events(.activated).first)
    #expect(activated.detail["opened"] == .string("exec"))
    running.send(SIGTERM)
    #expect(running.waitExit() == 0)
  }

  @Test("a click reaches a running app's center whoever showed the bubble, and nothing is launched")
  func clickReachesRunningApp() throws {
    // Given a desktop, an entry that would launch "chatty", a daemon, and chatty running
    // without firing (the daemon shows its notifications)
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let apps = try Applications(f.folder)
    try apps.entry("chatty", "Type=Application\nName=Chatty\nExec=\(try apps.launcher(app: "chatty"))")
    let environment = desktop.environment.merging(apps.environment) { $1 }
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d", environment: environment)
    let app = try ChildProcess.notify(
      ["--app", "chatty", "--sink", "desktop", "--no-fire"], db: f.path, folder: f.folder, name: "app",
      environment: environment, program: "embedded-app-fixture")
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    #expect(app.waitReady(), "\(app.stderr)")
    // When the daemon shows one of chatty's notifications
    try f.schedule("hello", at: Date() + 0.5, app: "chatty")
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 1 }, "\(daemon.stderr)")
    // Then the running app hears of the delivery
    #expect(waitUntil(timeout: 10) { app.stderr.contains("event: delivered hello") }, "\(app.stderr)")
    // When the user clicks it
    try desktop.dunstctl("action", "0")
    // Then the app gets the activation, once
    #expect(
      waitUntil(timeout: 10) { app.stderr.contains("event: activated hello default") }, "\(app.stderr)")
    let activated = try #require(try f.events(.activated).first)
    #expect(activated.detail["opened"] == .string("running"))
    #expect(app.stderr.components(separatedBy: "event: activated hello").count == 2)
    // And nothing was launched
    #expect(apps.launchCount == 0)
    app.send(SIGTERM)
    #expect(app.waitExit() == 0)
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }

  @Test(
    "an app in the foreground that shows its notifications itself: the desktop shows nothing, the app's event has it"
  )
  func foregroundNone() throws {
    // Given a desktop, a daemon, and an app firing its own with presentation "none"
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d",
      environment: desktop.environment)
    let app = try ChildProcess.notify(
      ["--app", "quiet", "--sink", "desktop", "--presentation", "none"], db: f.path, folder: f.folder,
      name: "app",
      environment: desktop.environment, program: "embedded-app-fixture")
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    #expect(app.waitReady(), "\(app.stderr)")
    // When one of its notifications comes due
    try f.schedule("inside", at: Date() + 0.5, app: "quiet")
    // Then the app gets it, once, and history records it delivered in-app
    #expect(waitUntil(timeout: 10) { app.stderr.contains("event: delivered inside") }, "\(app.stderr)")
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 1 })
    #expect(try f.events(.delivered).first?.reason == "in-app")
    // And dunst shows nothing (a notification of another app shows, so dunst is working)
    try f.schedule("outside", at: Date() + 0.2, app: "loud")
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 2 }, "\(daemon.stderr)")
    #expect(waitUntil(timeout: 10) { (try? desktop.dunstctl("count", "displayed"))?.hasPrefix("1") == true })
    #expect(try desktop.dunstctl("history").contains("title inside") == false)
    app.send(SIGTERM)
    #expect(app.waitExit() == 0)
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }

  @Test("notify dismiss takes a delivered bubble off the screen and history says so; an unknown id exits 1")
  func dismiss() throws {
    // Given a daemon that showed a notification
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d",
      environment: desktop.environment)
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    try f.schedule("shown", at: Date() + 0.3)
    #expect(waitUntil(timeout: 10) { (try? desktop.dunstctl("count", "displayed"))?.hasPrefix("1") == true })
    // When the app withdraws it from another process
    let runner = CommandRunner(environment: desktop.environment.merging(["NOTIFY_APP": "test"]) { $1 })
    let dismissed = try runner.run(["dismiss", "shown", "--db", f.path])
    // Then it is gone from the screen and recorded as dismissed by the app, once
    #expect(dismissed.status == 0, "\(dismissed.stderr)")
    #expect(waitUntil(timeout: 10) { (try? desktop.dunstctl("count", "displayed"))?.hasPrefix("0") == true })
    #expect(waitUntil(timeout: 5) { (try? f.events(.dismissed).map(\.reason)) == ["dismissed-by-app"] })
    // And an id that is not on screen exits 1 and says so
    let unknown = try runner.run(["dismiss", "shown", "nope", "--db", f.path])
    #expect(unknown.status == 1)
    #expect(unknown.stderr.contains("not dismissed: 'nope' of app 'test' is not on screen"))
    #expect(try f.events(.dismissed).count == 1)
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }

  @Test("bad desktop entries open nothing, history says why, and the daemon keeps firing")
  func badEntries() throws {
    // Given a desktop, a daemon, and apps whose entries are each wrong in one way
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let apps = try Applications(f.folder)
    let launcher = try apps.launcher(app: "never")
    try apps.entry("no-exec", "Type=Application\nName=No Exec")
    try apps.entry("nowhere", "Type=Application\nName=Nowhere\nExec=/nonexistent/program --x")
    try apps.entry("bad-code", "Type=Application\nName=Bad\nExec=\(launcher) %z")
    let outside = f.folder.file("outside.desktop")
    try Data("[Desktop Entry]\nType=Application\nName=Out\nExec=\(launcher)\n".utf8).write(
      to: URL(fileURLWithPath: outside))
    symlink(outside, apps.dataHome + "/applications/linked.desktop")
    try f.store.setDesktopEntry("../escape", app: "escaper")
    let cases: [(app: String, reason: String)] = [
      ("missing", "no desktop entry missing.desktop"),
      ("no-exec", "Exec"),
      ("nowhere", "is not an executable file"),
      ("bad-code", "%z"),
      ("linked", "leads outside"),
      ("escaper", "is not a desktop file id"),
    ]
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d",
      environment: desktop.environment.merging(apps.environment) { $1 })
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    for (position, bad) in cases.enumerated() {
      // When a notification of the app is shown and clicked (it has an action text of its
      // own: without one a bubble of an app nothing opens offers no default action)
      try f.schedule("n\(position)", at: Date() + 0.2, app: bad.app, action: "Open")
      #expect(
        waitUntil(timeout: 10) { (try? desktop.dunstctl("count", "displayed"))?.hasPrefix("1") == true })
      try desktop.dunstctl("action", "0")
      // Then history says why nothing was opened
      #expect(
        waitUntil(timeout: 10) { (try? f.events(.activated).count) == position + 1 }, "\(daemon.stderr)")
      let activated = try #require(try f.events(.activated).last)
      guard case .string(let why)? = activated.detail["notOpened"] else {
        Issue.record("\(bad.app): no reason in \(activated.detail)")
        continue
      }
      #expect(
        why.contains(bad.reason) && why.contains("the response waits for the app"), "\(bad.app): \(why)")
      _ = try? desktop.dunstctl("close-all")
      #expect(
        waitUntil(timeout: 10) { (try? desktop.dunstctl("count", "displayed"))?.hasPrefix("0") == true })
    }
    // And nothing ran, and the daemon still fires
    #expect(apps.launchCount == 0)
    try f.schedule("still", at: Date() + 0.2)
    #expect(
      waitUntil(timeout: 10) { (try? f.events(.delivered).map(\.notificationID))?.contains("still") == true })
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }
}

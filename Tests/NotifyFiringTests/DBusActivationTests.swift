import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// A click on a notification of a `DBusActivatable` app that is not running: the daemon
/// calls `org.freedesktop.Application.ActivateAction` on the app's bus name, D-Bus
/// activation starts the app, and the app reads its launch response with `notify
/// launch-response`. On a private session bus with a service directory and a scripted
/// notification server (dunst sends no `ActivationToken`): `Tests/Fixtures`.
@Suite(
  .serialized, .enabled(if: ActivationTools.missing == nil, "needs dbus, gdbus and python3-gi"), .ownThreads)
struct DBusActivationTests {
  static let fixtures = ScriptedDesktop.fixtures

  @Test("ActivateAction on the app's bus name starts it by D-Bus activation, with the response and the token")
  func activatesByDBus() throws {
    // Given a private bus whose service folder can start org.example.Notified, its
    // DBusActivatable desktop entry, a scripted notification server and a daemon
    let f = try FiringFixture()
    let app = "org.example.Notified"
    let services = f.folder.file("services")
    let data = f.folder.file("data")
    try FileManager.default.createDirectory(atPath: data + "/applications", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
    let record = f.folder.file("app.record")
    try Data(
      """
      [D-BUS Service]
      Name=\(app)
      Exec=/usr/bin/python3 \(Self.fixtures)/activatable-app.py --name \(app) --record \(record) --notify \(CommandRunner.product("notify")) --db \(f.path) --app \(app)

      """.utf8
    ).write(to: URL(fileURLWithPath: services + "/\(app).service"))
    try Data("[Desktop Entry]\nType=Application\nName=Notified\nDBusActivatable=true\nExec=/bin/false\n".utf8)
      .write(to: URL(fileURLWithPath: data + "/applications/\(app).desktop"))
    let desktop = try ScriptedDesktop(in: f.folder, services: services)
    let bus = desktop.bus
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d",
      environment: bus.merging(["XDG_DATA_HOME": data, "XDG_DATA_DIRS": f.folder.file("none")]) { $1 })
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    // When a notification of the app is shown
    try f.schedule("ping", at: Date() + 0.3, app: app)
    #expect(
      waitUntil(timeout: 10) { desktop.calls.contains { $0["call"] as? String == "Notify" } },
      "\(daemon.stderr)")
    let shown = try #require(desktop.calls.first { $0["call"] as? String == "Notify" }?["id"] as? Int)
    // And the user clicks it (the server sends an activation token first)
    let click = try CommandRunner(executable: "/usr/bin/gdbus", environment: bus).run([
      "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
      "/org/freedesktop/Notifications", "--method", "org.notify.Test.Click", "\(shown)", "default", "tok-123",
    ])
    try #require(click.status == 0, "\(click.stderr)")
    // Then D-Bus activation starts the app, and ActivateAction carries the action, the
    // notification id and the token
    #expect(
      waitUntil(timeout: 15) { ScriptedDesktop.lines(record).contains { $0["launchResponse"] != nil } },
      "\(daemon.stderr)"
    )
    let records = ScriptedDesktop.lines(record)
    #expect(records.first?["activated"] as? Bool == true)
    let call = try #require(records.first { $0["method"] as? String == "ActivateAction" })
    #expect(call["action"] as? String == "default")
    #expect(call["parameter"] as? [String] == ["ping"])
    let platform = try #require(call["platformData"] as? [String: String])
    #expect(platform["activation-token"] == "tok-123")
    #expect(platform["desktop-startup-id"] == "tok-123")
    // And the app read its response from the store: the notification, its userInfo, the token
    let read = try #require(records.first { $0["launchResponse"] != nil })
    let response = try #require(read["launchResponse"] as? [String: Any], "\(read)")
    #expect(response["id"] as? String == "ping")
    #expect(response["userInfo"] as? [String: String] == ["k": "v"])
    #expect(response["activationToken"] as? String == "tok-123")
    #expect(waitUntil(timeout: 10) { (try? f.events(.activated).count) == 1 })
    let activated = try #require(try f.events(.activated).first)
    #expect(activated.detail["opened"] == .string("dbus"))
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }
}

/// What the D-Bus activation test needs beyond the headless desktop.
enum ActivationTools {
  static let missing: String? = {
    for tool in ["/usr/bin/dbus-daemon", "/usr/bin/gdbus", "/usr/bin/python3"]
    where !FileManager.default.isExecutableFile(atPath: tool) {
      print(
        "DBusActivationTests: skipping: \(tool) is missing (apt-get install dbus libglib2.0-bin python3-gi)")
      return tool
    }
    return nil
  }()
}

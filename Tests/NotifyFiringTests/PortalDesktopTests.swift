import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// The portal path end to end (docs/sandboxes.md): xdg-desktop-portal 1.16 and
/// xdg-desktop-portal-gtk on a headless desktop with dunst, and the embedded app inside
/// `bwrap` with a `/.flatpak-info` naming org.example.Probe. Its `--sink auto` picks the
/// portal; what falls due reaches dunst as a `Notify` with `desktop-entry`, and a button
/// picked in dunst's menu comes back to the app as `ActionInvoked`. The sandbox reaches the
/// bus directly (Flatpak's `--socket=session-bus`): through xdg-dbus-proxy 0.1.4 an sd-bus
/// client is cut off ("Invalid message header read"; docs/decisions/0061).
@Suite(
  .serialized, .ownThreads,
  .needsHeadlessDesktop,
  .enabled(
    if: ["/usr/libexec/xdg-desktop-portal", "/usr/libexec/xdg-desktop-portal-gtk", "/usr/bin/bwrap"]
      .allSatisfy {
        CommandRunner.isRegularExecutable($0)
      }, "needs xdg-desktop-portal, xdg-desktop-portal-gtk and bubblewrap"))
struct PortalDesktopTests {
  static let base = [
    "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
    "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin", "--ro-bind", "/etc", "/etc",
    "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--unshare-pid", "--die-with-parent",
  ]

  @Test func aDueNotificationReachesDunstAndItsButtonComesBack() throws {
    // Given a desktop with the portal (gtk backend, chosen by XDG_CURRENT_DESKTOP=GNOME)
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    var children: [ChildProcess] = []
    defer {
      for child in children.reversed() { child.terminate(timeout: 60) }
    }
    let portalEnvironment = desktop.environment.merging(["XDG_CURRENT_DESKTOP": "GNOME"]) { $1 }
    for (name, path) in [
      ("portal", "/usr/libexec/xdg-desktop-portal"), ("gtk", "/usr/libexec/xdg-desktop-portal-gtk"),
    ] {
      children.append(
        try ChildProcess(
          path, ["-v", "-r"], environment: portalEnvironment, stdout: .file(f.folder.file("\(name).log")),
          stderr: .file(f.folder.file("\(name).log"))))
    }
    let version = {
      try? CommandRunner(executable: "/usr/bin/gdbus", environment: desktop.environment).run([
        "call", "--session", "--dest", "org.freedesktop.portal.Desktop", "--object-path",
        "/org/freedesktop/portal/desktop", "--method", "org.freedesktop.DBus.Properties.Get",
        "org.freedesktop.portal.Notification", "version",
      ]).stdout
    }
    try #require(
      waitUntil(timeout: 60) { version()?.contains("uint32") == true }, "the portal did not come up")
    // (and its gtk backend, which the portal calls by name and does not start: on a loaded
    // machine it can come up after the portal)
    let backendUp = {
      (try? CommandRunner(executable: "/usr/bin/gdbus", environment: desktop.environment).run([
        "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
        "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.impl.portal.desktop.gtk",
      ]).stdout)?.contains("true") == true
    }
    try #require(waitUntil(timeout: 60, backendUp), "the portal's gtk backend did not come up")
    let monitor = try BusMonitor(
      ["type='method_call',interface='org.freedesktop.Notifications',member='Notify'"],
      environment: desktop.environment, folder: f.folder)
    // And the app org.example.Probe in a sandbox, with a desktop entry, and a notification due
    let info = f.folder.file("flatpak-info")
    try "[Application]\nname=org.example.Probe\n\n[Instance]\ninstance-id=1\n".write(
      toFile: info, atomically: true, encoding: .utf8)
    let data = f.folder.file("data")
    try FileManager.default.createDirectory(atPath: data + "/applications", withIntermediateDirectories: true)
    try "[Desktop Entry]\nType=Application\nName=Probe\nExec=/bin/true\nIcon=dialog-information\n".write(
      toFile: data + "/applications/org.example.Probe.desktop", atomically: true, encoding: .utf8)
    try f.schedule(
      "ping", at: Date() + 1, app: "org.example.Probe", actions: [.button(key: "yes", title: "Yes")])
    let products = URL(fileURLWithPath: CommandRunner.product("notify")).deletingLastPathComponent()
      .resolvingSymlinksInPath().path
    let address = try #require(desktop.environment["DBUS_SESSION_BUS_ADDRESS"])
    let socket = String(address.dropFirst("unix:path=".count))
    let errors = f.folder.file("app.err")
    // When it runs with --sink auto
    children.append(
      try ChildProcess(
        "/usr/bin/bwrap",
        Self.base + [
          "--ro-bind", info, "/.flatpak-info", "--bind", socket, "/run/bus", "--ro-bind", "/opt", "/opt",
          "--ro-bind", products, products, "--bind", f.folder.path, f.folder.path, "--ro-bind", data,
          "/run/data",
          "--setenv", "XDG_DATA_HOME", "/run/data", "--setenv", "DBUS_SESSION_BUS_ADDRESS",
          "unix:path=/run/bus",
          "--", products + "/embedded-app-fixture", "--db", f.path, "--app", "org.example.Probe", "--sink",
          "auto",
        ], stdout: .file(f.folder.file("app.out")), stderr: .file(errors))
    )
    // Then the portal hands it to dunst as a Notify with the app's desktop-entry
    #expect(
      waitUntil(timeout: 30) { (try? desktop.dunstctl("count", "displayed"))?.hasPrefix("1") == true },
      "app: \(text(errors)) portal: \(text(f.folder.file("portal.log")))")
    #expect(waitUntil(timeout: 10) { monitor.seen.contains("org.example.Probe") }, "\(monitor.seen)")
    #expect(monitor.seen.contains("\"desktop-entry\""), "\(monitor.seen)")
    #expect(try f.events(.delivered).map(\.notificationID) == ["ping"])
    // When the user picks "Yes" in dunst's menu
    let offered = try desktop.pick(",yes]")
    #expect(offered.contains("#Yes (title ping)"), "\(offered)")
    // Then it comes back to the app as its button, recorded as heard by the running app
    #expect(waitUntil(timeout: 20) { text(errors).contains("event: activated ping yes") }, "\(text(errors))")
    let activated = try #require(try f.events(.activated).first)
    #expect(activated.reason == "yes")
    #expect(activated.detail["opened"] == .string("running"))
  }
}

/// A file's text, empty when it cannot be read.
private func text(_ path: String) -> String {
  fileBytes(path).map { String(decoding: $0, as: UTF8.self) } ?? ""
}

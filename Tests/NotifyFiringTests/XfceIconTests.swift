import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// A bubble carries its app's icon and desktop entry, against a server nobody
/// here wrote: xfce4-notifyd on Xvfb. What it recorded is what it got: its notification
/// log has the `app_icon` of each bubble, its list of known applications the
/// `desktop-entry` hint, and a screenshot shows the icon file it read.
@Suite(
  .serialized, .needsHeadlessDesktop,
  .enabled(if: XfceNotifyd.missing == nil, "needs xfce4-notifyd, xfconf and imagemagick"), .ownThreads)
struct XfceIconTests {
  /// The icon file's colour, found nowhere else on the screen.
  static let green = "#12AB34"

  @Test(
    "xfce4-notifyd gets the entry's Icon= as app_icon (a name, a file:// URI it shows) and the desktop-entry hint",
    arguments: [DefaultActionOfferTests.Shower.now, .fireDue])
  func iconOnXfce(shower: DefaultActionOfferTests.Shower) throws {
    // Given xfce4-notifyd on a display, and two apps: "themed", whose entry (configured as
    // org.example.Themed) names a themed icon, and "pathed", whose entry names a green PNG
    // by its absolute path (in a folder whose name has a space)
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let server = try XfceNotifyd(folder: f.folder, display: try #require(desktop.environment["DISPLAY"]))
    let apps = try ClickToAppTests.Applications(f.folder)
    let real = try #require(realpath(f.folder.path, nil))
    let folder = String(cString: real)
    free(real)
    try FileManager.default.createDirectory(atPath: folder + "/my icons", withIntermediateDirectories: true)
    let icon = folder + "/my icons/green.png"
    let made = try CommandRunner(executable: XfceNotifyd.convert).run([
      "-size", "64x64", "xc:\(Self.green)", icon,
    ])
    try #require(made.status == 0, "\(made.stderr)")
    try apps.entry("org.example.Themed", "Type=Application\nName=Themed\nIcon=mail-unread\nExec=/bin/true")
    try f.store.setDesktopEntry("org.example.Themed", app: "themed")
    try apps.entry("pathed", "Type=Application\nName=Pathed\nIcon=\(icon)\nExec=/bin/true")
    let environment = server.bus.merging(apps.environment) { $1 }
    // (nothing green on the screen yet)
    #expect(try server.pixels(of: Self.green, screenshot: "before.png") == 0)
    // When a notification of each is shown
    let offer = DefaultActionOfferTests()
    for (id, app) in [("t", "themed"), ("p", "pathed")] {
      _ = try offer.show(id, app: app, action: nil, by: shower, f: f, environment: environment)
    }
    // Then its log has each with the entry's icon: the name as it is, the path as a file:// URI
    #expect(
      waitUntil(timeout: 15) {
        server.logged(summary: "title t") != nil && server.logged(summary: "title p") != nil
      },
      "\(server.log)")
    #expect(server.logged(summary: "title t")?["app_icon"] == "mail-unread", "\(server.log)")
    #expect(
      server.logged(summary: "title p")?["app_icon"] == "file://\(folder)/my%20icons/green.png",
      "\(server.log)")
    // And it knows the apps by their desktop-entry hint: the configured entry, else the app id
    #expect(
      waitUntil(timeout: 10) {
        Set(server.knownApplications).isSuperset(of: ["org.example.Themed", "pathed"])
      },
      "\(server.knownApplications)")
    #expect(!server.knownApplications.contains("themed"), "\(server.knownApplications)")
    // And the bubble shows the file: its green, at least 32 by 32 pixels of it (48 by 48,
    // xfce4-notifyd's default icon size). The server cannot have found the entry itself (its
    // XDG_DATA_HOME is not the apps' folder): the picture came by app_icon.
    var green = 0
    #expect(
      waitUntil(timeout: 15, interval: 0.2) {
        green = (try? server.pixels(of: Self.green, screenshot: "shown.png")) ?? 0
        return green >= 32 * 32
      }, "\(green) green pixels")
  }
}

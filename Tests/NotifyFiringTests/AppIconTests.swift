import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// A bubble carries its app's icon and desktop entry: the entry's `Icon=` as
/// `app_icon`, the entry's id as the `desktop-entry` hint, whoever shows it. On the scripted
/// server, which records each `Notify`.
@Suite(.serialized, .ownThreads)
struct AppIconTests {
  @Test(
    "the desktop entry's Icon= is the app_icon, for every way a notification is shown",
    arguments: DefaultActionOfferTests.Shower.allCases)
  func iconFromTheEntry(shower: DefaultActionOfferTests.Shower) throws {
    // Given an app whose desktop entry names a themed icon, and an app with none
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(in: f.folder, services: f.folder.file("none"))
    let apps = try ClickToAppTests.Applications(f.folder)
    try apps.entry(
      "pretty", "Type=Application\nName=Pretty\nIcon=mail-unread\nExec=\(try apps.launcher(app: "pretty"))")
    let environment = desktop.bus.merging(apps.environment) { $1 }
    var running: [ChildProcess] = []
    defer {
      for process in running {
        process.send(SIGTERM)
        _ = process.waitExit()
      }
    }
    // When a notification of each is shown
    let offer = DefaultActionOfferTests()
    for (id, app) in [("p", "pretty"), ("b", "bare")] {
      if let daemon = try offer.show(id, app: app, action: nil, by: shower, f: f, environment: environment) {
        running.append(daemon)
      }
      // Then the bubble of the app with an icon has it; the other has none
      #expect(waitUntil(timeout: 10) { Self.call(desktop, id: id) != nil }, "\(desktop.calls)")
      let call = try #require(Self.call(desktop, id: id))
      #expect(call["app_icon"] as? String == (app == "pretty" ? "mail-unread" : ""), "\(call)")
      #expect((call["hints"] as? [String: Any])?["desktop-entry"] as? String == app)
      for process in running {
        process.send(SIGTERM)
        _ = process.waitExit()
      }
      running = []
    }
  }

  static func call(_ desktop: ScriptedDesktop, id: String) -> [String: Any]? {
    desktop.calls.first { $0["call"] as? String == "Notify" && $0["summary"] as? String == "title \(id)" }
  }
}

import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// An action marked `open` picked for an app that nothing can open (no desktop entry, not
/// running) is not lost: its response waits in the store, and history says so.
@Suite(
  .serialized, .needsHeadlessDesktop, .ownThreads)
struct OpenActionWithoutEntryTests {
  @Test(
    "'Open' picked, no desktop entry: history says why and that the response waits; the app takes it once")
  func openWithoutEntryWaits() throws {
    // Given a daemon whose desktop-entry folders are empty, and a notification with an
    // `open` button for app "noentry"
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let empty = f.folder.file("no-applications")
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    let environment = desktop.environment.merging(["XDG_DATA_HOME": empty, "XDG_DATA_DIRS": empty]) { $1 }
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d", environment: environment)
    defer {
      daemon.send(SIGTERM)
      _ = daemon.waitExit()
    }
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    try f.schedule(
      "ping", at: Date() + 0.3, app: "noentry",
      actions: [.button(key: "open-chat", title: "Open chat", opensApp: true)])
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 1 }, "\(daemon.stderr)")
    #expect(waitUntil(timeout: 10) { (try? desktop.dunstctl("count", "displayed"))?.hasPrefix("1") == true })
    // When the user picks "Open chat"
    _ = try desktop.pick(",open-chat]")
    // Then history says nothing could be opened, and that the response waits
    #expect(waitUntil(timeout: 10) { (try? f.events(.activated).count) == 1 }, "\(daemon.stderr)")
    let activated = try #require(try f.events(.activated).first)
    guard case .string(let why)? = activated.detail["notOpened"] else {
      Issue.record("no notOpened in \(activated.detail)")
      return
    }
    #expect(why.contains("no desktop entry noentry.desktop"), "\(why)")
    #expect(why.contains("the response waits for the app (notify responses)"), "\(why)")
    // And the app, started by hand later, takes it once
    let waiting = try CommandRunner().run(["responses", "--app", "noentry", "--db", f.path])
    #expect(waiting.status == 0, "\(waiting.stderr)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(waiting.stdout.utf8)) as? [String: Any], "\(waiting.stdout)"
    )
    #expect(object["actionKey"] as? String == "open-chat")
    let again = try CommandRunner().run(["responses", "--app", "noentry", "--db", f.path])
    #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stdout)")
  }
}

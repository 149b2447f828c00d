import Foundation
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// Attachments end to end: a copy kept at `schedule --attach` (0600 in a 0700
/// folder) stays while its notification is on screen, through `fire-due` runs, and goes once
/// history retention dropped the delivery that showed it, at the next sweep.
@Suite(
  .serialized,
  .enabled(if: ActivationTools.missing == nil, "needs dbus, gdbus and python3-gi"),
  .enabled(
    if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "needs sqlite3 to age history"),
  .ownThreads)
struct AttachmentRetentionTests {
  @Test("a kept copy lives until retention drops its delivery, and no other user can read it")
  func removedByRetention() throws {
    // Given the scripted server, and an image scheduled with --attach
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(in: f.folder, services: f.folder.file("none"))
    let image = f.folder.file("cat.png")
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 64)
    FileManager.default.createFile(atPath: image, contents: Data(png))
    let scheduled = try notify(
      [
        "schedule", "--app", "test", "--id", "cat", "--in", "1s", "--title", "cat", "--attach", image, "look",
      ],
      db: f.path)
    #expect(scheduled.status == 0, "\(scheduled.stderr)")
    let copy = try #require(try f.store.pending(app: "test").first?.notification.attachments.first?.file)
    // Then the copy is in <store>.attachments/test/, 0600 in 0700 folders
    let folder = f.path + ".attachments"
    #expect(copy.hasPrefix(folder + "/test/"), "\(copy)")
    #expect(Self.mode(copy) == 0o600)
    #expect(Self.mode(folder + "/test") == 0o700 && Self.mode(folder) == 0o700)
    #expect(fileBytes(copy).map(Array.init) == png)
    // And another user cannot read it (as root: the run as nobody is refused)
    if getuid() == 0 {
      let nobody = try CommandRunner(executable: "/usr/bin/setpriv").run([
        "--reuid=65534", "--regid=65534", "--clear-groups", "/bin/cat", copy,
      ])
      #expect(nobody.status != 0 && nobody.stderr.contains("Permission denied"), "\(nobody.stderr)")
    }
    // When fire-due shows it on the desktop, and runs again with nothing due
    #expect(
      waitUntil(timeout: 20, interval: 0.3) {
        _ = try? notify(["fire-due", "--sink", "desktop"], db: f.path, environment: desktop.bus)
        return f.ids(.delivered) == ["cat"]
      })
    let shown = desktop.calls.first { $0["call"] as? String == "Notify" }
    #expect(
      (shown?["hints"] as? [String: Any])?["image-path"] as? String == FileURI.string(copy), "\(shown ?? [:])"
    )
    // (A while later: the bubbles fire-due left as it ended are past their take-over window,
    // nobody's to take over, so what keeps the copy now is the delivery in history and the
    // bubble's id.)
    let left = try CommandRunner(executable: "/usr/bin/sqlite3").run([
      "-cmd", ".timeout 20000", f.path, "UPDATE left_bubble SET at = at - 60000;",
    ])
    #expect(left.status == 0, "\(left.stderr)")
    let again = try notify(["fire-due", "--sink", "desktop"], db: f.path, environment: desktop.bus)
    #expect(again.status == 0, "\(again.stderr)")
    // Then the copy is kept: the bubble is on screen and its delivery in history
    #expect(try f.store.onScreen(app: "test").map(\.notificationID) == ["cat"])
    #expect(FileManager.default.fileExists(atPath: copy))
    // When its history is two days old and the user keeps one day
    let aged = try CommandRunner(executable: "/usr/bin/sqlite3").run([
      "-cmd", ".timeout 20000", f.path,
      "UPDATE event SET at = at - 2 * 86400000 WHERE notification_id = 'cat';",
    ])
    #expect(aged.status == 0, "\(aged.stderr)")
    let kept = try notify(["history", "--keep-days", "1"], db: f.path)
    #expect(kept.status == 0, "\(kept.stderr)")
    #expect(f.ids(.delivered).isEmpty)
    // Then the next sweep (the end of a fire-due run) removes the copy
    let swept = try notify(["fire-due", "--sink", "desktop"], db: f.path, environment: desktop.bus)
    #expect(swept.status == 0, "\(swept.stderr)")
    #expect(!FileManager.default.fileExists(atPath: copy))
    // And the app's folder, left empty, with it
    #expect(Self.mode(folder + "/test") == nil && Self.mode(folder) == 0o700)
  }

  /// The permission bits of `path` (nil when it cannot be read).
  static func mode(_ path: String) -> mode_t? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return status.st_mode & 0o777
  }
}

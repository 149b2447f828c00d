import Foundation
import NotifyDesktop
import NotifyTestSupport
import Testing

/// The unit name of an app a click starts (`app-notify-<id>-<random>.service`), its id
/// escaped as systemd escapes it: checked against `systemd-escape` on seeded random ids.
@Suite("a launched app's unit name")
struct TransientAppTests {
  @Test(
    "desktop file ids escaped as systemd-escape does, 300 seeded random ids",
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-escape"), "needs systemd-escape"))
  func escapedLikeSystemd() throws {
    var random = SeededGenerator(seed: 0x5EED_2029)
    let alphabet = Array("abcXYZ019._-:")
    let ids = (0..<300).map { _ in
      String(
        (0..<Int.random(in: 1...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
    }
    let escaped = try CommandRunner(executable: "/usr/bin/systemd-escape").run(["--"] + ids)
    try #require(escaped.status == 0, "\(escaped.stderr)")
    let expected = escaped.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
    try #require(expected.count == ids.count)
    for (id, systemd) in zip(ids, expected) {
      #expect(
        TransientApp.unitName(appID: id, random: 0xAB) == "app-notify-\(systemd)-000000ab.service", "\(id)")
    }
  }
}

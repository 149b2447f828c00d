import Foundation
import NotifyTestSupport
import Testing

/// `notify status` names the installations it finds (install.sh's manifest in ~/.local; the
/// Debian package's is checked with the real package by .ci/deb-check) and reads the user
/// units as systemd would: a unit the user masked is not enabled.
@Suite("notify status: installations and units", .ownThreads)
struct InstallationStatusTests {
  let folder = TemporaryFolder()

  /// `notify status --json` with HOME in the temporary folder; the parsed object.
  func status(home: String) throws -> [String: Any] {
    let result = try CommandRunner(environment: [
      "HOME": home, "NOTIFY_DB": folder.file("state/notify.db"), "XDG_CONFIG_HOME": "", "XDG_DATA_HOME": "",
    ]).run(["status", "--json"])
    return try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
      "\(result.stdout)\(result.stderr)")
  }

  @Test("install.sh's copy in ~/.local is named with how to remove it; a masked unit is not enabled")
  func installScriptCopy() throws {
    // Given install.sh's files in a HOME: the binary, its manifest, a unit the user enabled,
    // then masked (systemctl --user mask leaves the enabling link)
    let home = folder.file("home")
    let local = home + "/.local"
    try FileManager.default.createDirectory(atPath: local + "/bin", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: local + "/share/notify", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: home + "/.config/systemd/user/default.target.wants", withIntermediateDirectories: true)
    #expect(
      FileManager.default.createFile(
        atPath: local + "/bin/notify", contents: Data("#!/bin/sh\n".utf8),
        attributes: [.posixPermissions: 0o755]))
    try FileManager.default.createDirectory(
      atPath: local + "/share/systemd/user", withIntermediateDirectories: true)
    try "[Service]\nExecStart=\(local)/bin/notify daemon\n".write(
      toFile: local + "/share/systemd/user/notify.service", atomically: true, encoding: .utf8)
    try "\(local)/bin/notify\n\(local)/share/man/man1/notify.1\n".write(
      toFile: local + "/share/notify/installed-files", atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: home + "/.config/systemd/user/notify.service", withDestinationPath: "/dev/null")
    try FileManager.default.createSymbolicLink(
      atPath: home + "/.config/systemd/user/default.target.wants/notify.service",
      withDestinationPath: local + "/share/systemd/user/notify.service")
    // When status looks
    let object = try status(home: home)
    // Then it lists install.sh's copy and how to remove it, and the unit as masked, not enabled
    let installations = try #require(object["installations"] as? [[String: String]])
    #expect(
      installations.contains([
        "kind": "install.sh", "binary": local + "/bin/notify",
        "removal":
          "bash scripts/install.sh uninstall in notify's checkout (it removes what \(local)/share/notify/installed-files lists)",
      ]), "\(installations)")
    let units = try #require(object["units"] as? [String: [String: Any]])
    #expect(units["notify.service"]?["enabled"] as? Bool == false)
    // And without the manifest the binary is nobody's installation
    try FileManager.default.removeItem(atPath: local + "/share/notify/installed-files")
    let after = try #require(try status(home: home)["installations"] as? [[String: String]])
    #expect(!after.contains { $0["kind"] == "install.sh" })
  }
}

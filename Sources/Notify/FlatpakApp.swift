import Foundation
import NotifyCore

/// The Flatpak app this process runs as, when it runs inside a Flatpak sandbox: Flatpak
/// binds the instance's key file at `/.flatpak-info`, and its `[Application] name` is the
/// app id the portal and notify's D-Bus service act for (docs/sandboxes.md).
///
/// `NOTIFY_FLATPAK_INFO` names another file instead (an empty value: none), so that tests
/// run the sandboxed paths without a sandbox; Flatpak never sets it.
package struct FlatpakApp: Hashable, Sendable {
  /// The app id (`org.example.Chat`).
  package var id: String

  /// Where Flatpak puts the instance's key file.
  package static let infoPath = FlatpakInfo.path
  /// The variable that names another file for tests.
  package static let infoPathVariable = "NOTIFY_FLATPAK_INFO"

  /// The Flatpak app this process is, or nil outside a sandbox (no file) and for a file
  /// that names no usable app id (unreadable, not a key file, no name, not an id notify can
  /// store): such a process is treated as unsandboxed, the portal not used.
  package static func current(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> FlatpakApp?
  {
    let path = environment[infoPathVariable] ?? infoPath
    guard !path.isEmpty, let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: FlatpakInfo.maximumBytes + 1),
      let info = try? FlatpakInfo(parsing: Array(data)), let name = info.appName,
      (try? Validator.app(name)) != nil
    else { return nil }
    return FlatpakApp(id: name)
  }
}

import Foundation
import Glibc
import NotifyTestSupport

/// A small tmpfs mounted for one test (full-disk and read-only faults). Needs root (or
/// CAP_SYS_ADMIN): tests that use one are enabled only where `isAllowed`, and skipped saying
/// so elsewhere; `make` returns nil with the reason when mounting fails.
final class ScratchMount: @unchecked Sendable {
  /// True when this process may mount a tmpfs: tried once, with a tiny one.
  static let isAllowed: Bool = make(size: "64k").0 != nil

  /// The mount point.
  let path: String
  private let parent: TemporaryFolder

  private init(parent: TemporaryFolder, path: String) {
    self.parent = parent
    self.path = path
  }

  /// Mounts a tmpfs of `size` (e.g. "512k") on a fresh folder.
  static func make(size: String) -> (ScratchMount?, String) {
    let parent = TemporaryFolder(prefix: "notify-mount")
    let point = parent.file("mnt")
    try? FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: false)
    let result = shell("mount -t tmpfs -o size=\(size),mode=0700 notify-test \(point)")
    guard result.status == 0 else {
      return (
        nil,
        "cannot mount a tmpfs (\(result.text.trimmingCharacters(in: .whitespacesAndNewlines))); run as root"
      )
    }
    return (ScratchMount(parent: parent, path: point), "")
  }

  /// A path inside the mount.
  func file(_ name: String) -> String { path + "/" + name }

  /// Remounts read-only (true) or read-write (false); the shell's output on failure.
  @discardableResult
  func setReadOnly(_ readOnly: Bool) -> String? {
    let result = shell("mount -o remount,\(readOnly ? "ro" : "rw") \(path)")
    return result.status == 0 ? nil : result.text
  }

  deinit {
    _ = shell("umount -l \(path)")
  }
}

/// Runs `command` with /bin/sh; its status and combined output.
@discardableResult
func shell(_ command: String) -> (status: Int32, text: String) {
  guard let result = try? CommandRunner(executable: "/bin/sh").run(["-c", command + " 2>&1"], timeout: 30)
  else {
    return (-1, "could not run /bin/sh")
  }
  return (result.status, result.stdout + result.stderr)
}

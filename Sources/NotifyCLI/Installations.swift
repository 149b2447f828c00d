import Foundation
import NotifyCore

/// notify's installations on this machine, as `notify status` reports them: the Debian
/// package (/usr/bin/notify beside the package's /usr/share/doc/notify/copyright, which
/// install.sh never writes) and scripts/install.sh's
/// (its manifest, `PREFIX/share/notify/installed-files`, in ~/.local or /usr/local); and
/// which binary runs: the daemon's, the one systemd starts for notify.service, this one.
struct Installations {
  let environment = ProcessInfo.processInfo.environment

  private var home: String { environment["HOME"] ?? NSHomeDirectory() }

  /// A file every Debian package has, and install.sh never installs.
  static let packageMarker = "/usr/share/doc/notify/copyright"

  /// Every installation found, the package's first.
  func found() -> [Diagnosis.Installation] {
    var found: [Diagnosis.Installation] = []
    if FileManager.default.fileExists(atPath: Self.packageMarker),
      FileManager.default.isExecutableFile(atPath: "/usr/bin/notify")
    {
      found.append(.init(kind: "package", binary: "/usr/bin/notify", removal: "sudo apt remove notify"))
    }
    for prefix in [home + "/.local", "/usr/local"] {
      let manifest = prefix + "/share/notify/installed-files"
      let binary = prefix + "/bin/notify"
      guard Self.lines(of: manifest).contains(binary), FileManager.default.isExecutableFile(atPath: binary)
      else { continue }
      let option = prefix == home + "/.local" ? "" : " --prefix \(prefix)"
      found.append(
        .init(
          kind: "install.sh", binary: binary,
          removal:
            "bash scripts/install.sh uninstall\(option) in notify's checkout (it removes what \(manifest) lists)"
        ))
    }
    return found
  }

  /// What process `pid` runs (`/proc/PID/exe`; " (deleted)" when that file is gone).
  static func binary(ofProcess pid: Int32) -> String? {
    try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
  }

  /// This command's binary.
  static var commandBinary: String? { binary(ofProcess: getpid()) }

  /// The program the unit file `path` starts: its `ExecStart=`'s first word (quotes and a
  /// leading `-@:+!` taken off).
  static func startedBinary(unitFile path: String) -> String? {
    guard let line = lines(of: path).last(where: { $0.hasPrefix("ExecStart=") }) else { return nil }
    var command = Substring(line.dropFirst("ExecStart=".count))
    while let first = command.first, "-@:+!".contains(first) { command = command.dropFirst() }
    if command.first == "\"" {
      return command.dropFirst().split(separator: "\"", maxSplits: 1).first.map(String.init)
    }
    return command.split(separator: " ", maxSplits: 1).first.map(String.init)
  }

  private static func lines(of path: String) -> [String] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").map(String.init)
  }
}

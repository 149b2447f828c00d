import Foundation
import NotifyTestSupport
import Testing

/// Xfce's notification server, xfce4-notifyd (Debian `xfce4-notifyd` 0.7.3), on a private
/// session bus drawing on a display, with its settings daemon xfconfd on the same bus and
/// its notification log on: every bubble it shows is written to
/// `$XDG_CACHE_HOME/xfce4/notifyd/log` (a GKeyFile: a group per notification, with
/// `app_name`, `summary`, `body`, `app_icon`), which a test reads back. Settings and log
/// live in the test's folder. Stopped when it goes away.
final class XfceNotifyd {
  static let program = "/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd"
  static let settingsDaemon = "/usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd"
  static let settingsTool = "/usr/bin/xfconf-query"
  /// ImageMagick's (not `/usr/local/bin/convert`, a stand-in): pictures and screenshots.
  static let convert = "/usr/bin/convert"
  static let screenshot = "/usr/bin/import"

  /// Why it cannot run here, or nil.
  static let missing: String? = {
    let tools = [
      (program, "xfce4-notifyd"), (settingsDaemon, "xfconf"), (settingsTool, "xfconf"),
      (convert, "imagemagick"),
      (screenshot, "imagemagick"),
    ]
    guard let (tool, package) = tools.first(where: { !CommandRunner.isRegularExecutable($0.0) }) else {
      return nil
    }
    print("XfceIconTests: skipping: \(tool) is missing (apt-get install \(package))")
    return "\(tool) is missing (apt-get install \(package))"
  }()

  /// `DBUS_SESSION_BUS_ADDRESS` for processes on its bus.
  let bus: [String: String]
  let display: String
  private let folder: TemporaryFolder
  private let privateBus: PrivateBus
  private let environment: [String: String]
  private var settings: ChildProcess?
  private var server: ChildProcess?

  /// Starts the bus, xfconfd, sets the log on (`/notification-log` true and `/log-level` 1,
  /// "always": 0, the default, logs only while Do Not Disturb is on) and bubbles that stay
  /// up (`/expire-timeout` 60 s, `/do-fadeout` false), then xfce4-notifyd; returns once it
  /// owns `org.freedesktop.Notifications`.
  init(folder: TemporaryFolder, display: String) throws {
    self.folder = folder
    self.display = display
    privateBus = try PrivateBus(in: folder, name: "xfce-bus", services: folder.file("xfce-services"))
    bus = privateBus.environment
    environment = bus.merging([
      "DISPLAY": display, "XDG_CACHE_HOME": folder.file("xfce-cache"),
      "XDG_CONFIG_HOME": folder.file("xfce-config"),
      "NO_AT_BRIDGE": "1",
    ]) { $1 }
    settings = try ChildProcess(
      Self.settingsDaemon, environment: environment, stdout: .file("/dev/null"),
      stderr: .file(folder.file("xfconfd.log")))
    // xfconfd is ready when a setting can be written through it (the bus cannot start it:
    // its service file is not in this bus's service folder)
    var set: CommandRunner.Result?
    _ = waitUntil(timeout: 30, interval: 0.05) {
      set = try? self.setting("/notification-log", type: "bool", "true")
      return set?.status == 0
    }
    try #require(set?.status == 0, "xfconfd did not answer: \(set?.stderr ?? "")")
    // Bubbles stay up a minute, without fading (a screenshot finds them as drawn)
    for (property, type, value) in [
      ("/log-level", "uint", "1"), ("/expire-timeout", "int", "60"), ("/do-fadeout", "bool", "false"),
    ] {
      let set = try setting(property, type: type, value)
      try #require(set.status == 0, "\(property): \(set.stderr)")
    }
    let serverLog = folder.file("xfce4-notifyd.log")
    let process = try ChildProcess(
      Self.program, environment: environment, stdout: .file("/dev/null"), stderr: .file(serverLog))
    server = process
    var exited = false
    let owned = waitUntil(timeout: 30, interval: 0.05) {
      exited = !process.isRunning
      let call = try? CommandRunner(executable: "/usr/bin/gdbus", environment: self.bus).run([
        "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
        "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.Notifications",
      ])
      return exited || call?.stdout.contains("true") == true
    }
    if exited { server = nil }
    try #require(
      owned && !exited,
      "xfce4-notifyd did not take its name: \(fileBytes(serverLog).map { String(decoding: $0, as: UTF8.self) } ?? "")"
    )
  }

  // The server and xfconfd stop before the bus (a stored property, released after this).
  deinit {
    for process in [server, settings].compactMap({ $0 }) { process.terminate(timeout: 60) }
  }

  /// Writes property `property` of the `xfce4-notifyd` channel, creating it.
  private func setting(_ property: String, type: String, _ value: String) throws -> CommandRunner.Result {
    try CommandRunner(executable: Self.settingsTool, environment: environment).run([
      "-c", "xfce4-notifyd", "-p", property, "-n", "-t", type, "-s", value,
    ])
  }

  /// The apps xfce4-notifyd has seen (`/applications/known_applications`, which its settings
  /// dialog lists): by the `desktop-entry` hint where a bubble has one, else by `app_name`.
  var knownApplications: [String] {
    let result = try? CommandRunner(executable: Self.settingsTool, environment: environment).run([
      "-c", "xfce4-notifyd", "-p", "/applications/known_applications",
    ])
    guard let result, result.status == 0 else { return [] }
    // "Value is an array with N items:", an empty line, then one value a line
    return result.stdout.split(separator: "\n").dropFirst().map(String.init)
  }

  /// The notification log, oldest first: each entry's keys and values (GKeyFile escapes
  /// undone).
  var log: [[String: String]] {
    let text =
      fileBytes(folder.file("xfce-cache/xfce4/notifyd/log")).map { String(decoding: $0, as: UTF8.self) } ?? ""
    var entries: [[String: String]] = []
    for line in text.split(separator: "\n") {
      if line.hasPrefix("[") {
        entries.append([:])
      } else if let equals = line.firstIndex(of: "="), !entries.isEmpty {
        entries[entries.count - 1][String(line[..<equals])] = Self.unescaped(
          line[line.index(after: equals)...])
      }
    }
    return entries
  }

  /// The log entry of the bubble whose summary is `summary`, once there is one.
  func logged(summary: String) -> [String: String]? { log.first { $0["summary"] == summary } }

  /// How many pixels of the whole screen have exactly `colour` (`#RRGGBB`), from a
  /// screenshot saved as `name` in the test's folder.
  func pixels(of colour: String, screenshot name: String) throws -> Int {
    let shot = folder.file(name)
    let taken = try CommandRunner(executable: Self.screenshot).run([
      "-window", "root", "-display", display, shot,
    ])
    try #require(taken.status == 0, "\(taken.stderr)")
    let histogram = try CommandRunner(executable: Self.convert).run([
      shot, "-format", "%c", "histogram:info:-",
    ])
    try #require(histogram.status == 0, "\(histogram.stderr)")
    // "   2304: (18,171,52) #12AB34 srgb(18,171,52)"
    let line = histogram.stdout.split(separator: "\n").first { $0.contains(" \(colour.uppercased()) ") }
    return line.flatMap { Int($0.split(separator: ":")[0].trimmingCharacters(in: .whitespaces)) } ?? 0
  }

  /// A GKeyFile value as written: `\s`, `\n`, `\t`, `\r` and `\\` undone.
  static func unescaped(_ value: Substring) -> String {
    var result = ""
    var escaping = false
    for character in value {
      if escaping {
        switch character {
        case "s": result.append(" ")
        case "n": result.append("\n")
        case "t": result.append("\t")
        case "r": result.append("\r")
        default: result.append(character)
        }
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else {
        result.append(character)
      }
    }
    return result
  }
}

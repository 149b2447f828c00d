import Foundation
import Testing

/// A private session bus (`PrivateBus`, with a service folder for D-Bus activation) and the
/// scripted notification server on it (`notification-server.py`),
/// which records every call: for behaviour dunst lacks (sounds, activation tokens).
/// Stopped when it goes away.
public final class ScriptedDesktop {
  public static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures").path

  /// `DBUS_SESSION_BUS_ADDRESS` for processes on this bus.
  public let bus: [String: String]
  /// The server's record: one JSON object per call or signal.
  public let record: String
  private let folder: TemporaryFolder
  private let privateBus: PrivateBus
  private var server: ChildProcess?
  private var starts = 0

  /// Starts the bus with `services` as its service folder, and (unless `withServer` is
  /// false) the server advertising `capabilities` (the script's default when nil), with
  /// `serverArguments` (`--notify-delay 0.5`, `--silent`); returns once the server is ready.
  public init(
    in folder: TemporaryFolder, services: String, capabilities: String? = nil, withServer: Bool = true,
    notifyDelay: Double = 0, serverArguments: [String] = []
  )
    throws
  {
    self.folder = folder
    privateBus = try PrivateBus(in: folder, name: "bus", services: services)
    bus = privateBus.environment
    record = folder.file("server.record")
    guard withServer else { return }
    try startServer(
      capabilities: capabilities,
      arguments: (notifyDelay > 0 ? ["--notify-delay", String(notifyDelay)] : []) + serverArguments)
  }

  /// Starts the server (again, after `stopServer`); returns once it owns the name.
  public func startServer(capabilities: String? = nil, arguments: [String] = []) throws {
    starts += 1
    let ready = folder.file("server\(starts).out")
    let errors = folder.file("server\(starts).err")
    let process = try ChildProcess(
      "/usr/bin/python3",
      [Self.fixtures + "/notification-server.py", "--record", record]
        + (capabilities.map { ["--capabilities", $0] } ?? []) + arguments,
      environment: bus, stdout: .file(ready), stderr: .file(errors))
    server = process
    // Ready is an event: wait for it or for the server's exit. The deadline only bounds a
    // hang; Python's start with gi and dbus takes seconds on a machine the suite loads.
    var exited = false
    _ = waitUntil(timeout: 60) {
      exited = !process.isRunning
      return exited || process.stdout.contains("READY")
    }
    if exited { server = nil }
    try #require(
      !exited && fileBytes(ready).map { String(decoding: $0, as: UTF8.self) }?.contains("READY") == true,
      "the scripted server did not start: \(fileBytes(errors).map { String(decoding: $0, as: UTF8.self) } ?? "")"
    )
  }

  /// Stops the server and waits until it has exited: nobody owns the name any more.
  public func stopServer() {
    server?.terminate(timeout: 60)
    server = nil
  }

  // The server stops before the bus (a stored property, released after this).
  deinit { stopServer() }

  /// The summaries of the Notify calls the server showed, in order (with `--notify-delay`
  /// it shows each as it arrives and answers later; with `--silent` it shows none).
  public var shownSummaries: [String] {
    calls.filter { $0["call"] as? String == "Notify" }.compactMap { $0["summary"] as? String }
  }

  /// How many Notify calls arrived, shown or not (`--silent` shows none).
  public var arrivedCount: Int {
    calls.filter { $0["arrived"] as? String == "Notify" || $0["call"] as? String == "Notify" }.count
  }

  /// Everything the server recorded so far.
  public var calls: [[String: Any]] { Self.lines(record) }

  /// Calls `org.notify.Test.METHOD` on the server: `Click ID KEY TOKEN`, `Reply ID TEXT`,
  /// `Close ID REASON` (what the user does).
  public func drive(_ method: String, _ arguments: String...) throws {
    let result = try CommandRunner(executable: "/usr/bin/gdbus", environment: bus).run(
      [
        "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
        "/org/freedesktop/Notifications", "--method", "org.notify.Test.\(method)",
      ] + arguments)
    try #require(result.status == 0, "\(result.stderr)")
  }

  /// The JSON objects of a record file, one per line.
  public static func lines(_ path: String) -> [[String: Any]] {
    (fileBytes(path).map { String(decoding: $0, as: UTF8.self) } ?? "").split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }
}

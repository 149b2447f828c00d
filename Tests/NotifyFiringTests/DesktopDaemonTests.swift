import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// `notify daemon --sink desktop` against a real dunst under Xvfb on a private session bus
/// (`.ci/desktop-session.sh`): delivery to the server, and the server's closing reported
/// back into history while the daemon sleeps.
@Suite(
  .serialized, .enabled(if: HeadlessDesktop.toolsMissing == nil, "needs Xvfb, dbus and dunst"), .ownThreads)
struct DesktopDaemonTests {
  @Test(
    "a due notification shows in dunst; a click and a close are recorded the same way whoever fired it",
    arguments: FiringDriver.allCases)
  func deliversAndRecordsAnswers(driver: FiringDriver) throws {
    // Given a headless desktop and a firer delivering to it
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let firer = try NotifyProcess.firer(
      driver, db: f.path, folder: f.folder, name: "d", sink: "desktop", environment: desktop.environment)
    #expect(firer.waitReady(), "\(firer.errorText)")
    // When a notification comes due (with an action text of its own: app "test" has no
    // desktop entry, so only a response to wait for makes its default action reach it
    // when the daemon shows it)
    try f.schedule("hello", at: Date() + 1, action: "Open")
    // Then dunst shows it and it is recorded delivered
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 1 }, "\(firer.errorText)")
    #expect(try desktop.dunstctl("count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    // When the user clicks it (its default action, as dunst's click does)
    try desktop.dunstctl("action", "0")
    // Then the sleeping firer records the activation, with the action key and userInfo
    #expect(waitUntil(timeout: 10) { (try? f.events(.activated).map(\.notificationID)) == ["hello"] })
    let activated = try #require(try f.events(.activated).first)
    #expect(activated.reason == "default")
    #expect(activated.detail["userInfo"] == .object(["k": .string("v")]))
    #expect(activated.occurrence == 1)
    // When the next one is closed by the user
    try f.schedule("bye", at: Date() + 0.5)
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 2 }, "\(firer.errorText)")
    try desktop.dunstctl("close-all")
    // Then the dismissal is recorded with the reason docs/command.md documents, whoever fired it
    #expect(
      waitUntil(timeout: 10) { (try? f.events(.dismissed).map(\.notificationID))?.contains("bye") == true })
    let dismissed = try #require(try f.events(.dismissed).first { $0.notificationID == "bye" })
    #expect(dismissed.reason == "dismissed-by-user")
    #expect(dismissed.detail["userInfo"] == .object(["k": .string("v")]))
    // And an app hears of its own answers on its event stream
    if driver == .app {
      #expect(waitUntil(timeout: 10) { firer.errorText.contains("event: activated hello default") })
      #expect(waitUntil(timeout: 10) { firer.errorText.contains("event: dismissed bye dismissed-by-user") })
    }
    firer.send(SIGTERM)
    #expect(firer.waitExit() == 0)
  }
}

extension DesktopDaemonTests {
  @Test("the daemon publishes badges at start and when `notify badge N` changes one")
  func publishesBadges() throws {
    // Given a store where app "chat" already has badge 2, and a bus monitor
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    try f.store.setBadge(app: "chat", count: 2, at: Date())
    let monitor = try BusMonitor(environment: desktop.environment, folder: f.folder)
    func seen() -> String { monitor.seen }
    // When the daemon starts on the bus
    let daemon = try NotifyProcess(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d",
      environment: desktop.environment)
    #expect(daemon.waitReady(), "\(daemon.errorText)")
    // Then it re-emits the stored badge
    #expect(
      waitUntil(timeout: 10) { seen().contains("application://chat.desktop") && seen().contains("int64 2") })
    // When another process sets the badge
    let set = try CommandRunner(environment: ["NOTIFY_APP": "chat"]).run(["badge", "5", "--db", f.path])
    #expect(set.status == 0)
    // Then the daemon publishes the new count
    #expect(waitUntil(timeout: 10) { seen().contains("int64 5") }, "\(seen())")
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }
}

/// A private Xvfb + session bus + dunst, from the project's `.ci/desktop-session.sh`.
final class HeadlessDesktop {
  static let toolsMissing: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let missing = ["Xvfb", "dbus-daemon", "dunst", "dunstctl"].first { tool in
      !path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }
    if let missing {
      print("DesktopDaemonTests: skipping: \(missing) is not installed (apt-get install xvfb dbus dunst)")
    }
    return missing
  }()

  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(".ci/desktop-session.sh").path

  let folder = TemporaryFolder(prefix: "notify-desktop")
  private(set) var environment: [String: String] = [:]

  init() throws {
    let result = try HeadlessDesktop.run(
      ["/bin/bash", HeadlessDesktop.script, "start", folder.file("session")],
      environment: ["NOTIFY_SESSION_DISPLAY": "auto"], in: folder)
    let parts = result.output.split(separator: "'")
    guard result.status == 0, parts.count >= 4 else {
      throw NotifyError(.unavailable, "desktop-session.sh start failed: \(result.errors)")
    }
    environment = ["DBUS_SESSION_BUS_ADDRESS": String(parts[1]), "DISPLAY": String(parts[3])]
  }

  deinit {
    _ = try? HeadlessDesktop.run(
      ["/bin/bash", HeadlessDesktop.script, "stop", folder.file("session")], in: folder)
  }

  /// Ends dunst and waits until it has exited: nobody owns the notification name then.
  func stopDunst() -> Bool {
    let text = (try? String(contentsOfFile: folder.file("session") + "/dunst.pid", encoding: .utf8)) ?? ""
    guard let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0 else { return false }
    kill(pid, SIGTERM)
    // Gone, or a zombie nobody reaps (the session script's children are orphans).
    return waitUntil(timeout: 10) {
      let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
      return status.isEmpty || status.contains("State:\tZ")
    }
  }

  /// Starts dunst again after `stopDunst` (the session script restarts what died).
  func startDunst() throws {
    let result = try HeadlessDesktop.run(
      ["/bin/bash", HeadlessDesktop.script, "start", folder.file("session")],
      environment: ["NOTIFY_SESSION_DISPLAY": "auto"], in: folder)
    guard result.status == 0 else {
      throw NotifyError(.unavailable, "desktop-session.sh start failed: \(result.errors)")
    }
  }

  @discardableResult
  func dunstctl(_ arguments: String...) throws -> String {
    let result = try HeadlessDesktop.run(
      ["/usr/bin/dunstctl"] + arguments, environment: environment, in: folder)
    guard result.status == 0 else {
      throw NotifyError(.unavailable, "dunstctl \(arguments) failed: \(result.errors)")
    }
    return result.output
  }

  /// Stops dunst and starts a new one on the same bus: another server instance, whose
  /// ids start again at 1.
  func restartDunst() throws {
    let session = folder.file("session")
    let pid =
      pid_t(
        (fileBytes(session + "/dunst.pid").map { String(decoding: $0, as: UTF8.self) } ?? "")
          .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    try #require(pid > 0)
    kill(pid, SIGTERM)
    try #require(waitUntil(timeout: 10) { kill(pid, 0) != 0 })
    let result = try HeadlessDesktop.run(
      ["/bin/bash", HeadlessDesktop.script, "start", session],
      environment: ["NOTIFY_SESSION_DISPLAY": "auto"],
      in: folder)
    try #require(result.status == 0, "\(result.errors)")
  }

  /// Picks an action through dunst's context menu, as a click on its button does: the
  /// session's scripted dmenu chooses the first offered line containing `text` (dunst
  /// offers `#LABEL (SUMMARY) [SERVER_ID,KEY]`). Returns what the menu offered.
  @discardableResult
  func pick(_ text: String) throws -> String {
    let session = folder.file("session")
    try Data(text.utf8).write(to: URL(fileURLWithPath: session + "/dmenu-pick"))
    try? FileManager.default.removeItem(atPath: session + "/dmenu-offered")
    try dunstctl("context")
    // dunst runs the menu after answering: wait for what it offered (the file exists a
    // moment before the script has written to it).
    _ = waitUntil(timeout: 10) { fileBytes(session + "/dmenu-offered")?.isEmpty == false }
    return fileBytes(session + "/dmenu-offered").map { String(decoding: $0, as: UTF8.self) } ?? ""
  }

  /// Runs a command to completion (CommandRunner waits for the command itself, not for
  /// the daemons the session script leaves behind holding its descriptors).
  static func run(_ command: [String], environment: [String: String] = [:], in folder: TemporaryFolder) throws
    -> (status: Int32, output: String, errors: String)
  {
    let result = try CommandRunner(executable: command[0], environment: environment)
      .run(Array(command.dropFirst()), timeout: 30)
    return (result.status, result.stdout, result.stderr)
  }
}

import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyTestSupport
import NotifyZones
import Testing

/// The center on a real desktop: a private session bus with dunst under Xvfb, started by
/// `.ci/desktop-session.sh`. Activations and dismissals come back through `events`.
@Suite(.serialized, .ownThreads, .needsHeadlessDesktop)
struct DesktopEventsTests {
  let folder = TemporaryFolder(prefix: "notify-desktop")

  @Test func activatingADeliveredNotificationIsAnEventWithItsUserInfo() async throws {
    // Given a center delivering to dunst, with its service relaying the desktop's answers
    let session = try HeadlessDesktop.start(in: folder.file("session"))
    defer { session.stop() }
    let sink = try DesktopSink(configuration: .init(busAddress: session.busAddress))
    let center = try LocalNotificationCenter(
      app: "chat", store: try SQLiteStore(path: folder.file("notify.db")), sink: sink)
    let events = center.events
    let outcome: NotificationEvent? = try await whileRunning({ try await center.firingService().run() }) {
      // (once the service runs: the app is online then, and a click reaches it)
      guard await eventually(timeout: 10, { center.isFiring }) else { return nil }
      // When a message is presented and the user clicks it (dunst's default action)
      try center.ownStore.present(
        NotificationContent(
          body: "SteveJ: Hello, world!", sound: .default, badge: 1, userInfo: ["sender": .string("SteveJ")]),
        id: "m1")
      let shown = await eventually(timeout: 10) {
        (try? session.dunstctl("count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines)) == "1"
      }
      guard shown else { return nil }
      try session.dunstctl("action", "0")
      for await event in events where event.kind != .delivered { return event }
      return nil
    }
    // Then the activation arrives with the default action key and the userInfo
    let event = try #require(outcome, "no activation arrived")
    #expect(event.kind == .activated(actionKey: "default"))
    #expect(event.notification.id == "m1")
    #expect(event.userInfo == ["sender": .string("SteveJ")])
    // And it is in history
    let history = try center.ownStore.recordedHistory()
    #expect(history.first?.kind == .activated)
    #expect(history.first?.reason == "default")
  }

  @Test func closingADeliveredNotificationIsADismissal() async throws {
    // Given a center delivering to dunst, with its service relaying
    let session = try HeadlessDesktop.start(in: folder.file("session"))
    defer { session.stop() }
    let sink = try DesktopSink(configuration: .init(busAddress: session.busAddress))
    let center = try LocalNotificationCenter(
      app: "chat", store: try SQLiteStore(path: folder.file("notify.db")), sink: sink)
    let events = center.events
    let service = center.firingService(firesScheduledNotifications: false)
    let outcome: NotificationEvent? = try await whileRunning({ try await service.run() }) {
      // When a notification is shown and the user closes it
      try center.ownStore.present(NotificationContent(title: "Lunch", body: "12:30"), id: "lunch")
      let shown = await eventually(timeout: 10) {
        (try? session.dunstctl("count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines)) == "1"
      }
      guard shown else { return nil }
      try session.dunstctl("close")
      for await event in events where event.kind != .delivered { return event }
      return nil
    }
    // Then a dismissal by the user arrives and is recorded
    let event = try #require(outcome, "no dismissal arrived")
    #expect(event.kind == .dismissed(reason: "dismissed-by-user"))
    #expect(event.notification.id == "lunch")
    #expect(try center.ownStore.recordedHistory().first?.kind == .dismissed)
  }
}

/// A private Xvfb + session bus + dunst for one test, through `.ci/desktop-session.sh`.
struct HeadlessDesktop {
  let directory: String
  let busAddress: String
  let display: String

  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(".ci/desktop-session.sh").path

  /// Starts one. Tests that do are enabled only where the tools are installed
  /// (`.needsHeadlessDesktop`): a desktop that does not start then is a failure.
  static func start(in directory: String) throws -> HeadlessDesktop {
    // The script leaves daemons running: its output goes to files, so nothing waits on
    // pipes they inherit.
    let status = try shell(
      #"NOTIFY_SESSION_DISPLAY=auto exec /bin/bash "$0" start "$1" >"$1.out" 2>"$1.err""#, script, directory)
    let output = (try? String(contentsOfFile: directory + ".out", encoding: .utf8)) ?? ""
    // export DBUS_SESSION_BUS_ADDRESS='…'; export DISPLAY='…'
    let parts = output.split(separator: "'")
    guard status == 0, parts.count >= 4 else {
      let errors = (try? String(contentsOfFile: directory + ".err", encoding: .utf8)) ?? ""
      throw DesktopError(description: "desktop-session.sh start failed: \(errors)")
    }
    return HeadlessDesktop(directory: directory, busAddress: String(parts[1]), display: String(parts[3]))
  }

  /// Stops the session's processes.
  func stop() {
    _ = try? HeadlessDesktop.shell(#"exec /bin/bash "$0" stop "$1" >/dev/null 2>&1"#, Self.script, directory)
  }

  /// Runs `dunstctl` against this session's dunst.
  @discardableResult
  func dunstctl(_ arguments: String...) throws -> String {
    let output = directory + ".dunstctl"
    let status = try Self.shell(
      #"DBUS_SESSION_BUS_ADDRESS="$0" DISPLAY="$1" dunstctl "${@:3}" >"$2" 2>&1"#,
      [busAddress, display, output] + arguments)
    let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    guard status == 0 else { throw DesktopError(description: "dunstctl \(arguments): \(text)") }
    return text
  }

  /// Runs `bash -c command arguments...` to completion and returns its exit status.
  /// `posix_spawn` + `waitpid`: the test thread's blocked signals are not passed on.
  static func shell(_ command: String, _ arguments: String...) throws -> Int32 {
    try shell(command, arguments)
  }

  static func shell(_ command: String, _ arguments: [String]) throws -> Int32 {
    try CommandRunner(executable: "/bin/bash").run(["-c", command] + arguments, timeout: 60).status
  }
}

/// The headless desktop failed to start although its tools are installed.
struct DesktopError: Error, CustomStringConvertible {
  var description: String
}

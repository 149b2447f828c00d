import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// What the library writes on an embedding app's stderr: warnings and
/// errors only, as docs/decisions/0064 says, unless the app raises the level. The embedded-app fixture
/// writes its own lines as `event: …`; anything else on its stderr is the library's.
@Suite(.serialized, .ownThreads)
struct EmbeddedAppLoggingTests {
  /// Where the app delivers.
  enum Sink: String, CaseIterable, CustomTestStringConvertible {
    case desktop = "the desktop (the scripted server, which plays no sounds)"
    case stdout = "stdout"
    var testDescription: String { rawValue }
  }

  /// The lines of the fixture's stderr that are not its own.
  func libraryLines(_ errorText: String) -> [Substring] {
    errorText.split(separator: "\n").filter { !$0.hasPrefix("event: ") }
  }

  /// Runs the fixture for app "quiet" delivering to `sink` with `extra` arguments, lets it
  /// deliver one notification with a sound and stops it; returns what it wrote on stderr
  /// (read before its folder goes).
  func deliverOne(to sink: Sink, extra: [String] = []) throws -> String {
    let f = try FiringFixture()
    let desktop =
      sink == .desktop ? try ScriptedDesktop(in: f.folder, services: f.folder.file("none")) : nil
    let app = try ChildProcess.notify(
      ["--app", "quiet", "--sink", sink == .desktop ? "desktop" : "stdout"] + extra, db: f.path,
      folder: f.folder, name: "app", environment: desktop?.bus ?? [:], program: "embedded-app-fixture")
    #expect(app.waitReady(), "\(app.stderr)")
    try f.schedule("tick", at: Date() + 0.3, app: "quiet", sound: .default)
    #expect(waitUntil(timeout: 10) { app.stderr.contains("event: delivered tick") }, "\(app.stderr)")
    #expect(f.waitSettled())
    app.send(SIGTERM)
    #expect(app.waitExit() == 0, "\(app.stderr)")
    withExtendedLifetime(desktop) {}
    #expect(app.stderr.contains("event: delivered tick"))
    return app.stderr
  }

  @Test("a normal delivery in an app writes nothing of the library's on stderr", arguments: Sink.allCases)
  func quietByDefault(sink: Sink) throws {
    // Given an app embedding the library, with the default level
    // When it starts, delivers a notification with a sound (which it cannot play here
    // or leaves to the server) and stops
    let errorText = try deliverOne(to: sink)
    // Then its stderr holds its own lines only
    #expect(libraryLines(errorText).isEmpty, "\(errorText)")
  }

  @Test("an app that raises the library's level gets its info lines")
  func raisedLevel() throws {
    // Given an app that sets the library's level to info before making its center
    let errorText = try deliverOne(to: .stdout, extra: ["--log-level", "info"])
    // Then the library says what the daemon says: its loop is ready
    #expect(libraryLines(errorText).contains { $0.contains("ready; watching") }, "\(errorText)")
  }
}

import Foundation
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// A sound name of the freedesktop sound theme (`alarm-clock-elapsed`), whoever fires: the
/// server that plays sounds gets the name, one that does not leaves the theme's file to
/// the firer's player.
@Suite(.serialized, .ownThreads)
struct ThemeSoundTests {
  static let name = "alarm-clock-elapsed"

  /// The stage's data home with the theme's file for `name` (a WAV, which the theme allows).
  static func theme(_ stage: SoundStage) -> String {
    let folder = stage.folder.file("data/sounds/freedesktop/stereo")
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let file = "\(folder)/\(name).wav"
    _ = FileManager.default.createFile(atPath: file, contents: TestWAV.pcm16())
    return file
  }

  @Test(
    "a server with `sound` gets the theme's name as sound-name",
    .enabled(if: ActivationTools.missing == nil, "needs dbus, gdbus and python3-gi"),
    arguments: FiringDriver.allCases)
  func serverPlaysTheName(driver: FiringDriver) throws {
    // Given a scripted server that plays sounds, and the theme in the firer's data home
    let f = try FiringFixture()
    let stage = SoundStage(folder: f.folder)
    _ = Self.theme(stage)
    let desktop = try ScriptedDesktop(
      in: f.folder, services: f.folder.file("services"), capabilities: "body,sound")
    let firer = try ChildProcess.firer(
      driver, db: f.path, folder: f.folder, name: "d", sink: "desktop",
      environment: desktop.bus.merging(stage.environment) { $1 })
    #expect(firer.waitReady(), "\(firer.stderr)")
    // When a notification with the theme's sound name comes due
    try f.schedule("alarm", at: Date() + 0.3, sound: .file(Self.name))
    // Then the server is asked to play that name, not a file, and nothing is substituted
    func hints() -> [String: Any]? {
      desktop.calls.first { $0["call"] as? String == "Notify" && $0["summary"] as? String == "title alarm" }?[
        "hints"] as? [String: Any]
    }
    #expect(waitUntil(timeout: 10) { hints() != nil }, "\(firer.stderr)")
    let sent = try #require(hints())
    #expect(sent["sound-name"] as? String == Self.name && sent["sound-file"] == nil, "\(sent)")
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 1 })
    #expect(try f.events(.delivered).first?.soundNote == nil)
    #expect(stage.calls.isEmpty, "the firer played it too: \(stage.calls)")
    firer.send(SIGTERM)
    #expect(firer.waitExit() == 0)
  }

  @Test(
    "where the server lacks `sound`, the firer plays the theme's file",
    .needsHeadlessDesktop,
    .enabled(if: SoundStage.canberra == nil, "canberra-gtk-play is installed: it would play the name itself"),
    arguments: FiringDriver.allCases)
  func firerPlaysTheFile(driver: FiringDriver) throws {
    // Given dunst (no `sound` capability), an audio server, a fake player, and the theme
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    let stage = SoundStage(folder: f.folder)
    let file = Self.theme(stage)
    let firer = try ChildProcess.firer(
      driver, db: f.path, folder: f.folder, name: "d", sink: "desktop",
      environment: desktop.environment.merging(stage.environment) { $1 })
    #expect(firer.waitReady(), "\(firer.stderr)")
    // When a notification with the theme's sound name comes due
    try f.schedule("alarm", at: Date() + 0.3, sound: .file(Self.name))
    // Then it is shown, and the player is given the theme's file
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 1 }, "\(firer.stderr)")
    let real = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
    #expect(
      waitUntil(timeout: 10) { stage.calls.contains { $0.hasSuffix(real) } },
      "\(stage.calls) \(firer.stderr)")
    firer.send(SIGTERM)
    #expect(firer.waitExit() == 0)
  }
}

extension SoundStage {
  /// `canberra-gtk-play` on the PATH the stage gives, if any.
  static let canberra: String? = ["/usr/bin", "/bin"].map { "\($0)/canberra-gtk-play" }.first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
}

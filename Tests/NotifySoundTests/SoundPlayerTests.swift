import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

@testable import NotifySound

/// Playing without a `sound`-capable server: the player chosen, the notes when nothing
/// can play, and that starting a player never waits for it. Players are fake scripts on
/// a private PATH that record how they were called.
@Suite(.serialized, .ownThreads)
struct SoundPlayerTests {
  /// A private PATH of fake players, a runtime dir, an empty /dev/snd and a sound.
  final class Stage {
    let root = TemporaryDirectory("notify-sound-player")
    var bin: String { root.file("bin") }
    var runtime: String { root.file("runtime") }
    var devices: String { root.file("snd") }
    var calls: String { root.file("calls.log") }
    var pids: String { root.file("pids.log") }
    let sound: String

    init() {
      sound = root.write("sounds/ping.wav", SoundBytes.pcmWAV(frames: 80))
      for folder in [bin, runtime, devices] {
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      }
    }

    /// Installs a fake player that logs `$0 $*` and exits (or, with `lingering`,
    /// records its pid and sleeps).
    func fake(_ name: String, lingering: Bool = false) {
      let body =
        lingering
        ? "#!/bin/sh\necho \"$0 $*\" >> '\(calls)'\necho $$ >> '\(pids)'\nexec /bin/sleep 30\n"
        : "#!/bin/sh\necho \"$0 $*\" >> '\(calls)'\n"
      let path = "\(bin)/\(name)"
      // The script never has a writable descriptor in this process: another test's child,
      // forked while one is open and not yet exec'd, would keep it open (O_CLOEXEC acts only
      // at exec), and exec of the script would then fail with ETXTBSY ("Text file busy").
      // So /bin/sh writes it, in a process of its own, to a temporary name moved into place.
      let temporary = path + ".tmp"
      let written = try? CommandRunner(executable: "/bin/sh").run(
        [
          "-c", "printf '%s' \"$1\" > \"$2\" && chmod 755 \"$2\" && mv \"$2\" \"$3\"", "sh", body, temporary,
          path,
        ])
      precondition(written?.status == 0, "could not write the fake player \(name)")
    }

    /// Makes an audio server appear (a PipeWire socket path).
    func audioServer() { _ = FileManager.default.createFile(atPath: "\(runtime)/pipewire-0", contents: nil) }

    func player(display: Bool = false, dataDirs: String? = nil) -> SoundPlayer {
      var environment = ["PATH": bin, "XDG_RUNTIME_DIR": runtime, "HOME": root.file("home")]
      if display { environment["DISPLAY"] = ":99" }
      if let dataDirs { environment["XDG_DATA_DIRS"] = dataDirs }
      return SoundPlayer(environment: environment, soundDevices: devices)
    }

    var file: SoundResolution { SoundResolution(effective: .file("ping.wav"), file: sound) }

    func loggedCalls() -> [String] {
      ((try? String(contentsOfFile: calls, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
  }

  @Test("none is silent")
  func silent() {
    let stage = Stage()
    #expect(stage.player().plan(SoundResolution(effective: .none)) == .silent)
    #expect(stage.player().play(SoundResolution(effective: .none)) == nil)
  }

  @Test("without an audio output nothing plays and a note says so")
  func noOutput() {
    // Given players but no audio server and no sound card
    let stage = Stage()
    stage.fake("pw-play")

    // When a file and the default are played
    let notes = [
      stage.player().play(stage.file), stage.player(display: true).play(SoundResolution(effective: .default)),
    ]

    // Then both return the note and no player ran
    #expect(notes == [SoundPlayer.noOutputNote, SoundPlayer.noOutputNote])
    #expect(stage.loggedCalls().isEmpty)
  }

  @Test("an ALSA device counts as an audio output")
  func alsaDevice() {
    let stage = Stage()
    #expect(!stage.player().hasAudioOutput)
    _ = FileManager.default.createFile(atPath: "\(stage.devices)/pcmC0D0p", contents: nil)
    #expect(stage.player().hasAudioOutput)
  }

  struct Choice: CustomTestStringConvertible, Sendable {
    let installed: [String]
    let expected: [String]  // program name, then arguments before the file
    var testDescription: String { installed.joined(separator: "+") }
  }

  @Test(
    "files play with the best player on PATH",
    arguments: [
      Choice(installed: ["aplay", "paplay", "pw-play", "play"], expected: ["pw-play"]),
      Choice(installed: ["aplay", "paplay", "play"], expected: ["paplay"]),
      Choice(installed: ["aplay", "play"], expected: ["play", "-q"]),
      Choice(installed: ["aplay"], expected: ["aplay", "-q"]),
    ])
  func playerChoice(_ choice: Choice) {
    // Given an audio server and some players
    let stage = Stage()
    stage.audioServer()
    choice.installed.forEach { stage.fake($0) }

    // When the plan is made; Then the preferred player gets the resolved file
    let expected = ["\(stage.bin)/\(choice.expected[0])"] + choice.expected.dropFirst() + [stage.sound]
    #expect(stage.player().plan(stage.file) == .run(expected))
  }

  @Test("no player on PATH: a note, not a failure")
  func noPlayer() {
    let stage = Stage()
    stage.audioServer()
    #expect(stage.player().play(stage.file)?.hasPrefix("no sound player found on PATH") == true)
  }

  @Test("the default sound uses canberra-gtk-play with a display, else the theme's file")
  func defaultSound() {
    // Given an audio server, canberra-gtk-play and pw-play, and a freedesktop theme file
    let stage = Stage()
    stage.audioServer()
    stage.fake("canberra-gtk-play")
    stage.fake("pw-play")
    let theme = stage.root.write(
      "share/sounds/freedesktop/stereo/message-new-instant.oga", [0x4F, 0x67, 0x67, 0x53])
    let dataDirs = stage.root.file("share")
    let byDefault = SoundResolution(effective: .default)

    // When planned with and without a display
    let withDisplay = stage.player(display: true, dataDirs: dataDirs).plan(byDefault)
    let headless = stage.player(dataDirs: dataDirs).plan(byDefault)
    let noTheme = stage.player(dataDirs: stage.root.file("nowhere")).plan(byDefault)

    // Then the themed sound is asked for by name, or its file is played
    #expect(
      withDisplay == .run(["\(stage.bin)/canberra-gtk-play", "-i", "message-new-instant", "-d", "notify"]))
    #expect(headless == .run(["\(stage.bin)/pw-play", theme]))
    guard case .skip(let note) = noTheme else {
      Issue.record("expected a note, got \(noTheme)")
      return
    }
    #expect(note.hasPrefix("no player for the default sound"))
  }

  @Test("playing starts the player and returns at once; finished players are reaped")
  func playsWithoutWaiting() throws {
    // Given an audio server and a player that lingers for 30 s
    let stage = Stage()
    stage.audioServer()
    stage.fake("pw-play", lingering: true)
    let player = stage.player()

    // When sounds are played up to the limit, and one more
    let start = Date()
    var notes: [String?] = []
    for _ in 0..<SoundPlayer.maxPlaying { notes.append(player.play(stage.file)) }
    let elapsed = Date().timeIntervalSince(start)
    let extra = player.play(stage.file)

    // Then each returned at once without a note, and the extra one was skipped
    #expect(notes.allSatisfy { $0 == nil }, "\(notes)")
    // (none waited for its 30 s player: the bound is that, not a speed)
    #expect(elapsed < 15, "play took \(elapsed) s for \(SoundPlayer.maxPlaying) sounds")
    #expect(extra == "\(SoundPlayer.maxPlaying) sounds are already playing; this one was skipped")
    #expect(waitUntil(timeout: 30) { stage.loggedCalls().count == SoundPlayer.maxPlaying })
    #expect(stage.loggedCalls().allSatisfy { $0 == "\(stage.bin)/pw-play \(stage.sound)" })
    #expect(SoundPlayer.playing == SoundPlayer.maxPlaying)

    // When the players end (each records its pid after logging its call)
    let recorded = {
      ((try? String(contentsOfFile: stage.pids, encoding: .utf8)) ?? "").split(separator: "\n")
        .compactMap { pid_t($0) }
    }
    #expect(waitUntil(timeout: 30) { recorded().count == SoundPlayer.maxPlaying })
    let pids = recorded()
    for pid in pids { kill(pid, SIGTERM) }

    // Then they are reaped, and playing works again
    #expect(waitUntil(timeout: 30) { SoundPlayer.playing == 0 })
    stage.fake("pw-play")
    #expect(player.play(stage.file) == nil)
    #expect(waitUntil(timeout: 30) { SoundPlayer.playing == 0 })
  }

  @Test("a player that cannot start gives a note")
  func cannotStart() {
    // Given a "player" that is executable but not a program
    let stage = Stage()
    stage.audioServer()
    _ = FileManager.default.createFile(
      atPath: "\(stage.bin)/pw-play", contents: Data([0, 1, 2, 3]), attributes: [.posixPermissions: 0o755])

    // When it is played; Then the failure is a note
    #expect(stage.player().play(stage.file)?.hasPrefix("could not start \(stage.bin)/pw-play") == true)
  }
}

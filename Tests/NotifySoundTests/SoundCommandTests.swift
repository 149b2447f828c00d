import Foundation
import NotifyTestSupport
import Testing

@testable import NotifySound

/// `notify sound check/install/list`, end to end through the built binary: output,
/// messages and exit codes (SPEC.md §4, §5).
@Suite(
  .enabled(if: NotifyBinary.path != nil, "the notify binary is needed (swift build --product notify)"),
  .ownThreads)
struct SoundCommandTests {
  let folder = TemporaryDirectory("notify-sound-cli")
  var environment: [String: String] {
    ["XDG_DATA_HOME": folder.file("data"), "XDG_DATA_DIRS": folder.file("system")]
  }

  @Test("check prints what a valid file holds and exits 0")
  func checkValid() throws {
    // Given a 0.1 s 16-bit mono WAV at 8 kHz
    let path = folder.write("ping.wav", SoundBytes.pcmWAV(frames: 800))

    // When it is checked
    let result = try NotifyBinary.run(["sound", "check", path])

    // Then every field is shown, the verdict is valid, and the exit code 0
    #expect(result.status == 0)
    let expected = """
      file:      \(path)
      container: WAV
      encoding:  Linear PCM (signed integer), 16-bit
      channels:  1
      rate:      8000 Hz
      duration:  0.100 s (800 frames)
      verdict:   valid

      """
    #expect(result.output == expected)
    #expect(result.errors.isEmpty)
  }

  struct Invalid: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    let verdict: String
    var testDescription: String { name }
  }

  @Test(
    "check exits 1 for an invalid file and says why",
    arguments: [
      Invalid(
        name: "long.wav", bytes: SoundBytes.pcmWAV(frames: 40 * 8000),
        verdict: "verdict:   invalid: lasts 40.0 s; notification sounds must be shorter than 30 s"),
      Invalid(
        name: "exactly30.wav", bytes: SoundBytes.pcmWAV(frames: 30 * 8000),
        verdict: "verdict:   invalid: lasts 30.0 s; notification sounds must be shorter than 30 s"),
      Invalid(name: "empty.wav", bytes: [], verdict: "verdict:   invalid: is empty (0 bytes)"),
      Invalid(
        name: "text.wav", bytes: Array("just words\n".utf8), verdict: "verdict:   invalid: is text, not audio"
      ),
      Invalid(
        name: "cut.wav", bytes: Array(SoundBytes.pcmWAV(frames: 800).prefix(900)),
        verdict: "verdict:   invalid: is truncated"),
    ])
  func checkInvalid(_ invalid: Invalid) throws {
    // Given an invalid file
    let path = folder.write(invalid.name, invalid.bytes)

    // When it is checked
    let result = try NotifyBinary.run(["sound", "check", path])

    // Then the verdict says why, a fix follows, and the exit code is 1
    #expect(result.status == 1)
    #expect(result.output.contains(invalid.verdict), "\(result.output)")
    #expect(result.output.contains("\nfix:       "))
  }

  @Test("check exits 66 for a missing file, with the error on stderr")
  func checkMissing() throws {
    let result = try NotifyBinary.run(["sound", "check", folder.file("absent.wav")])
    #expect(result.status == 66)
    #expect(result.output.isEmpty)
    #expect(
      result.errors
        == "notify: error: no such file '\(folder.file("absent.wav"))': check the path and that you may read the file\n"
    )
  }

  @Test("check escapes control characters in what it prints")
  func checkEscapes() throws {
    // Given a file whose name holds an escape sequence
    let path = folder.write("bad\u{1B}[31mname.wav", SoundBytes.pcmWAV(frames: 8))

    // When it is checked; Then the escape is shown, not sent to the terminal
    let result = try NotifyBinary.run(["sound", "check", path])
    #expect(result.status == 0)
    #expect(!result.output.contains("\u{1B}"))
    #expect(result.output.contains("bad\\u{1b}[31mname.wav"))
  }

  @Test("a usage error exits 64")
  func usage() throws {
    #expect(try NotifyBinary.run(["sound", "check"]).status == 64)
  }

  @Test("install copies a valid sound into the app's folder; list shows it")
  func installAndList() throws {
    // Given a valid sound
    let source = folder.write("incoming/chime.wav", SoundBytes.pcmWAV(frames: 1600))

    // When it is installed for app "chat" (from NOTIFY_APP) and listed
    var env = environment
    env["NOTIFY_APP"] = "chat"
    let install = try NotifyBinary.run(["sound", "install", source], environment: env)
    let list = try NotifyBinary.run(["sound", "list"], environment: env)
    let otherApp = try NotifyBinary.run(["sound", "list", "--app", "other"], environment: env)

    // Then it is in XDG_DATA_HOME/notify/sounds/chat, and list shows it as valid
    let installed = folder.file("data/notify/sounds/chat/chime.wav")
    #expect(install.status == 0)
    #expect(install.output == "\(installed)\n")
    #expect(FileManager.default.fileExists(atPath: installed))
    let mode =
      try FileManager.default.attributesOfItem(atPath: folder.file("data/notify/sounds/chat"))[
        .posixPermissions] as? Int
    #expect(mode == 0o700)
    #expect(list.status == 0)
    #expect(list.output.hasPrefix("chime.wav     0.200 s  valid  "))
    #expect(list.output.contains("/notify/sounds/chat/chime.wav"))
    #expect(otherApp.status == 0)
    #expect(otherApp.output.hasPrefix("no sounds for app 'other'"))
  }

  @Test("install refuses an invalid sound with exit 65 and copies nothing")
  func installInvalid() throws {
    // Given a 40 s sound
    let source = folder.write("incoming/long.wav", SoundBytes.pcmWAV(frames: 40 * 8000))

    // When it is installed
    let result = try NotifyBinary.run(
      ["sound", "install", source, "--app", "chat"], environment: environment)

    // Then it is refused with the reason and a fix, and nothing was copied
    #expect(result.status == 65)
    #expect(
      result.errors.hasPrefix(
        "notify: error: '\(source)' lasts 40.0 s; notification sounds must be shorter than 30 s: shorten it"))
    #expect(!FileManager.default.fileExists(atPath: folder.file("data/notify/sounds/chat/long.wav")))
  }

  @Test("install exits 66 for a missing file and 65 for a bad app id")
  func installErrors() throws {
    let missing = try NotifyBinary.run(
      ["sound", "install", folder.file("nope.wav")], environment: environment)
    #expect(missing.status == 66)
    let source = folder.write("ok.wav", SoundBytes.pcmWAV(frames: 8))
    let badApp = try NotifyBinary.run(
      ["sound", "install", source, "--app", "bad/app"], environment: environment)
    #expect(badApp.status == 65)
    #expect(badApp.errors.hasPrefix("notify: error: invalid app 'bad/app'"))
  }
}

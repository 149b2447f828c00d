import Foundation
import NotifyTestSupport
import Testing

/// SPEC.md §4 at schedule time: a bad sound never loses the notification; `--strict-sound`
/// refuses it and leaves the store unchanged.
@Suite("schedule with sounds, end to end", .ownThreads)
struct ScheduleSoundTests {
  let folder = TemporaryFolder()

  var notify: CommandRunner {
    CommandRunner(environment: [
      "NOTIFY_DB": folder.file("notify.db"), "NOTIFY_APP": "tests", "XDG_DATA_HOME": folder.file("data"),
      "XDG_DATA_DIRS": folder.file("none"),
    ])
  }

  /// Writes a sine tone of `seconds` into the app's sound folder with sox (the tests that
  /// call this are enabled only where sox is installed).
  func makeSound(_ name: String, seconds: Double) throws {
    let sounds = folder.file("data/notify/sounds/tests")
    try FileManager.default.createDirectory(atPath: sounds, withIntermediateDirectories: true)
    let result = try CommandRunner(executable: "/usr/bin/sox").run([
      "-n", "-r", "8000", "-b", "16", sounds + "/" + name, "synth", String(seconds), "sine", "440",
    ])
    try #require(result.status == 0, "sox failed: \(result.stderr)")
  }

  @Test("a 40 s sound is scheduled with a warning and kept, and refused with --strict-sound", .needsSox)
  func longSound() throws {
    try makeSound("long.wav", seconds: 40)
    // When it is scheduled plainly, Then it is stored with a warning naming the reason
    let kept = try notify.run(["schedule", "--in", "1h", "--id", "k", "--sound", "long.wav", "x"])
    #expect(kept.status == 0, "\(kept.stderr)")
    #expect(kept.stderr.contains("notify: warning:"))
    #expect(kept.stderr.contains("40.0 s"))
    #expect(try notify.run(["show", "k", "--json"]).stdout.contains("\"sound\": \"long.wav\""))
    // When it is scheduled with --strict-sound, Then it is refused and the store is unchanged
    let before = try #require(storeBytes(folder.file("notify.db")))
    let strict = try notify.run([
      "schedule", "--in", "1h", "--id", "s", "--sound", "long.wav", "--strict-sound", "x",
    ])
    #expect(strict.status == 65)
    #expect(strict.stderr.contains("notify: error:"))
    #expect(strict.stderr.contains("shorter than 30 s"))
    #expect(storeBytes(folder.file("notify.db")) == before)
  }

  @Test("a valid sound from the app's folder is accepted silently; a missing one warns", .needsSox)
  func validAndMissing() throws {
    try makeSound("ping.wav", seconds: 0.5)
    let valid = try notify.run(["schedule", "--in", "1h", "--sound", "ping.wav", "x"])
    #expect(valid.status == 0)
    #expect(valid.stderr.isEmpty, "\(valid.stderr)")
    let missing = try notify.run(["schedule", "--in", "1h", "--sound", "nope.wav", "x"])
    #expect(missing.status == 0)
    #expect(missing.stderr.contains("notify: warning:"))
    let strict = try notify.run(["schedule", "--in", "1h", "--sound", "nope.wav", "--strict-sound", "x"])
    #expect(strict.status == 65)
  }

  @Test(
    "at fire time a 40 s sound is delivered as the default sound, with the request and the reason", .needsSox)
  func deliveredWithDefault() throws {
    try makeSound("long.wav", seconds: 40)
    // Given a due notification asking for a sound that is too long
    let past = "2020-01-01T00:00:00Z"
    #expect(try notify.run(["schedule", "--at", past, "--id", "d", "--sound", "long.wav", "x"]).status == 0)
    // When it fires
    let fired = try notify.run(["fire-due", "--sink", "stdout"])
    #expect(fired.status == 0, "\(fired.stderr)")
    // Then the delivery plays the default sound and says why
    let line = try #require(fired.stdout.split(separator: "\n").first.map(String.init))
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["sound"] as? String == "default")
    #expect(object["soundRequested"] as? String == "long.wav")
    #expect((object["soundNote"] as? String)?.contains("40.0 s") == true)
    #expect(object["late"] as? Bool == true)
    // And history keeps both
    let history = try notify.run(["history", "--json"]).stdout
    #expect(history.contains("\"soundRequested\":\"long.wav\""))
  }
}

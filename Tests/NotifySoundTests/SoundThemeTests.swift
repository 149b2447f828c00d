import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

@testable import NotifySound

/// Sound names of the freedesktop sound theme: the lookup, its fallbacks and rules, and
/// the length of its Ogg files against `soxi`.
@Suite(.ownThreads)
struct SoundThemeTests {
  /// A data home and one data dir, with the theme's folder in the data dir.
  final class Sandbox {
    let root = TemporaryDirectory("notify-sound-theme")
    var data: String { root.file("data") }
    var theme: String { "\(data)/sounds/freedesktop/stereo" }
    var environment: [String: String] {
      ["HOME": root.file("user"), "XDG_DATA_HOME": root.file("home"), "XDG_DATA_DIRS": data]
    }

    func library(_ app: String = "chat") throws -> SoundLibrary {
      try SoundLibrary(app: app, environment: environment)
    }

    /// Writes `bytes` as the theme's `file`.
    @discardableResult
    func themed(_ file: String, _ bytes: [UInt8] = SoundBytes.pcmWAV(frames: 800)) -> String {
      root.write("data/sounds/freedesktop/stereo/\(file)", bytes)
    }

    /// `seconds` of sine written by sox as the theme's Ogg Vorbis `file`.
    func vorbis(_ file: String, seconds: Double) throws {
      try FileManager.default.createDirectory(atPath: theme, withIntermediateDirectories: true)
      try Sox.generate("\(theme)/\(file)", seconds: seconds, options: ["-t", "ogg"])
    }
  }

  @Test(
    "sound names are lower-case words joined by '-'",
    arguments: [
      ("alarm-clock-elapsed", true), ("bell", true), ("message-new-instant", true), ("x11", true),
      ("", false), ("Bell", false), ("a--b", false), ("-a", false), ("a-", false), ("ping.wav", false),
      ("../bell", false), ("a/b", false), ("bell\n", false), (String(repeating: "a", count: 65), false),
    ])
  func names(name: String, valid: Bool) {
    #expect(SoundTheme.isSoundName(name) == valid)
  }

  @Test("a name no app folder holds resolves to the theme's file; the app's own file wins")
  func resolvesThroughTheTheme() throws {
    let sandbox = Sandbox()
    let bell = sandbox.themed("bell.wav")
    // The theme's file, by its real path
    let themed = try sandbox.library().resolve(.file("bell"))
    #expect(themed == SoundResolution(effective: .themed("bell"), file: bell))
    // An app file of the same name comes first
    let own = sandbox.root.write("home/notify/sounds/chat/bell", SoundBytes.pcmWAV(frames: 800))
    #expect(
      try sandbox.library().resolve(.file("bell")) == SoundResolution(effective: .file("bell"), file: own))
  }

  @Test("a name falls back by its last word, and .disabled silences it")
  func fallbackAndDisabled() throws {
    let sandbox = Sandbox()
    let message = sandbox.themed("message.wav")
    // message-new-instant → message-new → message
    #expect(
      try sandbox.library().resolve(.file("message-new-instant"))
        == SoundResolution(effective: .themed("message-new-instant"), file: message))
    // A .disabled file stops the lookup: no sound, no substitution
    sandbox.themed("message-new.disabled", [])
    #expect(try sandbox.library().resolve(.file("message-new-instant")) == SoundResolution(effective: .none))
  }

  @Test("missing, too long, damaged or escaping theme sounds resolve to the default sound and say why")
  func refusals() throws {
    let sandbox = Sandbox()
    // Not in the theme (nor the app's folders): named with both and the fix
    let missing = try sandbox.library().resolve(.file("no-such-sound"))
    #expect(missing.effective == .default && missing.requested == "no-such-sound")
    #expect(missing.note?.contains("nor in the 'freedesktop' sound theme") == true, "\(missing)")
    #expect(missing.fix?.contains("sound-theme-freedesktop") == true)
    // A file name that is not a sound name is not looked up in the theme
    sandbox.themed("ping.wav.wav")
    #expect(try sandbox.library().resolve(.file("ping.wav")).note?.contains("sound theme") == false)
    // A text file
    sandbox.themed("text.oga", Array("hello, this is text\n".utf8))
    let text = try sandbox.library().resolve(.file("text"))
    #expect(text.effective == .default && text.note?.contains("the sound theme's") == true, "\(text)")
    // A link leading out of the theme's folder is not followed
    let outside = sandbox.root.write("elsewhere/leak.wav", SoundBytes.pcmWAV(frames: 800))
    try FileManager.default.createSymbolicLink(
      atPath: "\(sandbox.theme)/leak.wav", withDestinationPath: outside)
    #expect(try sandbox.library().resolve(.file("leak")).effective == .default)
    // 30 s or longer
    if Sox.available {
      try sandbox.vorbis("long.oga", seconds: 31)
      let long = try sandbox.library().resolve(.file("long"))
      #expect(long.effective == .default && long.note?.contains("lasts 31.0 s") == true, "\(long)")
    }
  }

  @Test(
    "Ogg Vorbis lengths agree with soxi: sox-made files of random lengths, and the installed theme's",
    .enabled(if: Sox.available, "sox and soxi are needed (apt-get install sox libsox-fmt-all)"))
  func oggLengthsAgreeWithSoxi() throws {
    let sandbox = Sandbox()
    var generator = SeededGenerator(seed: 20_261_127)
    var files: [String] = []
    for index in 0..<6 {
      let seconds = (Double.random(in: 0.05...40, using: &generator) * 1000).rounded() / 1000
      try sandbox.vorbis("random-\(index).oga", seconds: seconds)
      files.append("\(sandbox.theme)/random-\(index).oga")
    }
    let installed = "/usr/share/sounds/freedesktop/stereo"
    let shipped = (try? FileManager.default.contentsOfDirectory(atPath: installed)) ?? []
    files += shipped.filter { $0.hasSuffix(".oga") }.sorted().map { "\(installed)/\($0)" }
    for file in files {
      let info = try OggReader.read(FileByteSource(path: file))
      let soxi = try #require(Double(try Sox.info("D", file)))
      #expect(abs(info.seconds - soxi) < 0.001, "\(file): \(info.seconds) s, soxi \(soxi) s")
      #expect(info.codec == "Vorbis")
    }
    print("ogg oracle: \(files.count) files (\(shipped.count) of the installed theme) agreed with soxi")
  }

  @Test("a damaged Ogg file is a problem, never a crash")
  func damagedOgg() throws {
    let sandbox = Sandbox()
    // The capture pattern and nothing else; a Vorbis header with no last page
    for bytes in [
      Array("OggS".utf8), Array("OggS".utf8) + [0, 2] + [UInt8](repeating: 0, count: 21) + [1, 30],
    ] {
      let file = sandbox.root.write("damaged.oga", bytes)
      #expect(throws: SoundFileProblem.self) { try OggReader.read(FileByteSource(path: file)) }
      #expect(!SoundTheme.verdict(file).isValid)
    }
  }
}

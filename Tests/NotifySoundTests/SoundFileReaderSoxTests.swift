import Foundation
import NotifyTestSupport
import Testing

@testable import NotifySound

/// The reader against files written by sox, with `soxi` as the reference.
@Suite(
  .enabled(if: Sox.available, "sox and soxi are needed (apt-get install sox libsox-fmt-all)"), .ownThreads)
struct SoundFileReaderSoxTests {
  /// One file sox writes and what the reader must find in it.
  struct Fixture: CustomTestStringConvertible, Sendable {
    let name: String
    let options: [String]
    var seconds: Double = 0.5
    let container: SoundContainer
    let encoding: SoundEncoding
    var extensible = false
    var valid = true
    /// How far the reader may differ from soxi, in frames: IMA ADPCM files pad their
    /// last block, which soxi counts and the reader (using `fact`) does not.
    var frameTolerance: Int64 = 0
    var testDescription: String { name }
  }

  static let fixtures: [Fixture] = [
    Fixture(
      name: "pcm16.wav", options: ["-r", "8000", "-c", "1", "-b", "16", "-e", "signed-integer"],
      container: .wav, encoding: .linearPCM(.signedInteger)),
    Fixture(
      name: "pcm8.wav", options: ["-r", "11025", "-c", "1", "-b", "8", "-e", "unsigned-integer"],
      container: .wav, encoding: .linearPCM(.unsignedInteger)),
    Fixture(
      name: "pcm24-extensible.wav", options: ["-r", "44100", "-c", "2", "-b", "24", "-e", "signed-integer"],
      container: .wav, encoding: .linearPCM(.signedInteger), extensible: true),
    Fixture(
      name: "pcm16-6ch-extensible.wav", options: ["-r", "48000", "-c", "6", "-b", "16"],
      container: .wav, encoding: .linearPCM(.signedInteger), extensible: true),
    Fixture(
      name: "float32.wav", options: ["-r", "22050", "-c", "1", "-b", "32", "-e", "floating-point"],
      container: .wav, encoding: .linearPCM(.float)),
    Fixture(
      name: "mulaw.wav", options: ["-r", "8000", "-c", "1", "-e", "u-law"], container: .wav, encoding: .muLaw),
    Fixture(
      name: "alaw.wav", options: ["-r", "8000", "-c", "2", "-e", "a-law"], container: .wav, encoding: .aLaw),
    Fixture(
      name: "ima-adpcm.wav", options: ["-r", "8000", "-c", "1", "-e", "ima-adpcm"],
      container: .wav, encoding: .imaADPCM, frameTolerance: 505),
    Fixture(
      name: "ima-adpcm-stereo.wav", options: ["-r", "22050", "-c", "2", "-e", "ima-adpcm"], seconds: 1.3,
      container: .wav, encoding: .imaADPCM, frameTolerance: 1017),
    Fixture(
      name: "pcm16.aiff", options: ["-r", "44100", "-c", "2", "-b", "16", "-t", "aiff"],
      container: .aiff, encoding: .linearPCM(.signedInteger)),
    Fixture(
      name: "pcm24.aiff", options: ["-r", "96000", "-c", "1", "-b", "24", "-t", "aiff"],
      container: .aiff, encoding: .linearPCM(.signedInteger)),
    Fixture(
      name: "pcm16.aifc", options: ["-r", "16000", "-c", "1", "-b", "16", "-t", "aifc"],
      container: .aifc, encoding: .linearPCM(.signedInteger)),
    Fixture(
      name: "float32.aifc",
      options: ["-r", "8000", "-c", "1", "-b", "32", "-e", "floating-point", "-t", "aifc"],
      container: .aifc, encoding: .linearPCM(.float)),
    Fixture(
      name: "pcm16.caf", options: ["-r", "44100", "-c", "2", "-b", "16", "-t", "caf"],
      container: .caf, encoding: .linearPCM(.signedInteger)),
    Fixture(
      name: "float64.caf",
      options: ["-r", "8000", "-c", "1", "-b", "64", "-e", "floating-point", "-t", "caf"],
      container: .caf, encoding: .linearPCM(.float)),
    Fixture(
      name: "mulaw.caf", options: ["-r", "8000", "-c", "1", "-e", "u-law", "-t", "caf"], container: .caf,
      encoding: .muLaw),
    Fixture(
      name: "alaw.caf", options: ["-r", "8000", "-c", "1", "-e", "a-law", "-t", "caf"], container: .caf,
      encoding: .aLaw),
    Fixture(
      name: "29.9s.wav", options: ["-r", "8000", "-c", "1", "-b", "16"], seconds: 29.9,
      container: .wav, encoding: .linearPCM(.signedInteger)),
    Fixture(
      name: "30s.wav", options: ["-r", "8000", "-c", "1", "-b", "16"], seconds: 30,
      container: .wav, encoding: .linearPCM(.signedInteger), valid: false),
    Fixture(
      name: "40s.aiff", options: ["-r", "8000", "-c", "1", "-b", "16", "-t", "aiff"], seconds: 40,
      container: .aiff, encoding: .linearPCM(.signedInteger), valid: false),
    Fixture(
      name: "40s.caf", options: ["-r", "8000", "-c", "1", "-e", "u-law", "-t", "caf"], seconds: 40,
      container: .caf, encoding: .muLaw, valid: false),
  ]

  @Test("reader fields match soxi", arguments: fixtures)
  func matchesSoxi(_ fixture: Fixture) throws {
    // Given a file written by sox
    let folder = TemporaryDirectory()
    let path = folder.file(fixture.name)
    try Sox.generate(path, seconds: fixture.seconds, options: fixture.options)

    // When the reader reads it
    let info = try SoundFileReader.read(path: path).get()

    // Then container and encoding are what sox wrote, and the numbers are soxi's
    #expect(info.container == fixture.container)
    #expect(info.encoding == fixture.encoding)
    #expect(info.isExtensible == fixture.extensible)
    #expect(info.channels == Int(try Sox.info("c", path)))
    #expect(info.sampleRate == Double(try Sox.info("r", path)))
    let soxFrames = try #require(Int64(try Sox.info("s", path)))
    let frames = try #require(info.frames)
    #expect(abs(frames - soxFrames) <= fixture.frameTolerance, "reader \(frames) frames, soxi \(soxFrames)")
    let duration = try #require(info.duration)
    let soxDuration = try #require(Double(try Sox.info("D", path)))
    let oneSample = 1 / info.sampleRate
    #expect(abs(duration - soxDuration) <= oneSample + Double(fixture.frameTolerance) * oneSample)
    if case .linearPCM = info.encoding {
      #expect(info.bitsPerSample == Int(try Sox.info("b", path)))
    }

    // And the verdict follows the 30 s rule on soxi's duration
    let verdict = SoundRules.verdict(for: info)
    #expect(verdict.isValid == fixture.valid)
    #expect(verdict.isValid == (soxDuration < 30 - oneSample / 2))
  }

  @Test("a 40 s file is refused with its length")
  func fortySecondsReason() throws {
    // Given a 40 s WAV
    let folder = TemporaryDirectory()
    let path = folder.file("long.wav")
    try Sox.generate(path, seconds: 40, options: ["-r", "8000", "-c", "1", "-b", "16"])

    // When it is checked
    let check = try SoundCheck.file(path)

    // Then the reason names the length and the rule
    #expect(check.verdict.reason == "lasts 40.0 s; notification sounds must be shorter than 30 s")
  }

  /// A format sox can write that notification sounds may not use.
  struct Foreign: CustomTestStringConvertible, Sendable {
    let name: String
    let type: String
    let says: String
    var testDescription: String { name }
  }

  @Test(
    "other formats are named in the reason",
    arguments: [
      Foreign(name: "tone.mp3", type: "mp3", says: "is an MP3 file"),
      Foreign(name: "tone.ogg", type: "ogg", says: "is an Ogg Vorbis file"),
      Foreign(name: "tone.flac", type: "flac", says: "is a FLAC file"),
      Foreign(name: "tone.au", type: "au", says: "is a Sun/NeXT AU file"),
      // The extension lies: the bytes decide.
      Foreign(name: "mp3-named.wav", type: "mp3", says: "is an MP3 file"),
    ])
  func otherFormats(_ foreign: Foreign) throws {
    // (known only per case: this one case is reported skipped, the others still run)
    if !Sox.formats.contains(foreign.type) {
      try Test.cancel("this sox cannot write \(foreign.type) (apt-get install libsox-fmt-all)")
    }
    // Given a file sox wrote in a format that is not allowed
    let folder = TemporaryDirectory()
    let path = folder.file(foreign.name)
    try Sox.generate(path, seconds: 0.5, options: ["-r", "8000", "-c", "1", "-t", foreign.type])

    // When it is checked
    let check = try SoundCheck.file(path)

    // Then it is invalid and the reason says what it is and what is allowed
    let reason = try #require(check.verdict.reason)
    #expect(reason.hasPrefix(foreign.says))
    #expect(reason.contains("WAV, AIFF or CAF holding Linear PCM, IMA ADPCM, µLaw or aLaw"))
    #expect(check.info == nil)
  }

  /// A sox file cut short.
  struct Cut: CustomTestStringConvertible, Sendable {
    let name: String
    let type: String
    var testDescription: String { name }
  }

  @Test(
    "a file cut short is truncated",
    arguments: [
      Cut(name: "cut.wav", type: "wav"), Cut(name: "cut.aiff", type: "aiff"),
      Cut(name: "cut.caf", type: "caf"),
    ])
  func truncated(_ cut: Cut) throws {
    // Given a 1 s file with its second half cut off
    let folder = TemporaryDirectory()
    let path = folder.file(cut.name)
    try Sox.generate(path, seconds: 1, options: ["-r", "8000", "-c", "1", "-b", "16", "-t", cut.type])
    let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    #expect(truncate(path, off_t(size / 2)) == 0)

    // When it is read
    let result = try SoundFileReader.read(path: path)

    // Then the reader says truncated, with the claim and what is there
    guard case .failure(.truncated(_, let claimed, let present)) = result else {
      Issue.record("expected truncated, got \(result)")
      return
    }
    #expect(claimed > present)
    #expect(SoundRules.verdict(for: result).reason?.hasPrefix("is truncated") == true)
  }

  @Test("a CAF written by hand is a real CAF: soxi reads it the same way")
  func handMadeCAF() throws {
    // Given a CAF written with the test's byte writer, and the same with data size -1
    // ("to the end of the file", which libsndfile does not accept, so soxi sees only the first)
    let folder = TemporaryDirectory()
    let audio = (0..<4000).flatMap { SoundBytes.be16(($0 * 97) % 30000) }
    func caf(unknownSize: Bool) -> [UInt8] {
      SoundBytes.caf(
        formatID: "lpcm", flags: 0, bytesPerPacket: 2, framesPerPacket: 1, channels: 1, bits: 16,
        rate: 8000, audio: audio, dataSizeUnknown: unknownSize)
    }
    let sized = folder.write("hand.caf", caf(unknownSize: false))
    let open = folder.write("open-ended.caf", caf(unknownSize: true))

    // When the reader and soxi read them
    let info = try SoundFileReader.read(path: sized).get()
    let openInfo = try SoundFileReader.read(path: open).get()

    // Then they agree, and "to the end of the file" counts the same frames
    #expect(info.container == .caf)
    #expect(info.frames == Int64(try Sox.info("s", sized)))
    #expect(info.sampleRate == Double(try Sox.info("r", sized)))
    #expect(info.channels == Int(try Sox.info("c", sized)))
    #expect(openInfo == info)
  }
}

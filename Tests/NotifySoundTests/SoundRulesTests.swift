import Testing

@testable import NotifySound

/// The verdicts of SPEC.md §4 as a pure function of what the reader found.
struct SoundRulesTests {
  static func info(_ encoding: SoundEncoding, frames: Int64?, rate: Double = 8000) -> SoundFileInfo {
    SoundFileInfo(
      container: .wav, encoding: encoding, channels: 1, sampleRate: rate, bitsPerSample: 16, frames: frames)
  }

  struct Duration: CustomTestStringConvertible, Sendable {
    let frames: Int64
    let valid: Bool
    let reason: String?
    var testDescription: String { "\(frames) frames at 8 kHz" }
  }

  @Test(
    "strictly under 30 s",
    arguments: [
      Duration(frames: 0, valid: true, reason: nil),
      Duration(frames: 239_999, valid: true, reason: nil),
      Duration(
        frames: 240_000, valid: false, reason: "lasts 30.0 s; notification sounds must be shorter than 30 s"),
      Duration(
        frames: 240_500, valid: false, reason: "lasts 30.0 s; notification sounds must be shorter than 30 s"),
      Duration(
        frames: 320_000, valid: false, reason: "lasts 40.0 s; notification sounds must be shorter than 30 s"),
    ])
  func duration(_ duration: Duration) {
    let verdict = SoundRules.verdict(for: Self.info(.linearPCM(.signedInteger), frames: duration.frames))
    #expect(verdict.isValid == duration.valid)
    #expect(verdict.reason == duration.reason)
  }

  @Test(
    "every allowed encoding is valid; others are named",
    arguments: [
      (SoundEncoding.linearPCM(.signedInteger), true), (.linearPCM(.unsignedInteger), true),
      (.linearPCM(.float), true),
      (.imaADPCM, true), (.muLaw, true), (.aLaw, true), (.other("GSM 6.10"), false),
    ])
  func encodings(_ encoding: SoundEncoding, _ valid: Bool) {
    let verdict = SoundRules.verdict(for: Self.info(encoding, frames: 800))
    #expect(verdict.isValid == valid)
    if !valid {
      #expect(
        verdict.reason
          == "is a WAV file holding GSM 6.10; notification sounds must be WAV, AIFF or CAF holding Linear PCM, IMA ADPCM, µLaw or aLaw"
      )
    }
  }

  @Test(
    "reasons for files that are not usable sounds",
    arguments: [
      (SoundFileProblem.empty, "is empty (0 bytes)", "copy the sound file again"),
      (
        .otherFormat(name: "an MP3 file", fileExtension: "mp3", convertible: true),
        "is an MP3 file; notification sounds must be WAV, AIFF or CAF holding Linear PCM, IMA ADPCM, µLaw or aLaw",
        "convert with: sox in.mp3 out.wav"
      ),
      (
        .otherFormat(name: "an MPEG-4 audio (M4A/AAC) file", fileExtension: "m4a", convertible: false),
        "is an MPEG-4 audio (M4A/AAC) file; notification sounds must be WAV, AIFF or CAF holding Linear PCM, IMA ADPCM, µLaw or aLaw",
        "export or convert it to a 16-bit WAV file"
      ),
      (
        .truncated(container: .caf, claimedBytes: 1000, presentBytes: 10),
        "is truncated: its CAF header claims 1000 bytes of data but the file holds 10",
        "copy or export the file again"
      ),
      (
        .damaged(container: .aiff, detail: "it has no 'COMM' chunk"),
        "is a damaged AIFF file: it has no 'COMM' chunk",
        "export the sound again as a 16-bit WAV file"
      ),
    ])
  func problems(_ problem: SoundFileProblem, _ reason: String, _ fix: String) {
    #expect(SoundRules.verdict(for: problem) == .invalid(reason: reason, fix: fix))
  }

  @Test("tenths are rounded down, so nothing under 30 s reads as 30.0")
  func tenths() {
    #expect(SoundRules.formatTenths(29.99) == "29.9")
    #expect(SoundRules.formatTenths(40) == "40.0")
    #expect(SoundRules.formatTenths(0.05) == "0.0")
  }
}

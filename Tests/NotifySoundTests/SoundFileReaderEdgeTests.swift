import Foundation
import Testing

@testable import NotifySound

/// The reader on hand-made files: odd padding, unusual chunk orders, unknown chunks,
/// huge sizes, empty and foreign files.
struct SoundFileReaderEdgeTests {
  typealias B = SoundBytes

  /// What reading a case must give.
  enum Expectation: Sendable {
    /// A sound with this many frames and this encoding.
    case sound(frames: Int64, SoundEncoding)
    /// No sound; the verdict's reason contains this text.
    case refused(String)
  }

  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: [UInt8]
    let expected: Expectation
    var testDescription: String { name }
  }

  static let fmt16 = B.riffChunk(
    "fmt ", B.wavFormat(tag: 1, channels: 1, rate: 8000, bits: 16, blockAlign: 2))
  static func data(_ frames: Int) -> [UInt8] { B.riffChunk("data", [UInt8](repeating: 0, count: frames * 2)) }

  static let cases: [Case] = [
    Case(
      name: "plain 16-bit WAV", bytes: B.pcmWAV(frames: 800),
      expected: .sound(frames: 800, .linearPCM(.signedInteger))),
    Case(
      name: "odd-sized unknown chunk before fmt is skipped with its pad byte",
      bytes: B.wav([B.riffChunk("junk", [1, 2, 3]), fmt16, data(100)]),
      expected: .sound(frames: 100, .linearPCM(.signedInteger))),
    Case(
      name: "data before fmt, LIST after",
      bytes: B.wav([data(250), fmt16, B.riffChunk("LIST", B.ascii("INFOISFT") + B.le32(3) + [65, 66, 0])]),
      expected: .sound(frames: 250, .linearPCM(.signedInteger))),
    Case(
      name: "odd data size without the final pad byte",
      bytes: Array(
        B.wav([
          B.riffChunk("fmt ", B.wavFormat(tag: 1, channels: 1, rate: 8000, bits: 8, blockAlign: 1)),
          B.riffChunk("data", [128, 128, 128]),
        ]).dropLast()),
      expected: .sound(frames: 3, .linearPCM(.unsignedInteger))),
    Case(
      name: "extensible float",
      bytes: B.wav([
        B.riffChunk(
          "fmt ",
          B.wavFormat(
            tag: 0xFFFE, channels: 2, rate: 48000, bits: 32, blockAlign: 8,
            extra: B.extensible(validBits: 32, subformat: 3))),
        B.riffChunk("data", [UInt8](repeating: 0, count: 8 * 480)),
      ]),
      expected: .sound(frames: 480, .linearPCM(.float))),
    Case(
      name: "extensible µLaw",
      bytes: B.wav([
        B.riffChunk(
          "fmt ",
          B.wavFormat(
            tag: 0xFFFE, channels: 1, rate: 8000, bits: 8, blockAlign: 1,
            extra: B.extensible(validBits: 8, subformat: 7))),
        B.riffChunk("data", [UInt8](repeating: 0xFF, count: 400)),
      ]),
      expected: .sound(frames: 400, .muLaw)),
    Case(
      name: "extensible with an unknown subformat GUID",
      bytes: B.wav([
        B.riffChunk(
          "fmt ",
          B.wavFormat(
            tag: 0xFFFE, channels: 1, rate: 8000, bits: 16, blockAlign: 2,
            extra: B.le16(16) + B.le32(0) + [UInt8](repeating: 0x42, count: 16))),
        data(10),
      ]),
      expected: .refused("holding an unknown extensible subformat 42424242-4242-4242-4242-424242424242")),
    Case(
      name: "MP3 inside a WAV",
      bytes: B.wav([
        B.riffChunk("fmt ", B.wavFormat(tag: 0x55, channels: 1, rate: 8000, bits: 0, blockAlign: 1)),
        data(10),
      ]),
      expected: .refused("is a WAV file holding MPEG Layer 3 (MP3)")),
    Case(
      name: "Microsoft ADPCM is not IMA ADPCM",
      bytes: B.wav([
        B.riffChunk("fmt ", B.wavFormat(tag: 2, channels: 1, rate: 8000, bits: 4, blockAlign: 256)), data(10),
      ]),
      expected: .refused("holding Microsoft ADPCM")),
    Case(
      name: "IMA ADPCM: blocks of 505 frames, fact trims the padded last block",
      bytes: B.wav([
        B.riffChunk(
          "fmt ",
          B.wavFormat(tag: 0x11, channels: 1, rate: 8000, bits: 4, blockAlign: 256, extra: B.le16(505))),
        B.riffChunk("fact", B.le32(1500)),
        B.riffChunk("data", [UInt8](repeating: 0, count: 256 * 3)),
      ]),
      expected: .sound(frames: 1500, .imaADPCM)),
    Case(
      name: "IMA ADPCM without fact or samples-per-block",
      bytes: B.wav([
        B.riffChunk("fmt ", B.wavFormat(tag: 0x11, channels: 2, rate: 8000, bits: 4, blockAlign: 512)),
        B.riffChunk("data", [UInt8](repeating: 0, count: 512 * 2)),
      ]),
      expected: .sound(frames: 2 * 505, .imaADPCM)),
    Case(
      name: "AIFF with COMM after SSND and an unknown chunk",
      bytes: {
        let aiff = B.aiff(frames: 300)
        // Reorder: FORM header, then SSND, ANNO, COMM.
        let comm = Array(aiff[12..<(12 + 8 + 18)])
        let ssnd = Array(aiff[(12 + 8 + 18)...])
        let body = B.ascii("AIFF") + ssnd + B.iffChunk("ANNO", B.ascii("odd")) + comm
        return B.ascii("FORM") + B.be32(body.count) + body
      }(),
      expected: .sound(frames: 300, .linearPCM(.signedInteger))),
    Case(
      name: "AIFF with fewer frames in COMM than in SSND counts COMM's",
      bytes: B.aiff(frames: 100, audioBytes: 400),
      expected: .sound(frames: 100, .linearPCM(.signedInteger))),
    Case(
      name: "AIFC sowt (little-endian PCM)",
      bytes: B.aiff(frames: 64, compression: "sowt"),
      expected: .sound(frames: 64, .linearPCM(.signedInteger))),
    Case(
      name: "AIFC ima4: 34-byte packets of 64 frames",
      bytes: B.aiff(frames: 640, channels: 1, compression: "ima4", audioBytes: 34 * 10),
      expected: .sound(frames: 640, .imaADPCM)),
    Case(
      name: "AIFC µLaw",
      bytes: B.aiff(frames: 200, bits: 16, compression: "ulaw", bytesPerFrame: 1),
      expected: .sound(frames: 200, .muLaw)),
    Case(
      name: "AIFC GSM is refused by name",
      bytes: B.aiff(frames: 10, compression: "GSM ", audioBytes: 33),
      expected: .refused("is an AIFC file holding GSM 6.10 ('GSM ')")),
    Case(
      name: "CAF ima4, stereo",
      bytes: B.caf(
        formatID: "ima4", bytesPerPacket: 68, framesPerPacket: 64, channels: 2, bits: 0,
        audio: [UInt8](repeating: 0, count: 68 * 25)),
      expected: .sound(frames: 64 * 25, .imaADPCM)),
    Case(
      name: "CAF ima4 with data to the end of the file and a pakt chunk before it",
      bytes: B.caf(
        formatID: "ima4", bytesPerPacket: 34, framesPerPacket: 64, channels: 1, bits: 0,
        audio: [UInt8](repeating: 0, count: 34 * 7 + 5), dataSizeUnknown: true,
        extraChunks: [B.cafChunk("pakt", [UInt8](repeating: 0, count: 24))]),
      expected: .sound(frames: 64 * 7, .imaADPCM)),
    Case(
      name: "CAF float little-endian",
      bytes: B.caf(
        formatID: "lpcm", flags: 3, bytesPerPacket: 4, framesPerPacket: 1, channels: 1, bits: 32,
        rate: 44100, audio: [UInt8](repeating: 0, count: 4 * 441)),
      expected: .sound(frames: 441, .linearPCM(.float))),
    Case(
      name: "CAF AAC is refused by name",
      bytes: B.caf(
        formatID: "aac ", bytesPerPacket: 0, framesPerPacket: 1024, channels: 2, bits: 0, audio: [1, 2, 3]),
      expected: .refused("is a CAF file holding AAC ('aac ')")),
    Case(name: "empty file", bytes: [], expected: .refused("is empty")),
    Case(
      name: "a text file named .wav", bytes: B.ascii("Hello, this is not a sound.\nReally.\n"),
      expected: .refused("is text, not audio")),
    Case(
      name: "RIFF but AVI", bytes: B.ascii("RIFF") + B.le32(4) + B.ascii("AVI "),
      expected: .refused("is a RIFF 'AVI ' file")),
    Case(
      name: "a PNG image", bytes: [0x89] + B.ascii("PNG\r\n") + [0x1A, 0x0A, 0, 0],
      expected: .refused("is a PNG image")),
    Case(
      name: "binary noise", bytes: [0x00, 0x01, 0x02, 0xF3, 0x99, 0x00],
      expected: .refused("not a sound file notify recognises")),
    Case(name: "a WAV header and nothing else", bytes: B.wav([]), expected: .refused("has no 'fmt ' chunk")),
    Case(
      name: "zero padding after the chunks is ignored",
      bytes: B.wav([Self.fmt16, Self.data(20)]) + [UInt8](repeating: 0, count: 50_000),
      expected: .sound(frames: 20, .linearPCM(.signedInteger))),
    Case(
      name: "data chunk claiming 4 GiB",
      bytes: B.wav([fmt16, B.ascii("data") + B.le32(0xFFFF_FFF0) + [UInt8](repeating: 0, count: 100)]),
      expected: .refused(
        "is truncated: its WAV header claims 4294967280 bytes of data but the file holds 100")),
    Case(
      name: "unknown chunk with a huge size before fmt",
      bytes: B.wav([B.ascii("junk") + B.le32(0x7FFF_FFFF), fmt16, data(10)]),
      expected: .refused("is truncated")),
    Case(name: "no data chunk", bytes: B.wav([fmt16]), expected: .refused("has no 'data' chunk")),
    Case(name: "no fmt chunk", bytes: B.wav([data(10)]), expected: .refused("has no 'fmt ' chunk")),
    Case(
      name: "zero channels",
      bytes: B.wav([
        B.riffChunk("fmt ", B.wavFormat(tag: 1, channels: 0, rate: 8000, bits: 16, blockAlign: 2)), data(10),
      ]),
      expected: .refused("claims 0 channels")),
    Case(
      name: "zero sample rate",
      bytes: B.wav([
        B.riffChunk("fmt ", B.wavFormat(tag: 1, channels: 1, rate: 0, bits: 16, blockAlign: 2)), data(10),
      ]),
      expected: .refused("sample rate 0.0 Hz is not plausible")),
    Case(
      name: "AIFF COMM claiming more frames than SSND holds",
      bytes: B.aiff(frames: 8000, audioBytes: 1000),
      expected: .refused("is truncated: its AIFF header claims 16000 bytes of data but the file holds 1000")),
    Case(
      name: "AIFF sample rate that is not a number",
      bytes: {
        var bytes = B.aiff(frames: 10)
        bytes[12 + 8 + 8] = 0x7F
        bytes[12 + 8 + 9] = 0xFF
        return bytes
      }(),
      expected: .refused("its sample rate is not a number")),
    Case(
      name: "CAF data chunk claiming Int64.max bytes",
      bytes: B.ascii("caff") + B.be16(1) + B.be16(0)
        + B.cafChunk(
          "desc",
          B.be64(Double(8000).bitPattern) + B.ascii("lpcm") + B.be32(0) + B.be32(2) + B.be32(1) + B.be32(1)
            + B.be32(16))
        + B.cafChunk("data", [0, 0, 0, 0, 1, 2], declaredSize: .max),
      expected: .refused("is truncated")),
    Case(
      name: "CAF chunk with a negative size",
      bytes: B.ascii("caff") + B.be16(1) + B.be16(0) + B.cafChunk("free", [], declaredSize: -5),
      expected: .refused("its 'free' chunk has a negative size")),
    Case(
      name: "CAF version 2",
      bytes: B.ascii("caff") + B.be16(2) + B.be16(0),
      expected: .refused("its file version is not 1")),
  ]

  @Test("hand-made files", arguments: cases)
  func reads(_ testCase: Case) {
    // Given the bytes of a file
    let source = MemoryByteSource(testCase.bytes)

    // When the reader reads them
    let (result, bytesRead) = SoundFileReader.measure(source)

    // Then it finds what the case expects, within the read budget
    #expect(bytesRead <= SoundFileReader.readBudget)
    switch (testCase.expected, result) {
    case (.sound(let frames, let encoding), .success(let info)):
      #expect(info.frames == frames)
      #expect(info.encoding == encoding)
    case (.refused(let text), _):
      let reason = SoundRules.verdict(for: result).reason ?? "(valid)"
      #expect(reason.contains(text), "reason: \(reason)")
    case (.sound, .failure(let problem)):
      Issue.record("expected a sound, got \(problem): \(SoundRules.verdict(for: problem))")
    }
  }

  @Test("more chunks than the walk allows: refused after a bounded read")
  func tooManyChunks() {
    // Given a WAV with 20000 empty unknown chunks before its fmt
    let filler = (0..<20_000).flatMap { _ in B.riffChunk("junk", []) }
    let bytes = B.wav([filler, Self.fmt16, Self.data(10)])

    // When it is read
    let (result, bytesRead) = SoundFileReader.measure(MemoryByteSource(bytes))

    // Then it is refused as damaged, having read only a bounded amount
    #expect(
      SoundRules.verdict(for: result).reason?.contains("more than \(SoundFileReader.maxChunks) chunks")
        == true)
    #expect(bytesRead <= SoundFileReader.readBudget)
  }

  /// A known 80-bit encoding of a sample rate.
  struct Extended: CustomTestStringConvertible, Sendable {
    let rate: Double
    let bytes: [UInt8]
    var testDescription: String { "\(rate) Hz" }
  }

  @Test(
    "AIFF 80-bit sample rates",
    arguments: [
      Extended(rate: 44100, bytes: [0x40, 0x0E, 0xAC, 0x44, 0, 0, 0, 0, 0, 0]),
      Extended(rate: 48000, bytes: [0x40, 0x0E, 0xBB, 0x80, 0, 0, 0, 0, 0, 0]),
      Extended(rate: 8000, bytes: [0x40, 0x0B, 0xFA, 0x00, 0, 0, 0, 0, 0, 0]),
      Extended(rate: 22050, bytes: [0x40, 0x0D, 0xAC, 0x44, 0, 0, 0, 0, 0, 0]),
      Extended(rate: 11025, bytes: [0x40, 0x0C, 0xAC, 0x44, 0, 0, 0, 0, 0, 0]),
      Extended(rate: 96000, bytes: [0x40, 0x0F, 0xBB, 0x80, 0, 0, 0, 0, 0, 0]),
      Extended(rate: 1, bytes: [0x3F, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0]),
      Extended(rate: 0.5, bytes: [0x3F, 0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0]),
      Extended(rate: 8000.5, bytes: [0x40, 0x0B, 0xFA, 0x04, 0, 0, 0, 0, 0, 0]),
      Extended(rate: -44100, bytes: [0xC0, 0x0E, 0xAC, 0x44, 0, 0, 0, 0, 0, 0]),
      Extended(rate: 0, bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    ])
  func extendedFloat(_ known: Extended) {
    // Given the 10 bytes; When decoded; Then the value is exact
    #expect(ExtendedFloat.value(known.bytes[...]) == known.rate)
    // And the test's own encoder agrees for positive values
    if known.rate > 0 { #expect(SoundBytes.extended80(known.rate) == known.bytes) }
  }

  @Test("80-bit infinities and NaNs are not numbers")
  func extendedFloatSpecials() {
    #expect(ExtendedFloat.value([0x7F, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0][...]) == nil)
    #expect(ExtendedFloat.value([0xFF, 0xFF, 0xC0, 0, 0, 0, 0, 0, 0, 1][...]) == nil)
    #expect(ExtendedFloat.value([0x40, 0x0E][...]) == nil)
  }

  /// True when the temporary folder's file system holds a sparse 5 GiB file (tried once).
  static let holdsSparseFiles: Bool = {
    let folder = TemporaryDirectory("notify-sparse-probe")
    let path = folder.write("probe", [])
    return truncate(path, 5 << 30) == 0
  }()

  @Test(
    "a 5 GiB sparse file is judged from a few bytes of it",
    .enabled(if: holdsSparseFiles, "needs a temporary folder that can hold a sparse 5 GiB file"))
  func hugeSparseFile() throws {
    // Given a WAV header claiming 4 GiB of 16-bit audio at 8 kHz, in a sparse file that
    // really is 5 GiB long
    let folder = TemporaryDirectory()
    let header = Array(B.wav([Self.fmt16, B.ascii("data") + B.le32(0xFFFF_FF00)]))
    let path = folder.write("huge.wav", header)
    try #require(truncate(path, 5 << 30) == 0, "truncate: \(String(cString: strerror(errno)))")

    // When it is read through the file source
    let source = try FileByteSource(path: path)
    let (result, bytesRead) = SoundFileReader.measure(source)

    // Then the duration comes from the data present, and little was read
    let info = try result.get()
    #expect(info.frames == Int64(0xFFFF_FF00) / 2)
    #expect(SoundRules.verdict(for: info).reason?.hasPrefix("lasts 268435.4 s") == true)
    #expect(bytesRead <= 1024)
  }
}

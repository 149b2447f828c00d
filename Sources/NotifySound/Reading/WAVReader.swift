/// Reads RIFF/WAVE: the `fmt ` chunk (including WAVE_FORMAT_EXTENSIBLE and its
/// subformat GUID), the optional `fact` chunk, and the size of the `data` chunk.
/// Chunks may come in any order; unknown ones are skipped.
struct WAVReader {
  let source: MeteredSource

  /// The tail shared by every KSDATAFORMAT_SUBTYPE GUID whose first two bytes are a
  /// classic format tag: `xxxx0000-0000-0010-8000-00aa00389b71`.
  static let subformatSuffix: [UInt8] = [
    0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71,
  ]

  /// What the `fmt ` chunk says.
  struct Format {
    var tag: UInt16
    var channels: Int
    var sampleRate: Double
    var blockAlign: Int
    var bits: Int
    var samplesPerBlock: Int?
    var isExtensible: Bool
    var unknownSubformat: String?
  }

  func read() throws(SoundFileProblem) -> SoundFileInfo {
    var format: Format?
    var factFrames: Int64?
    var data: Chunk?
    var cutShort: Chunk?
    let walker = ChunkWalker(source: source, layout: .riff, container: .wav)
    let finished = try walker.walk(from: 12) {
      (chunk) throws(SoundFileProblem) -> Bool in
      switch chunk.id {
      case "fmt " where format == nil:
        format = try parseFormat(chunk)
      case "fact" where factFrames == nil && chunk.present >= 4:
        factFrames = try source.read(at: chunk.body, count: 4).uint32LE(0).map(Int64.init)
      case "data" where data == nil:
        data = chunk
      default:
        break
      }
      if chunk.overruns { cutShort = chunk }
      // Stop once everything is known; `fact` matters only to IMA ADPCM.
      return format == nil || data == nil || (factFrames == nil && format?.tag == 0x11)
    }
    guard let format, let data else {
      if !finished { throw walker.tooManyChunks }
      if let cutShort {
        throw .truncated(container: .wav, claimedBytes: cutShort.size, presentBytes: cutShort.present)
      }
      throw .damaged(container: .wav, detail: "it has no '\(format == nil ? "fmt " : "data")' chunk")
    }
    try SoundFileReader.checkPlausible(
      container: .wav, channels: format.channels, sampleRate: format.sampleRate)
    if data.overruns {
      throw .truncated(container: .wav, claimedBytes: data.size, presentBytes: data.present)
    }
    let encoding = Self.encoding(of: format)
    let frames = try Self.frames(in: data.present, format: format, encoding: encoding, fact: factFrames)
    return SoundFileInfo(
      container: .wav, isExtensible: format.isExtensible, encoding: encoding,
      channels: format.channels, sampleRate: format.sampleRate,
      bitsPerSample: format.bits > 0 ? format.bits : nil, frames: frames)
  }

  private func parseFormat(_ chunk: Chunk) throws(SoundFileProblem) -> Format {
    guard chunk.present >= 16 else {
      if chunk.overruns {
        throw .truncated(container: .wav, claimedBytes: chunk.size, presentBytes: chunk.present)
      }
      throw .damaged(container: .wav, detail: "its 'fmt ' chunk is only \(chunk.size) bytes long")
    }
    let count = Int(min(chunk.present, Int64(SoundFileReader.maxHeaderChunk)))
    let bytes = try source.read(at: chunk.body, count: count)
    var format = Format(
      tag: bytes.uint16LE(0) ?? 0, channels: Int(bytes.uint16LE(2) ?? 0),
      sampleRate: Double(bytes.uint32LE(4) ?? 0), blockAlign: Int(bytes.uint16LE(12) ?? 0),
      bits: Int(bytes.uint16LE(14) ?? 0), samplesPerBlock: nil, isExtensible: false,
      unknownSubformat: nil)
    let extraSize = Int(bytes.uint16LE(16) ?? 0)
    if format.tag == 0xFFFE {
      format.isExtensible = true
      guard extraSize >= 22, let guid = bytes.slice(24, 16) else {
        throw .damaged(container: .wav, detail: "its WAVE_FORMAT_EXTENSIBLE header is incomplete")
      }
      if Array(guid.dropFirst(2)) == Self.subformatSuffix {
        format.tag = UInt16(guid[guid.startIndex]) | UInt16(guid[guid.startIndex + 1]) << 8
      } else {
        format.unknownSubformat = Self.guidText(Array(guid))
      }
    }
    if format.tag == 0x11, extraSize >= 2, let perBlock = bytes.uint16LE(18), perBlock > 0 {
      format.samplesPerBlock = Int(perBlock)
    }
    return format
  }

  static func encoding(of format: Format) -> SoundEncoding {
    if let guid = format.unknownSubformat { return .other("an unknown extensible subformat \(guid)") }
    switch format.tag {
    case 0x0001: return .linearPCM(format.bits <= 8 ? .unsignedInteger : .signedInteger)
    case 0x0003: return .linearPCM(.float)
    case 0x0006: return .aLaw
    case 0x0007: return .muLaw
    case 0x0011: return .imaADPCM
    default:
      return .other(
        tagNames[format.tag]
          ?? "format tag 0x\(String(format.tag, radix: 16, uppercase: true).leftPadded(to: 4))")
    }
  }

  /// Names of format tags met in the wild that notification sounds may not use.
  static let tagNames: [UInt16: String] = [
    0x0002: "Microsoft ADPCM", 0x0022: "DSP Group TrueSpeech", 0x0031: "GSM 6.10",
    0x0040: "G.721 ADPCM", 0x0050: "MPEG audio", 0x0055: "MPEG Layer 3 (MP3)",
    0x0064: "G.726 ADPCM", 0x00FF: "AAC", 0x0161: "Windows Media Audio",
    0x0162: "Windows Media Audio Pro", 0x0163: "Windows Media Audio Lossless",
    0x1610: "AAC", 0x2000: "Dolby AC-3", 0x674F: "Ogg Vorbis", 0x6750: "Ogg Vorbis",
    0x6751: "Ogg Vorbis", 0x676F: "Ogg Vorbis", 0x6770: "Ogg Vorbis", 0x6771: "Ogg Vorbis",
    0xF1AC: "FLAC",
  ]

  static func frames(
    in bytes: Int64, format: Format, encoding: SoundEncoding, fact: Int64?
  ) throws(SoundFileProblem) -> Int64? {
    let channels = format.channels
    switch encoding {
    case .linearPCM, .muLaw, .aLaw:
      let bytesPerSample = encoding == .muLaw || encoding == .aLaw ? 1 : (format.bits + 7) / 8
      guard (1...64).contains(format.bits) || bytesPerSample == 1 else {
        throw .damaged(container: .wav, detail: "it claims \(format.bits) bits per sample")
      }
      let frameSize = format.blockAlign > 0 ? format.blockAlign : bytesPerSample * channels
      guard frameSize >= bytesPerSample * channels else {
        throw .damaged(
          container: .wav, detail: "its block size \(format.blockAlign) is too small for \(channels) channels"
        )
      }
      return bytes / Int64(frameSize)
    case .imaADPCM:
      // Each block starts with a 4-byte header per channel (holding one sample), then
      // 4-bit samples; the block's sample count is in the header or follows from it.
      let headerSize = 4 * channels
      guard format.blockAlign > headerSize else {
        throw .damaged(container: .wav, detail: "its IMA ADPCM block size \(format.blockAlign) is too small")
      }
      let perBlock = format.samplesPerBlock ?? ((format.blockAlign - headerSize) * 2 / channels + 1)
      let blockAlign = Int64(format.blockAlign)
      var frames = bytes / blockAlign * Int64(perBlock)
      let rest = Int(bytes % blockAlign)
      if rest >= headerSize { frames += 1 + Int64((rest - headerSize) * 2 / channels) }
      // `fact` holds the true count when the last block is padded; never trust it for more.
      if let fact { frames = min(frames, fact) }
      return frames
    case .other:
      return nil
    }
  }

  static func guidText(_ bytes: [UInt8]) -> String {
    func hex(_ range: Range<Int>, reversed: Bool) -> String {
      let part = reversed ? Array(bytes[range].reversed()) : Array(bytes[range])
      return part.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
    return [
      hex(0..<4, reversed: true), hex(4..<6, reversed: true), hex(6..<8, reversed: true),
      hex(8..<10, reversed: false), hex(10..<16, reversed: false),
    ].joined(separator: "-")
  }
}

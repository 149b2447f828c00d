/// Reads AIFF and AIFC: the `COMM` chunk (channels, frames, sample size, the 80-bit
/// sample rate and, for AIFC, the compression type) and the `SSND` chunk's extent.
struct AIFFReader {
  let source: MeteredSource
  let container: SoundContainer

  /// What the `COMM` chunk says.
  struct Common {
    var channels: Int
    var frames: Int64
    var bits: Int
    var sampleRate: Double
    var compression: String
  }

  /// The sound data's layout for an AIFC compression type.
  struct Layout {
    var encoding: SoundEncoding
    /// Bits per sample to report.
    var bits: Int?
    /// Bytes per packet of `framesPerPacket` frames, over all channels.
    var packetBytes: Int
    var framesPerPacket: Int
  }

  func read() throws(SoundFileProblem) -> SoundFileInfo {
    var common: Common?
    var sound: Chunk?
    var soundOffset: Int64 = 0
    var cutShort: Chunk?
    let walker = ChunkWalker(source: source, layout: .iff, container: container)
    let finished = try walker.walk(from: 12) {
      (chunk) throws(SoundFileProblem) -> Bool in
      switch chunk.id {
      case "COMM" where common == nil:
        common = try parseCommon(chunk)
      case "SSND" where sound == nil:
        sound = chunk
        soundOffset = Int64(try source.read(at: chunk.body, count: 4).uint32BE(0) ?? 0)
      default:
        break
      }
      if chunk.overruns { cutShort = chunk }
      return common == nil || sound == nil
    }
    if !finished && (common == nil || sound == nil) { throw walker.tooManyChunks }
    guard let common else {
      if let cutShort {
        throw .truncated(container: container, claimedBytes: cutShort.size, presentBytes: cutShort.present)
      }
      throw .damaged(container: container, detail: "it has no 'COMM' chunk")
    }
    try SoundFileReader.checkPlausible(
      container: container, channels: common.channels, sampleRate: common.sampleRate)
    let layout = try Self.layout(of: common, container: container)
    var frames: Int64? = nil
    if layout.encoding.isAllowed {
      frames = try countFrames(
        common: common, layout: layout, sound: sound, offset: soundOffset, cutShort: cutShort)
    }
    return SoundFileInfo(
      container: container, encoding: layout.encoding, channels: common.channels,
      sampleRate: common.sampleRate, bitsPerSample: layout.bits, frames: frames)
  }

  private func countFrames(
    common: Common, layout: Layout, sound: Chunk?, offset: Int64, cutShort: Chunk?
  ) throws(SoundFileProblem) -> Int64 {
    let claimedBytes = Self.bytes(forFrames: common.frames, layout: layout)
    guard let sound else {
      if common.frames == 0 { return 0 }
      if cutShort != nil {
        throw .truncated(container: container, claimedBytes: claimedBytes, presentBytes: 0)
      }
      throw .damaged(container: container, detail: "it has no 'SSND' chunk")
    }
    // SSND: offset (4), block size (4), then `offset` bytes to skip, then the samples.
    let skip = 8 + offset
    guard sound.size >= skip else {
      throw .damaged(container: container, detail: "its 'SSND' chunk is shorter than its data offset")
    }
    let declared = sound.size - skip
    let present = max(0, sound.present - skip)
    let packets = present / Int64(layout.packetBytes)
    let presentFrames = packets * Int64(layout.framesPerPacket)
    if sound.overruns || common.frames > presentFrames {
      throw .truncated(
        container: container, claimedBytes: max(declared, claimedBytes), presentBytes: present)
    }
    return common.frames
  }

  private func parseCommon(_ chunk: Chunk) throws(SoundFileProblem) -> Common {
    let needed: Int64 = container == .aifc ? 22 : 18
    guard chunk.present >= needed else {
      if chunk.overruns {
        throw .truncated(container: container, claimedBytes: chunk.size, presentBytes: chunk.present)
      }
      throw .damaged(container: container, detail: "its 'COMM' chunk is only \(chunk.size) bytes long")
    }
    let bytes = try source.read(at: chunk.body, count: Int(needed))
    guard let rateBytes = bytes.slice(8, 10), let rate = ExtendedFloat.value(rateBytes) else {
      throw .damaged(container: container, detail: "its sample rate is not a number")
    }
    return Common(
      channels: Int(Int16(bitPattern: bytes.uint16BE(0) ?? 0)),
      frames: Int64(bytes.uint32BE(2) ?? 0),
      bits: Int(Int16(bitPattern: bytes.uint16BE(6) ?? 0)),
      sampleRate: rate,
      compression: container == .aifc ? (bytes.fourCC(18) ?? "NONE") : "NONE")
  }

  static func layout(of common: Common, container: SoundContainer) throws(SoundFileProblem) -> Layout {
    let channels = common.channels
    func pcm(_ type: SoundEncoding.SampleType, bits: Int) throws(SoundFileProblem) -> Layout {
      guard (1...64).contains(bits) else {
        throw .damaged(container: container, detail: "it claims \(bits) bits per sample")
      }
      return Layout(
        encoding: .linearPCM(type), bits: bits, packetBytes: (bits + 7) / 8 * channels, framesPerPacket: 1)
    }
    switch common.compression {
    case "NONE", "twos", "sowt": return try pcm(.signedInteger, bits: common.bits)
    case "raw ": return try pcm(.unsignedInteger, bits: 8)
    case "in24", "42ni": return try pcm(.signedInteger, bits: 24)
    case "in32", "23ni": return try pcm(.signedInteger, bits: 32)
    case "fl32", "FL32": return try pcm(.float, bits: 32)
    case "fl64", "FL64": return try pcm(.float, bits: 64)
    case "ulaw", "ULAW":
      return Layout(encoding: .muLaw, bits: 8, packetBytes: channels, framesPerPacket: 1)
    case "alaw", "ALAW":
      return Layout(encoding: .aLaw, bits: 8, packetBytes: channels, framesPerPacket: 1)
    case "ima4":
      return Layout(encoding: .imaADPCM, bits: 4, packetBytes: 34 * channels, framesPerPacket: 64)
    case let other:
      let name = compressionNames[other].map { "\($0) ('\(other)')" } ?? "compression type '\(other)'"
      return Layout(encoding: .other(name), bits: nil, packetBytes: 1, framesPerPacket: 1)
    }
  }

  static func bytes(forFrames frames: Int64, layout: Layout) -> Int64 {
    let packets =
      frames / Int64(layout.framesPerPacket) + (frames % Int64(layout.framesPerPacket) == 0 ? 0 : 1)
    let (product, overflow) = packets.multipliedReportingOverflow(by: Int64(layout.packetBytes))
    return overflow ? .max : product
  }

  /// Names of AIFC compression types met in the wild that notification sounds may not use.
  static let compressionNames: [String: String] = [
    "MAC3": "MACE 3:1", "MAC6": "MACE 6:1", "GSM ": "GSM 6.10", "QDMC": "QDesign Music",
    "QDM2": "QDesign Music 2", "Qclp": "Qualcomm PureVoice", "G722": "G.722", "G726": "G.726",
    "G728": "G.728", "ACE2": "ACE 2:1", "ACE8": "ACE 8:3", ".mp3": "MP3", "alac": "Apple Lossless",
  ]
}

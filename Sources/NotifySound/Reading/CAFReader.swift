/// Reads Core Audio Format files: the `desc` chunk (a big-endian Float64 sample rate,
/// the format id and packet layout) and the extent of the `data` chunk, whose size may
/// be -1 for "to the end of the file".
struct CAFReader {
  let source: MeteredSource
  let head: ByteView

  /// What the `desc` chunk says (CAFAudioDescription).
  struct Description {
    var sampleRate: Double
    var formatID: String
    var formatFlags: UInt32
    var bytesPerPacket: Int64
    var framesPerPacket: Int64
    var channels: Int
    var bits: Int
  }

  func read() throws(SoundFileProblem) -> SoundFileInfo {
    guard let version = head.uint16BE(4), version == 1 else {
      throw .damaged(container: .caf, detail: "its file version is not 1")
    }
    var description: Description?
    var data: Chunk?
    var cutShort: Chunk?
    let walker = ChunkWalker(source: source, layout: .caf, container: .caf)
    let finished = try walker.walk(from: 8) {
      (chunk) throws(SoundFileProblem) -> Bool in
      switch chunk.id {
      case "desc" where description == nil:
        description = try parseDescription(chunk)
      case "data" where data == nil:
        data = chunk
      default:
        break
      }
      if chunk.overruns { cutShort = chunk }
      return description == nil || data == nil
    }
    if !finished && (description == nil || data == nil) { throw walker.tooManyChunks }
    guard let description else {
      if let cutShort {
        throw .truncated(container: .caf, claimedBytes: cutShort.size, presentBytes: cutShort.present)
      }
      throw .damaged(container: .caf, detail: "it has no 'desc' chunk")
    }
    try SoundFileReader.checkPlausible(
      container: .caf, channels: description.channels, sampleRate: description.sampleRate)
    let encoding = Self.encoding(of: description)
    var bits: Int? = description.bits > 0 ? description.bits : nil
    var frames: Int64? = nil
    if encoding.isAllowed {
      guard let data else {
        if let cutShort {
          throw .truncated(container: .caf, claimedBytes: cutShort.size, presentBytes: cutShort.present)
        }
        throw .damaged(container: .caf, detail: "it has no 'data' chunk")
      }
      // The data chunk starts with a 4-byte edit count, then the packets.
      guard data.size >= 4 else {
        throw .damaged(container: .caf, detail: "its 'data' chunk is shorter than its edit count")
      }
      if data.overruns {
        throw .truncated(container: .caf, claimedBytes: data.size - 4, presentBytes: max(0, data.present - 4))
      }
      var packetBytes = description.bytesPerPacket
      var framesPerPacket = description.framesPerPacket
      switch encoding {
      case .imaADPCM:
        // ima4 packets are fixed: 34 bytes per channel holding 64 frames.
        if packetBytes == 0 { packetBytes = 34 * Int64(description.channels) }
        if framesPerPacket == 0 { framesPerPacket = 64 }
        bits = 4
      case .muLaw, .aLaw:
        if packetBytes == 0 { packetBytes = Int64(description.channels) }
        if framesPerPacket == 0 { framesPerPacket = 1 }
        bits = 8
      default:
        if packetBytes == 0 { packetBytes = Int64((description.bits + 7) / 8 * description.channels) }
        if framesPerPacket == 0 { framesPerPacket = 1 }
        guard (1...64).contains(description.bits) else {
          throw .damaged(container: .caf, detail: "it claims \(description.bits) bits per sample")
        }
      }
      guard packetBytes > 0, framesPerPacket > 0 else {
        throw .damaged(container: .caf, detail: "its packet size is zero")
      }
      let packets = (data.present - 4) / packetBytes
      let (product, overflow) = packets.multipliedReportingOverflow(by: framesPerPacket)
      frames = overflow ? .max : product
    }
    return SoundFileInfo(
      container: .caf, encoding: encoding, channels: description.channels,
      sampleRate: description.sampleRate, bitsPerSample: bits, frames: frames)
  }

  private func parseDescription(_ chunk: Chunk) throws(SoundFileProblem) -> Description {
    guard chunk.present >= 32 else {
      if chunk.overruns {
        throw .truncated(container: .caf, claimedBytes: chunk.size, presentBytes: chunk.present)
      }
      throw .damaged(container: .caf, detail: "its 'desc' chunk is only \(chunk.size) bytes long")
    }
    let bytes = try source.read(at: chunk.body, count: 32)
    let channels = bytes.uint32BE(24) ?? 0
    return Description(
      sampleRate: bytes.float64BE(0) ?? 0, formatID: bytes.fourCC(8) ?? "",
      formatFlags: bytes.uint32BE(12) ?? 0, bytesPerPacket: Int64(bytes.uint32BE(16) ?? 0),
      framesPerPacket: Int64(bytes.uint32BE(20) ?? 0),
      channels: Int(channels),
      bits: Int(bytes.uint32BE(28) ?? 0))
  }

  static func encoding(of description: Description) -> SoundEncoding {
    switch description.formatID {
    case "lpcm": .linearPCM(description.formatFlags & 1 != 0 ? .float : .signedInteger)
    case "ima4": .imaADPCM
    case "ulaw": .muLaw
    case "alaw": .aLaw
    case let id: .other(formatNames[id].map { "\($0) ('\(id)')" } ?? "format '\(id)'")
    }
  }

  /// Names of CAF format ids met in the wild that notification sounds may not use.
  static let formatNames: [String: String] = [
    "aac ": "AAC", "alac": "Apple Lossless", ".mp3": "MP3", ".mp1": "MPEG Layer 1",
    ".mp2": "MPEG Layer 2", "opus": "Opus", "flac": "FLAC", "ilbc": "iLBC", "MAC3": "MACE 3:1",
    "MAC6": "MACE 6:1", "Qclp": "Qualcomm PureVoice", "QDMC": "QDesign Music",
    "QDM2": "QDesign Music 2", "samr": "AMR", "aach": "HE-AAC", "aacl": "AAC-LD",
    "aace": "AAC-ELD", "ac-3": "Dolby AC-3", "ec-3": "Dolby E-AC-3",
  ]
}

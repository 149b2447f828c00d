/// A tiny writer of WAV, AIFF and CAF files, for fixtures sox cannot produce (CAF
/// `ima4`, a CAF `data` chunk of size -1, chunks in odd orders) and for the fuzz seeds.
/// It is written from the format specifications, independently of the reader.
enum SoundBytes {
  static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
  static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }
  static func be16(_ v: Int) -> [UInt8] { le16(v).reversed() }
  static func be32(_ v: Int) -> [UInt8] { le32(v).reversed() }
  static func be64(_ v: UInt64) -> [UInt8] { (0..<8).reversed().map { UInt8(v >> (8 * UInt64($0)) & 0xFF) } }
  static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

  /// A RIFF chunk, padded to even length.
  static func riffChunk(_ id: String, _ body: [UInt8], declaredSize: Int? = nil) -> [UInt8] {
    ascii(id) + le32(declaredSize ?? body.count) + body + (body.count % 2 == 1 ? [0] : [])
  }

  /// A `fmt ` chunk body.
  static func wavFormat(tag: Int, channels: Int, rate: Int, bits: Int, blockAlign: Int, extra: [UInt8]? = nil)
    -> [UInt8]
  {
    var body =
      le16(tag) + le16(channels) + le32(rate) + le32(rate * blockAlign) + le16(blockAlign) + le16(bits)
    if let extra { body += le16(extra.count) + extra }
    return body
  }

  /// The extensible tail: valid bits, channel mask, subformat GUID for `subformat`.
  static func extensible(validBits: Int, subformat: Int) -> [UInt8] {
    le16(validBits) + le32(0) + le16(subformat)
      + [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
  }

  /// A RIFF/WAVE file from chunks in the given order.
  static func wav(_ chunks: [[UInt8]]) -> [UInt8] {
    let body = ascii("WAVE") + chunks.joined()
    return ascii("RIFF") + le32(body.count) + body
  }

  /// A 16-bit PCM WAV of `frames` silent frames.
  static func pcmWAV(frames: Int, channels: Int = 1, rate: Int = 8000) -> [UInt8] {
    wav([
      riffChunk(
        "fmt ", wavFormat(tag: 1, channels: channels, rate: rate, bits: 16, blockAlign: 2 * channels)),
      riffChunk("data", [UInt8](repeating: 0, count: frames * 2 * channels)),
    ])
  }

  /// An IFF chunk, padded to even length.
  static func iffChunk(_ id: String, _ body: [UInt8], declaredSize: Int? = nil) -> [UInt8] {
    ascii(id) + be32(declaredSize ?? body.count) + body + (body.count % 2 == 1 ? [0] : [])
  }

  /// An AIFF (or AIFC with `compression`) file of `frames` frames of `bytesPerFrame` each.
  static func aiff(
    frames: Int, channels: Int = 1, bits: Int = 16, rate: Double = 8000, compression: String? = nil,
    bytesPerFrame: Int? = nil, audioBytes: Int? = nil
  ) -> [UInt8] {
    var common = be16(channels) + be32(frames) + be16(bits) + extended80(rate)
    if let compression { common += ascii(compression) + [0, 0] }
    let audio = [UInt8](
      repeating: 0, count: audioBytes ?? frames * (bytesPerFrame ?? channels * (bits + 7) / 8))
    var chunks = iffChunk("COMM", common) + iffChunk("SSND", be32(0) + be32(0) + audio)
    if compression != nil { chunks = iffChunk("FVER", be32(0xA280_5140)) + chunks }
    let body = ascii(compression == nil ? "AIFF" : "AIFC") + chunks
    return ascii("FORM") + be32(body.count) + body
  }

  /// An 80-bit extended float, big-endian, for positive finite `value`.
  static func extended80(_ value: Double) -> [UInt8] {
    guard value > 0 else { return [UInt8](repeating: 0, count: 10) }
    var exponent = 0
    var mantissa = value
    while mantissa >= 2 { mantissa /= 2; exponent += 1 }
    while mantissa < 1 { mantissa *= 2; exponent -= 1 }
    let significand = UInt64(mantissa * 9_223_372_036_854_775_808.0 / 2) << 1  // top bit set
    return be16(exponent + 16383) + be64(significand)
  }

  /// A CAF chunk with a 64-bit size (`-1` allowed for `data`).
  static func cafChunk(_ id: String, _ body: [UInt8], declaredSize: Int64? = nil) -> [UInt8] {
    ascii(id) + be64(UInt64(bitPattern: declaredSize ?? Int64(body.count))) + body
  }

  /// A CAF file: a `desc` chunk and a `data` chunk holding `audio` after the edit count.
  static func caf(
    formatID: String, flags: Int = 0, bytesPerPacket: Int, framesPerPacket: Int, channels: Int, bits: Int,
    rate: Double = 8000, audio: [UInt8], dataSizeUnknown: Bool = false, extraChunks: [[UInt8]] = []
  ) -> [UInt8] {
    let desc =
      be64(rate.bitPattern) + ascii(formatID) + be32(flags) + be32(bytesPerPacket) + be32(framesPerPacket)
      + be32(channels) + be32(bits)
    let data = be32(0) + audio
    return ascii("caff") + be16(1) + be16(0) + cafChunk("desc", desc) + extraChunks.joined()
      + cafChunk("data", data, declaredSize: dataSizeUnknown ? -1 : nil)
  }
}

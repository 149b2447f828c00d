import NotifyCore

/// Reads how long an Ogg Vorbis or Ogg Opus stream lasts, from its own bytes: the sound
/// theme's `.oga` files are Ogg Vorbis (freedesktop sound theme specification). The first
/// page's identification header gives the sample rate (Vorbis I §4.2.2; Opus: always
/// 48 kHz, minus the pre-skip, RFC 7845 §5.1); the last page's granule position is the
/// sample the stream ends at (RFC 3533 §6). Two bounded reads: the first 512 bytes and
/// at most the last `tailLength`.
enum OggReader {
  /// What an Ogg stream holds.
  struct Info: Hashable {
    /// "Vorbis" or "Opus".
    var codec: String
    var sampleRate: Double
    var seconds: Double
  }

  /// The largest Ogg page (27 + 255 + 255 × 255 bytes): the last page starts within it.
  static let tailLength = 65_307
  private static let capture = Array("OggS".utf8)

  static func read(_ source: any ByteSource) throws(SoundFileProblem) -> Info {
    guard source.size > 0 else { throw .empty }
    let head = ByteView(try source.read(at: 0, count: 512))
    guard head.has(capture, at: 0), let segments = head.slice(26, 1)?.first else {
      throw FormatSniffer.identify(head)
    }
    let packet = 27 + Int(segments)
    let codec: String
    let rate: Double
    var preSkip: UInt64 = 0
    if head.has([1] + Array("vorbis".utf8), at: packet), let hertz = head.uint32LE(packet + 12) {
      codec = "Vorbis"
      rate = Double(hertz)
    } else if head.has(Array("OpusHead".utf8), at: packet), let skip = head.uint16LE(packet + 10) {
      codec = "Opus"
      rate = 48_000
      preSkip = UInt64(skip)
    } else {
      throw FormatSniffer.identify(head)
    }
    guard SoundFileReader.plausibleRates.contains(rate) else {
      throw .damaged(container: nil, detail: "its Ogg \(codec) sample rate \(rate) Hz is not plausible")
    }
    let start = max(0, source.size - Int64(tailLength))
    guard let granule = lastGranule(ByteView(try source.read(at: start, count: tailLength))) else {
      throw .damaged(container: nil, detail: "its last Ogg page cannot be found")
    }
    return Info(codec: codec, sampleRate: rate, seconds: Double(granule - min(granule, preSkip)) / rate)
  }

  /// The granule position of the last page in `tail` that has one (all ones: none).
  private static func lastGranule(_ tail: ByteView) -> UInt64? {
    var index = tail.count - 27
    while index >= 0 {
      if tail.has(capture, at: index), tail.slice(index + 4, 1)?.first == 0,
        let granule = tail.uint64LE(index + 6), granule != UInt64.max
      {
        return granule
      }
      index -= 1
    }
    return nil
  }
}

/// The container of a sound file, read from its first bytes.
public enum SoundContainer: String, Hashable, Sendable, CaseIterable {
  /// RIFF/WAVE.
  case wav = "WAV"
  /// Audio Interchange File Format.
  case aiff = "AIFF"
  /// AIFF-C, the compressed variant of AIFF.
  case aifc = "AIFC"
  /// Core Audio Format.
  case caf = "CAF"
}

/// How the samples of a sound file are encoded.
public enum SoundEncoding: Hashable, Sendable, CustomStringConvertible {
  /// How a Linear PCM sample is stored.
  public enum SampleType: String, Hashable, Sendable {
    /// Two's-complement integer.
    case signedInteger = "signed integer"
    /// Offset-binary integer (8-bit WAV, AIFC `raw `).
    case unsignedInteger = "unsigned integer"
    /// IEEE 754 floating point.
    case float = "float"
  }

  /// Uncompressed samples.
  case linearPCM(SampleType)
  /// IMA ADPCM (WAV tag 0x11, AIFC and CAF `ima4`).
  case imaADPCM
  /// G.711 µLaw.
  case muLaw
  /// G.711 aLaw.
  case aLaw
  /// Anything else, named as precisely as the file allows (e.g. "MPEG Layer 3").
  case other(String)

  /// True for the encodings notification sounds may use (SPEC.md §4).
  public var isAllowed: Bool {
    if case .other = self { return false }
    return true
  }

  /// A readable name: "Linear PCM (signed integer)", "IMA ADPCM", "µLaw", ...
  public var description: String {
    switch self {
    case .linearPCM(let type): "Linear PCM (\(type.rawValue))"
    case .imaADPCM: "IMA ADPCM"
    case .muLaw: "µLaw"
    case .aLaw: "aLaw"
    case .other(let name): name
    }
  }
}

/// What a sound file holds, read from its own bytes. Frames and duration count the
/// audio data actually present in the file, not what the header claims.
public struct SoundFileInfo: Hashable, Sendable {
  /// The container.
  public var container: SoundContainer
  /// True for a WAV file whose `fmt ` chunk is WAVE_FORMAT_EXTENSIBLE.
  public var isExtensible: Bool
  /// The sample encoding.
  public var encoding: SoundEncoding
  /// Channels per frame.
  public var channels: Int
  /// Frames per second.
  public var sampleRate: Double
  /// Bits per sample as stored (4 for IMA ADPCM), or nil when the file does not say.
  public var bitsPerSample: Int?
  /// Sample frames present, or nil when the encoding is one the reader cannot count.
  public var frames: Int64?

  /// Creates a description.
  public init(
    container: SoundContainer, isExtensible: Bool = false, encoding: SoundEncoding,
    channels: Int, sampleRate: Double, bitsPerSample: Int?, frames: Int64?
  ) {
    self.container = container
    self.isExtensible = isExtensible
    self.encoding = encoding
    self.channels = channels
    self.sampleRate = sampleRate
    self.bitsPerSample = bitsPerSample
    self.frames = frames
  }

  /// Seconds of audio present, or nil when `frames` is unknown.
  public var duration: Double? {
    guard let frames, sampleRate > 0 else { return nil }
    return Double(frames) / sampleRate
  }

  /// "WAV", or "WAV (WAVE_FORMAT_EXTENSIBLE)".
  public var containerDescription: String {
    isExtensible ? "\(container.rawValue) (WAVE_FORMAT_EXTENSIBLE)" : container.rawValue
  }

  /// The encoding with its sample size: "Linear PCM (signed integer), 16-bit".
  public var encodingDescription: String {
    guard let bitsPerSample, bitsPerSample > 0 else { return encoding.description }
    return "\(encoding), \(bitsPerSample)-bit"
  }
}

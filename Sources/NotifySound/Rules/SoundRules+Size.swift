extension SoundRules {
  /// The most bytes a sound file notify installs may take, whatever it holds.
  public static let maximumInstallSize: Int64 = 10 * 1024 * 1024
  /// What a sound file may hold besides its audio (headers, metadata chunks).
  public static let headerAllowance: Int64 = 1024 * 1024

  /// The most bytes an installed sound file of this format may take: what the longest
  /// sound the rules allow (`maxDuration`) holds in its format, plus `headerAllowance`,
  /// and never more than `maximumInstallSize`. A short sound padded with bytes no one
  /// plays (a 1 s WAV followed by a gigabyte of zeros) is refused before it is copied.
  public static func maximumFileSize(for info: SoundFileInfo) -> Int64 {
    let bytesPerSample: Double
    switch info.encoding {
    case .linearPCM: bytesPerSample = Double(((info.bitsPerSample ?? 64) + 7) / 8)
    // (IMA ADPCM stores about half a byte a sample, plus its block headers)
    case .imaADPCM, .muLaw, .aLaw: bytesPerSample = 1
    case .other: bytesPerSample = 8
    }
    let audio = Double(info.channels) * info.sampleRate * bytesPerSample * maxDuration
    guard audio.isFinite, audio < Double(maximumInstallSize) else { return maximumInstallSize }
    return min(maximumInstallSize, Int64(audio) + headerAllowance)
  }

  /// Why a file of `size` bytes holding `info` is not installed, or nil when it may be.
  static func sizeProblem(_ size: Int64, _ info: SoundFileInfo) -> (reason: String, fix: String)? {
    let limit = maximumFileSize(for: info)
    guard size > limit else { return nil }
    return (
      "is \(size) bytes; a \(info.containerDescription) sound of this format may take at most \(limit) (30 s of its audio and 1 MiB more; 10 MiB at most)",
      "trim what follows the audio, or convert it to a 16-bit WAV file shorter than 30 s"
    )
  }
}

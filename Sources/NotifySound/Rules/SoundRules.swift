/// The rules of SPEC.md §4 for notification sounds: a pure function from what the
/// reader found to a verdict with a reason a person understands.
public enum SoundRules {
  /// Sounds must last strictly less than this many seconds.
  public static let maxDuration: Double = 30

  /// What the rules accept, for messages.
  static let allowed = "WAV, AIFF or CAF holding Linear PCM, IMA ADPCM, µLaw or aLaw"

  /// The verdict on a file the reader could read.
  public static func verdict(for info: SoundFileInfo) -> SoundVerdict {
    guard info.encoding.isAllowed else {
      return .invalid(
        reason:
          "is \(withArticle(info.container)) file holding \(info.encoding); notification sounds must be \(allowed)",
        fix: "convert it, e.g. with: sox in.\(fileExtension(info.container)) -e signed-integer -b 16 out.wav")
    }
    guard let duration = info.duration else {
      return .invalid(reason: "has no measurable duration", fix: "re-export it as a 16-bit WAV file")
    }
    guard duration < maxDuration else {
      return .invalid(
        reason: "lasts \(formatTenths(duration)) s; notification sounds must be shorter than 30 s",
        fix:
          "shorten it, e.g. with: sox in.\(fileExtension(info.container)) out.\(fileExtension(info.container)) trim 0 29"
      )
    }
    return .valid
  }

  /// The verdict on a file the reader could not read.
  public static func verdict(for problem: SoundFileProblem) -> SoundVerdict {
    switch problem {
    case .empty:
      return .invalid(reason: "is empty (0 bytes)", fix: "copy the sound file again")
    case .otherFormat(let name, let fileExtension, let convertible):
      let reason = "is \(name); notification sounds must be \(allowed)"
      guard convertible, let fileExtension else {
        return .invalid(reason: reason, fix: "export or convert it to a 16-bit WAV file")
      }
      return .invalid(reason: reason, fix: "convert with: sox in.\(fileExtension) out.wav")
    case .truncated(let container, let claimed, let present):
      return .invalid(
        reason:
          "is truncated: its \(container.rawValue) header claims \(claimed) bytes of data but the file holds \(present)",
        fix: "copy or export the file again")
    case .damaged(let container, let detail):
      let what = container.map { "a damaged \($0.rawValue) file" } ?? "a damaged sound file"
      return .invalid(reason: "is \(what): \(detail)", fix: "export the sound again as a 16-bit WAV file")
    case .unreadable(let detail):
      return .invalid(reason: "cannot be read: \(detail)", fix: "check the file and its permissions")
    }
  }

  /// The verdict on either outcome of `SoundFileReader`.
  public static func verdict(for result: Result<SoundFileInfo, SoundFileProblem>) -> SoundVerdict {
    switch result {
    case .success(let info): verdict(for: info)
    case .failure(let problem): verdict(for: problem)
    }
  }

  /// Seconds with one decimal, rounded down so that 29.96 s never reads "30.0 s".
  static func formatTenths(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds < 1e12 else { return "\(seconds)" }
    let tenths = Int64((seconds * 10).rounded(.down))
    return "\(tenths / 10).\(tenths % 10)"
  }

  /// "a WAV", "an AIFF".
  static func withArticle(_ container: SoundContainer) -> String {
    container.rawValue.hasPrefix("A") ? "an \(container.rawValue)" : "a \(container.rawValue)"
  }

  static func fileExtension(_ container: SoundContainer) -> String {
    switch container {
    case .wav: "wav"
    case .aiff: "aiff"
    case .aifc: "aifc"
    case .caf: "caf"
    }
  }
}

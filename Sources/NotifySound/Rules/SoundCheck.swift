import NotifyCore

/// The result of checking one file against the sound rules: what the reader found and
/// the verdict.
public struct SoundCheck: Hashable, Sendable {
  /// The file checked, as given.
  public var path: String
  /// What the file holds, when it is a WAV, AIFF/AIFC or CAF file that could be read.
  public var info: SoundFileInfo?
  /// Why the file could not be read as a sound, when it could not.
  public var problem: SoundFileProblem?
  /// Whether it may be used, and why not.
  public var verdict: SoundVerdict

  /// Creates a check result from the reader's finding.
  public init(path: String, result: Result<SoundFileInfo, SoundFileProblem>) {
    self.path = path
    switch result {
    case .success(let info): self.info = info
    case .failure(let problem): self.problem = problem
    }
    self.verdict = SoundRules.verdict(for: result)
  }

  /// Reads and judges the file at `path`; throws `.noInput` (exit 66) when it is
  /// missing, unreadable or not a regular file.
  public static func file(_ path: String) throws(NotifyError) -> SoundCheck {
    SoundCheck(path: path, result: try SoundFileReader.read(path: path))
  }

  /// The container's name, or what the file is when it is not a sound notify reads.
  public var containerDescription: String {
    if let info { return info.containerDescription }
    switch problem {
    case .truncated(let container, _, _): return container.rawValue
    case .damaged(let container?, _): return container.rawValue
    case .otherFormat(let name, _, _): return "none (\(name))"
    case .empty: return "none (empty file)"
    default: return "unknown"
    }
  }
}

/// Whether a file may be used as a notification sound, and if not why and what to do.
public enum SoundVerdict: Hashable, Sendable, CustomStringConvertible {
  /// The file is a valid notification sound.
  case valid
  /// The file may not be used. `reason` reads after the file's name ("lasts 40.0 s;
  /// notification sounds must be shorter than 30 s"); `fix` says what to do.
  case invalid(reason: String, fix: String)

  /// True for `.valid`.
  public var isValid: Bool { self == .valid }

  /// The reason, or nil when valid.
  public var reason: String? {
    guard case .invalid(let reason, _) = self else { return nil }
    return reason
  }

  /// `valid`, or `invalid: REASON (FIX)`.
  public var description: String {
    switch self {
    case .valid: "valid"
    case .invalid(let reason, let fix): "invalid: \(reason) (\(fix))"
    }
  }
}

import NotifyCore

/// The sound a delivery will actually use, after the fire-time check (SPEC.md §4).
public struct ResolvedSound: Hashable, Sendable {
  /// What plays: the requested sound, or `default` when it was substituted.
  public var effective: SoundName
  /// The sound file to play, when `effective` is a file.
  public var file: String?
  /// The sound asked for, when it was substituted.
  public var requested: String?
  /// Why it was substituted.
  public var note: String?

  /// Creates a resolution.
  public init(effective: SoundName, file: String? = nil, requested: String? = nil, note: String? = nil) {
    self.effective = effective
    self.file = file
    self.requested = requested
    self.note = note
  }
}

/// Checks a notification's sound again when it fires. The sound library adapts to this;
/// a firer without one passes sounds through unchecked.
public protocol SoundResolving: Sendable {
  /// The sound to use for `sound` of `app`, right now.
  func resolve(_ sound: SoundName, app: String) -> ResolvedSound
}

/// Passes every sound through as requested, with no file: for sinks that ignore sounds
/// (stdout) and for tests.
public struct UncheckedSounds: SoundResolving {
  /// Creates the pass-through resolver.
  public init() {}

  /// Returns `sound` unchanged.
  public func resolve(_ sound: SoundName, app: String) -> ResolvedSound {
    ResolvedSound(effective: sound)
  }
}

import NotifyCore

/// The sound a notification will really use, decided by `SoundLibrary.resolve(_:)`.
/// An invalid or missing sound file resolves to `.default` and says why, so the
/// notification is never lost over its sound (iOS behaviour, SPEC.md §4).
public struct SoundResolution: Hashable, Sendable {
  /// The sound to use: `.none`, `.default`, or the requested `.file`.
  public var effective: SoundName
  /// The resolved file (its real path, inside the app's sound folders) for `.file`.
  public var file: String?
  /// The sound name asked for, when it was substituted; nil otherwise.
  public var requested: String?
  /// Why it was substituted ("not found in …", "lasts 40.0 s; …"); nil otherwise.
  public var note: String?
  /// What the user can do about it; nil when nothing was substituted.
  public var fix: String?

  /// Creates a resolution.
  public init(
    effective: SoundName, file: String? = nil, requested: String? = nil, note: String? = nil,
    fix: String? = nil
  ) {
    self.effective = effective
    self.file = file
    self.requested = requested
    self.note = note
    self.fix = fix
  }

  /// The default sound in place of `name`, with the reason.
  static func substitute(for name: String, note: String, fix: String) -> SoundResolution {
    SoundResolution(effective: .default, requested: name, note: note, fix: fix)
  }

  /// True when the requested sound was replaced by the default one.
  public var isSubstituted: Bool { requested != nil }

  /// The text `schedule` prints after `notify: warning: ` when it substituted.
  public var warning: String? {
    guard let requested, let note else { return nil }
    return "sound '\(Escaper.visible(requested, limit: 80))' \(note); the default sound will play instead"
  }

  /// The error `schedule --strict-sound` fails with (exit 65) when it substituted.
  public var strictError: NotifyError? {
    guard let requested, let note else { return nil }
    return NotifyError(
      .soundRefused(requested), "sound '\(Escaper.visible(requested, limit: 80))' \(note)",
      fix: fix ?? "install a valid sound with 'notify sound install FILE'")
  }
}

extension Delivery {
  /// Records a resolution on a delivery: the sound to use, the file to play, and
  /// `soundRequested` / `soundNote` when it was substituted.
  public mutating func apply(_ resolution: SoundResolution) {
    sound = resolution.effective
    soundFile = resolution.file
    soundRequested = resolution.requested
    soundNote = resolution.note
  }
}

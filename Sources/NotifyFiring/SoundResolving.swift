import NotifyCore
import NotifySound

/// Checks a notification's sound again when it fires (SPEC.md §4: "the check runs again
/// at fire time"): a sound removed or broken since scheduling becomes the default sound,
/// with `soundRequested` and `soundNote` on the delivery.
public protocol SoundResolving: Sendable {
  /// The sound to use for `notification`, right now.
  func resolve(_ notification: LocalNotification) -> SoundResolution
}

/// The app's sound folders, read at fire time (`SoundLibrary`).
public struct LibrarySounds: SoundResolving {
  /// Creates the resolver.
  public init() {}

  /// `SoundLibrary.resolve(notification)`.
  public func resolve(_ notification: LocalNotification) -> SoundResolution {
    SoundLibrary.resolve(notification)
  }
}

/// Passes every sound through as requested, with no file: for tests.
public struct UncheckedSounds: SoundResolving {
  /// Creates the pass-through resolver.
  public init() {}

  /// The notification's own sound, unchecked.
  public func resolve(_ notification: LocalNotification) -> SoundResolution {
    SoundResolution(effective: notification.sound)
  }
}

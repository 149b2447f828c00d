import Foundation
import NotifyCore
import SystemPackage

/// A checked sound copied into an app's sound folder under a temporary name
/// (`SoundLibrary.stage`): not installed until `place`, gone after `discard`.
public struct StagedSound: Sendable {
  /// The checked copy.
  public let temporary: String
  /// Where `place` puts it.
  public let destination: String

  /// Renames the copy into place, keeping the sound it replaces aside (a hard link) until
  /// the placement is `finish`ed or `undo`ne.
  public func place() throws(NotifyError) -> SoundPlacement {
    let backup = "\(temporary).previous"
    let kept = link(destination, backup) == 0
    guard rename(temporary, destination) == 0 else {
      let failure = errno
      if kept { unlink(backup) }
      unlink(temporary)
      throw NotifyError(
        .ioError, "cannot install '\(Escaper.visible(destination))': \(Errno(rawValue: failure))",
        fix: "check the folder's permissions")
    }
    // The new name is on the disk before anyone is told the sound is installed.
    SoundLibrary.syncFolder((destination as NSString).deletingLastPathComponent)
    return SoundPlacement(staged: self, backup: kept ? backup : nil)
  }

  /// Removes the copy: the call that staged it was refused.
  public func discard() {
    unlink(temporary)
  }
}

/// A staged sound renamed into place, the one it replaced kept aside until the
/// notification naming it is stored (`finish`) or not (`undo`).
public struct SoundPlacement: Sendable {
  /// The sound placed.
  public let staged: StagedSound
  /// The sound it replaced, kept aside; nil when there was none.
  public let backup: String?

  /// The installed sound.
  public var destination: String { staged.destination }

  /// Keeps the new sound; returns its path.
  @discardableResult
  public func finish() -> String {
    if let backup { unlink(backup) }
    return destination
  }

  /// Puts back what was there before (the replaced sound, or nothing), the new one staged
  /// again (to be placed again, or discarded).
  public func undo() {
    rename(destination, staged.temporary)
    if let backup { rename(backup, destination) }
  }
}

import NotifyCore
import NotifySound

/// How much a caller may make the scheduler store (README "D-Bus service", bounds): the
/// files one call sends and the copies one app keeps. Each is checked before anything is
/// copied, from the descriptors' sizes.
enum FileBounds {
  /// The largest image one attachment may be (`AttachmentKind.maximumSize`): 10 MiB.
  static let attachment = AttachmentKind.png.maximumSize
  /// The largest sound file (`SoundRules.maximumInstallSize`, and less for a format whose
  /// 30 s take less: `SoundRules.maximumFileSize`): 10 MiB.
  static let sound = SoundRules.maximumInstallSize
  /// The most bytes one call may have copied: its attachments (each descriptor once,
  /// however many requests name it) and its sound files, of the requests the 64 limit keeps.
  static let call: Int64 = 64 * 1024 * 1024
  /// The most bytes of attachment copies one app may keep in the store's attachment
  /// folder, the call's new ones included.
  static let app: Int64 = 256 * 1024 * 1024
}

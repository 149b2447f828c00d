/// A file a notification carries: checked and copied into the store's own
/// folder when the notification is scheduled, so that what is shown later is what was
/// given, whatever happens to the original.
public struct NotificationAttachment: Hashable, Sendable {
  /// The app's name for it (UNNotificationAttachment's `identifier`): by default the
  /// original file's name.
  public var identifier: String
  /// What its first bytes say it is.
  public var kind: AttachmentKind
  /// The kept copy, an absolute path inside the store's attachment folder.
  public var file: String
  /// Its size in bytes.
  public var size: Int64

  /// Creates the attachment record of a kept copy.
  public init(identifier: String, kind: AttachmentKind, file: String, size: Int64) {
    self.identifier = identifier
    self.kind = kind
    self.file = file
    self.size = size
  }

  /// The kept copy as a `file://` URI (the notification spec's `image-path` hint).
  public var fileURI: String { FileURI.string(file) }
}

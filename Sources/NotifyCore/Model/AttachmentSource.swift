/// A file to attach, as given (`--attach`, `NotificationContent.attachments`): checked and
/// copied into the store's attachment folder when the notification is stored, becoming a
/// `NotificationAttachment`.
public struct AttachmentSource: Hashable, Sendable {
  /// The file's path.
  public var file: String
  /// The app's name for it; the file's name when nil.
  public var identifier: String?

  /// Names a file to attach.
  public init(file: String, identifier: String? = nil) {
    self.file = file
    self.identifier = identifier
  }
}

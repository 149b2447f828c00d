/// A file to attach, as given (`--attach`, `NotificationContent.attachments`): checked and
/// copied into the store's attachment folder when the notification is stored, becoming a
/// `NotificationAttachment`.
public struct AttachmentSource: Hashable, Sendable {
  /// The file's path; for a `descriptor`, how messages name it (`attachment 1`).
  public var file: String
  /// The app's name for it; the file's name when nil.
  public var identifier: String?
  /// An open file to read instead of `file` (a D-Bus caller's `h`, a sandboxed one's only
  /// way): read through, never closed by notify.
  public var descriptor: Int32?

  /// Names a file to attach.
  public init(file: String, identifier: String? = nil) {
    self.file = file
    self.identifier = identifier
  }

  /// An open file to attach, named `name` in messages.
  public init(descriptor: Int32, name: String, identifier: String? = nil) {
    self.file = name
    self.identifier = identifier
    self.descriptor = descriptor
  }
}

/// The kinds of file a notification may carry as an attachment, as
/// UNNotificationAttachment takes them: images, told by their first bytes, never by their
/// name.
public enum AttachmentKind: String, Hashable, Sendable, CaseIterable {
  case png, jpeg, gif, webp

  /// The largest file of this kind a notification may carry: Apple's cap for images.
  public var maximumSize: Int64 { 10 * 1024 * 1024 }

  /// The file name extension of the kept copy.
  public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

  /// The media type, for servers and JSON.
  public var mediaType: String { "image/\(rawValue)" }

  /// How many leading bytes `sniff` needs.
  public static let headerSize = 12

  /// The kind the file's first bytes say it is, or nil when they name none of them.
  public static func sniff<Bytes: Collection<UInt8>>(_ header: Bytes) -> AttachmentKind? {
    let bytes = Array(header.prefix(headerSize))
    func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
      bytes.count >= offset + magic.count && Array(bytes[offset..<offset + magic.count]) == magic
    }
    if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
    if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
    if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
    if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
    return nil
  }
}

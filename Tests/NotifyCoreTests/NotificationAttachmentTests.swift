import Foundation
import NotifyCore
import Testing

@Suite("NotificationAttachment: kinds by their bytes, kept copies as file URIs")
struct NotificationAttachmentTests {
  @Test("a kept copy's URI percent-encodes all but unreserved bytes and slashes")
  func fileURI() {
    let kept = NotificationAttachment(identifier: "x", kind: .png, file: "/home/a b/ü%#?.png", size: 1)
    #expect(kept.fileURI == "file:///home/a%20b/%C3%BC%25%23%3F.png")
  }

  @Test("sniffing needs the whole magic: a truncated header or WebP's RIFF alone is no image")
  func partialHeaders() {
    #expect(AttachmentKind.sniff([0x89, 0x50, 0x4E]) == nil)
    #expect(AttachmentKind.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)) == nil)
    #expect(AttachmentKind.sniff(Array("GIF87a".utf8)) == .gif)
    #expect(AttachmentKind.sniff([0xFF, 0xD8, 0xFF, 0xDB]) == .jpeg)
  }
}

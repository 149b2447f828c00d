import Foundation
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

@testable import NotifyService

/// A call's file work off the loop: the app's bound is checked before anything is copied.
@Suite(.ownThreads)
struct FileOrderTests {
  let folder = TemporaryFolder()
  static let png: [UInt8] =
    [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 1, count: 64)

  @Test func anAppPastItsBoundGetsNoMoreCopies() throws {
    // Given an app whose folder already holds 250 MiB of copies (one sparse file)
    let attachments = AttachmentFolder(storePath: folder.file("n.db"))
    let app = attachments.path + "/chat"
    try FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: true)
    let old = app + "/old.t.0.png"
    FileManager.default.createFile(atPath: old, contents: Data(Self.png))
    #expect(truncate(old, off_t(250 << 20)) == 0)
    // When a call attaches a 7 MiB image
    let image = folder.file("new.png")
    FileManager.default.createFile(atPath: image, contents: Data(Self.png))
    #expect(truncate(image, off_t(7 << 20)) == 0)
    let fd = open(image, O_RDONLY)
    defer { close(fd) }
    let order = FileOrder(
      app: "chat", folder: attachments,
      items: [
        .init(position: 0, id: "n", attachments: [AttachmentSource(descriptor: fd, name: "attachment 1")])
      ],
      count: 1)
    // Then it is refused, naming the bound, and nothing was copied
    guard case .failure(let error) = order.run() else {
      Issue.record("the call was taken")
      return
    }
    #expect(error.name.hasSuffix("InvalidArgs"))
    #expect(error.description.contains("268435456 (256 MiB)"), "\(error)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: app) == ["old.t.0.png"])
  }
}

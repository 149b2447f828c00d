import Foundation
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// Attachments are checked by their contents when given, and kept as private copies
/// beside the store.
@Suite("AttachmentFolder: checked by contents, kept private")
struct AttachmentFolderTests {
  let folder = TemporaryFolder()
  var attachments: AttachmentFolder { AttachmentFolder(storePath: folder.file("notify.db")) }

  static let headers: [AttachmentKind: [UInt8]] = [
    .png: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
    .jpeg: [0xFF, 0xD8, 0xFF, 0xE0],
    .gif: Array("GIF89a".utf8),
    .webp: Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8),
  ]

  func write(_ name: String, _ bytes: [UInt8], size: Int? = nil) -> String {
    let path = folder.file(name)
    FileManager.default.createFile(atPath: path, contents: Data(bytes))
    if let size { truncate(path, off_t(size)) }
    return path
  }

  @Test("each image kind is told by its first bytes, whatever its name", arguments: AttachmentKind.allCases)
  func keepsEachKind(kind: AttachmentKind) throws {
    let bytes = Self.headers[kind]! + Array(repeating: 7, count: 100)
    let source = write("picture.bin", bytes)
    let kept = try attachments.keep(source, app: "chat", id: "m1", token: "t1", index: 0)
    // Hidden until the notification that carries it is stored
    #expect(!FileManager.default.fileExists(atPath: kept.file))
    AttachmentFolder.commit([kept])
    #expect(kept.kind == kind)
    #expect(kept.identifier == "picture.bin")
    #expect(kept.size == Int64(bytes.count))
    #expect(kept.file == attachments.path + "/chat/m1.t1.0.\(kind.fileExtension)")
    #expect(fileBytes(kept.file) == Data(bytes))
    #expect(fileMode(kept.file) == 0o600)
    #expect(fileMode(attachments.path) == 0o700)
    #expect(fileMode(attachments.path + "/chat") == 0o700)
    #expect(kept.fileURI == "file://" + kept.file)
  }

  @Test(
    "a text file named .png, an empty file, a FIFO, a symbolic link, a folder and 11 MiB are refused; nothing is kept"
  )
  func refusals() throws {
    let png = Self.headers[.png]! + [0, 0, 0, 0]
    let text = write("notes.png", Array("just words, not an image\n".utf8))
    let empty = write("empty.png", [])
    let fifo = folder.file("pipe.png")
    #expect(mkfifo(fifo, 0o600) == 0)
    let real = write("real.png", png)
    let link = folder.file("link.png")
    #expect(symlink(real, link) == 0)
    let big = write("big.png", png, size: 11 * 1024 * 1024)
    for (source, expected) in [
      (text, "is not a PNG, JPEG, GIF or WebP image"), (empty, "is not a PNG"),
      (fifo, "is not a regular file"),
      (link, "is a symbolic link"), (folder.path, "is not a regular file"), (big, "may be at most 10485760"),
    ] {
      let error = #expect(throws: NotifyError.self) {
        try attachments.keep(source, app: "chat", id: "m1", token: "t1", index: 0)
      }
      #expect(error?.kind == .invalidData, "\(source)")
      #expect(error?.description.contains(expected) == true, "\(error?.description ?? "") for \(source)")
    }
    let missing = #expect(throws: NotifyError.self) {
      try attachments.keep(folder.file("gone.png"), app: "chat", id: "m1", token: "t1", index: 0)
    }
    #expect(missing?.kind == .noInput)
    let kept = (try? FileManager.default.contentsOfDirectory(atPath: attachments.path + "/chat")) ?? []
    #expect(kept.isEmpty)
  }

  @Test("a name made to escape stays a file name; a sweep keeps what is in use and hidden copies in progress")
  func sweep() throws {
    let source = write("a.gif", Self.headers[.gif]! + [1, 2, 3])
    var kept: [NotificationAttachment] = []
    for (id, index) in [("..", 0), ("m.1", 0), ("m", 1), ("m", 2)] {
      kept.append(try attachments.keep(source, app: "chat", id: id, token: "t", index: index))
    }
    let inProgress = try attachments.keep(source, app: "chat", id: "new", token: "t", index: 0)
    AttachmentFolder.commit(kept)
    let names = Set(try FileManager.default.contentsOfDirectory(atPath: attachments.path + "/chat"))
    #expect(names == ["...t.0.gif", "m.1.t.0.gif", "m.t.1.gif", "m.t.2.gif", "~new.t.0.gif"])
    // When swept with one in use: the others go at once, the hidden one in progress stays
    #expect(attachments.sweep(keeping: [kept[1].file]) == 3)
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: attachments.path + "/chat"))
    #expect(left == ["m.1.t.0.gif", "~new.t.0.gif"])
    // And a hidden copy older than any scheduling takes is taken for abandoned
    #expect(
      attachments.sweep(keeping: [kept[1].file], now: Date() + AttachmentFolder.abandonedAfter + 5) == 1)
    AttachmentFolder.discard([inProgress, kept[1]])
    #expect(attachments.sweep(keeping: []) == 0)
    #expect(!FileManager.default.fileExists(atPath: attachments.path + "/chat"))
  }
}

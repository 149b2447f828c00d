import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

@testable import NotifyStore

/// What keeps an attachment's copy from being lost or kept wrong: a sweep that races a
/// scheduling, a process that stopped between storing and naming, a source that changes
/// while it is copied, a descriptor that cannot be read.
@Suite(.ownThreads)
struct AttachmentCopyTests {
  let folder = TemporaryFolder()
  let base = Date(timeIntervalSince1970: 1_900_000_000)
  static let png: [UInt8] =
    [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 9, count: 100)

  func note(_ id: String, carrying attachments: [NotificationAttachment] = []) -> LocalNotification {
    var notification = LocalNotification(
      id: id, app: "chat", schedule: Schedule(fireDate: .instant(base + 3600)), body: "b", createdAt: base)
    notification.attachments = attachments
    return notification
  }

  func image(_ name: String, size: Int? = nil) -> String {
    let path = folder.file(name)
    FileManager.default.createFile(atPath: path, contents: Data(Self.png))
    if let size { truncate(path, off_t(size)) }
    return path
  }

  @Test func aCopyNamedWhileTheSweepReadsTheStoreStays() throws {
    // Given a store, an older notification's copy, and a new one's copy kept hidden
    let store = try SQLiteStore(path: folder.file("n.db"))
    let zones = testZones(testZone("UTC"))
    let old = try store.attachmentFolder.keep(image("old.png"), app: "chat", id: "old", token: "t", index: 0)
    _ = try store.schedule(note("old", carrying: [old]), zones: zones)
    AttachmentFolder.commit([old])
    let new = try store.attachmentFolder.keep(image("new.png"), app: "chat", id: "new", token: "t", index: 0)
    // When a sweep reads what the store uses, and right after that read the new
    // notification is stored and its copy named (another thread or process did it)
    store.attachmentFolder.sweep { () -> Set<String>? in
      let inUse = try? store.attachmentsInUse()
      _ = try? store.schedule(self.note("new", carrying: [new]), zones: zones)
      AttachmentFolder.commit([new])
      return inUse
    }
    // Then both pending notifications' copies are there
    #expect(FileManager.default.fileExists(atPath: old.file))
    #expect(FileManager.default.fileExists(atPath: new.file), "the new notification's copy was swept")
    #expect(try store.pending(app: "chat").count == 2)
  }

  @Test func aHiddenCopyTheStoreNamesIsNamedBySweeping() throws {
    // Given a notification stored with its copy, and a process that stopped before naming it
    let store = try SQLiteStore(path: folder.file("n.db"))
    let kept = try store.attachmentFolder.keep(image("a.png"), app: "chat", id: "a", token: "t", index: 0)
    _ = try store.schedule(note("a", carrying: [kept]), zones: testZones(testZone("UTC")))
    #expect(!FileManager.default.fileExists(atPath: kept.file))
    // When the folder is swept, even long after
    store.sweepAttachments(now: Date() + AttachmentFolder.abandonedAfter * 2)
    // Then the copy has its name, and its bytes
    #expect(fileBytes(kept.file) == Data(Self.png))
  }

  @Test func aClaimedOccurrencesCopyIsKeptUntilItIsHandedOver() throws {
    // Given a notification with a copy, due, claimed by a firer (its row no longer pending)
    let store = try SQLiteStore(path: folder.file("n.db"))
    let zones = testZones(testZone("UTC"))
    let kept = try store.attachmentFolder.keep(image("a.png"), app: "chat", id: "a", token: "t", index: 0)
    var due = note("a", carrying: [kept])
    due.schedule = Schedule(fireDate: .instant(base))
    _ = try store.schedule(due, zones: zones)
    AttachmentFolder.commit([kept])
    let claims = try store.claimDue(
      now: base + 1, zones: zones, owner: FirerIdentity.current, misfireGrace: nil, limit: 64)
    #expect(claims.count == 1)
    #expect(try store.pending(app: "chat").isEmpty)
    // When the folder is swept before the hand-off
    store.sweepAttachments()
    // Then the copy the sink is about to show is still there
    #expect(FileManager.default.fileExists(atPath: kept.file))
  }

  @Test func aSourceCutWhileItIsCopiedLeavesNothing() throws {
    // Given a 10 MiB image (by its first bytes), checked
    let source = image("big.png", size: 10 << 20)
    let input = open(source, O_RDONLY)
    defer { close(input) }
    let attachments = AttachmentFolder(storePath: folder.file("n.db"))
    let file = try AttachmentFile.inspect(input, name: "big.png", given: .descriptor)
    #expect(file.size == 10 << 20)
    // When it is cut to 9,109,504 bytes after the first chunk is copied
    var cut = false
    let error = #expect(throws: NotifyError.self) {
      try attachments.keep(file, identifier: "big", app: "chat", id: "m", token: "t", index: 0) { _ in
        if !cut { cut = truncate(source, 9_109_504) == 0 }
      }
    }
    // Then the copy is refused as changed, and nothing is kept
    #expect(cut)
    #expect(error?.kind == .invalidData)
    #expect(
      error?.description.contains("changed while it was copied") == true, "\(String(describing: error))")
    #expect(
      ((try? FileManager.default.contentsOfDirectory(atPath: attachments.path + "/chat")) ?? []).isEmpty)
  }

  @Test(
    "a descriptor that cannot be read is invalid data, naming why",
    arguments: [
      ("write-only", "open for writing only"), ("O_PATH", "O_PATH"), ("/proc/self/mem", "Input/output error"),
    ])
  func unreadableDescriptors(kind: String, expected: String) throws {
    let path = image("a.png")
    let fd: Int32 =
      switch kind {
      case "write-only": open(path, O_WRONLY)
      case "O_PATH": open(path, 0o10000000)
      default: open("/proc/self/mem", O_RDONLY)
      }
    try #require(fd >= 0)
    defer { close(fd) }
    let attachments = AttachmentFolder(storePath: folder.file("n.db"))
    let error = #expect(throws: NotifyError.self) {
      try attachments.keep(
        descriptor: fd, name: "attachment 1", identifier: "a", app: "chat", id: "m", token: "t", index: 0)
    }
    #expect(error?.kind == .invalidData, "\(String(describing: error))")
    #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
  }
}

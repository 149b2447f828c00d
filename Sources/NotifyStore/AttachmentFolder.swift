import Foundation
import NotifyCore

/// Where a store keeps its notifications' attachments: a folder beside the store file,
/// `<store>.attachments/<app>/`, 0700 like the store's, each kept copy 0600 and named by its
/// notification and the scheduling that kept it (`<id>.<token>.<index>.<ext>`), so that a
/// replacement never touches the copies of the notification it replaces.
///
/// A copy is written under a hidden name (`~<name>`: no id has a `~`), synced with its
/// folder, and takes its name (`commit`) only once the notification that carries it is
/// stored. `sweep` lists the folder before it reads what the store uses, so a copy named
/// after that read began was named after its notification was stored, and stays.
///
/// A file given at schedule time is checked then, through one descriptor (no path is read
/// twice): a regular file open for reading, not a symbolic link or a FIFO, within its
/// kind's size cap, of a kind its first bytes name (`AttachmentKind.sniff`). Its copy is
/// checked again (its length, its first bytes) before it is kept, so a kept copy is always
/// whole and of the kind recorded.
public struct AttachmentFolder: Sendable {
  /// The folder.
  public let path: String

  /// The attachment folder of the store at `storePath`.
  public init(storePath: String) {
    path = StoreFiles.filePath(storePath) + ".attachments"
  }

  /// Checks `source` and keeps a copy of it as attachment `index` of notification `id` of
  /// `app`, kept by the scheduling `token`. Throws `.invalidData` (65) for a file that is not an attachment notify takes,
  /// `.noInput` (66) for one that cannot be read, `.ioError` (74) when the copy cannot be
  /// written; nothing is left behind then.
  public func keep(
    _ source: String, identifier: String? = nil, app: String, id: String, token: String, index: Int
  ) throws(NotifyError) -> NotificationAttachment {
    // No final symbolic link followed, no wait on a FIFO's writer: one descriptor, checked.
    let input = Glibc.open(source, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard input >= 0 else { throw Self.openError(errno, Escaper.visible(source)) }
    defer { close(input) }
    let file = try AttachmentFile.inspect(input, name: source, given: .path)
    return try keep(
      file, identifier: identifier ?? (source as NSString).lastPathComponent, app: app, id: id, token: token,
      index: index)
  }

  /// `keep` for a file open at `input` (left open), named `name` in messages: the same
  /// checks, read from offset 0 whatever the descriptor's position. A descriptor not open
  /// for reading, or one that cannot be read, is invalid data (the caller's argument).
  public func keep(
    descriptor input: Int32, name: String, identifier: String, app: String, id: String, token: String,
    index: Int
  ) throws(NotifyError) -> NotificationAttachment {
    let file = try AttachmentFile.inspect(input, name: name, given: .descriptor)
    return try keep(file, identifier: identifier, app: app, id: id, token: token, index: index)
  }

  /// Keeps a copy of the checked `file` (see `keep(_:identifier:...)`), under its hidden
  /// name until `commit`. `copied` is called after each chunk with the bytes copied so far.
  public func keep(
    _ file: AttachmentFile, identifier: String, app: String, id: String, token: String, index: Int,
    copied: ((Int64) -> Void)? = nil
  ) throws(NotifyError) -> NotificationAttachment {
    let name = "\(id).\(token).\(index).\(file.kind.fileExtension)"
    try file.copy(into: appFolder(app), as: "~" + name, copied: copied) { () throws(NotifyError) in
      try self.appFolder(app)
    }
    return NotificationAttachment(
      identifier: identifier, kind: file.kind, file: path + "/" + app + "/" + name, size: file.size)
  }

  /// Makes the hidden names of copies kept in `apps`' folders durable (`fsync` of each
  /// folder), so that a notification stored after this names copies that survive a crash.
  public func synchronize(apps: some Sequence<String>) {
    for app in Set(apps) {
      let folder = Glibc.open(path + "/" + app, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      guard folder >= 0 else { continue }
      _ = fsync(folder)
      close(folder)
    }
  }

  /// A new scheduling token: 8 hex digits.
  public static func token() -> String {
    let hex = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    return String(repeating: "0", count: 8 - hex.count) + hex
  }

  /// Gives stored notifications' copies their names (they were kept hidden until then).
  /// A copy several notifications share is renamed once.
  public static func commit(_ attachments: [NotificationAttachment]) {
    for file in Set(attachments.map(\.file)) { rename(hidden(file), file) }
  }

  /// The hidden name a copy is kept under until `commit`.
  static func hidden(_ file: String) -> String {
    let name = (file as NSString).lastPathComponent
    return (file as NSString).deletingLastPathComponent + "/~" + name
  }

  /// How old a hidden copy must be before a sweep takes it for abandoned.
  public static let abandonedAfter: TimeInterval = 3600

  /// Removes these kept copies at once (a scheduling that failed after keeping them).
  public static func discard(_ attachments: [NotificationAttachment]) {
    for attachment in attachments {
      unlink(hidden(attachment.file))
      unlink(attachment.file)
    }
  }

  /// The bytes the copies in `app`'s folder take, hidden ones (copies in progress) included.
  public func bytesKept(app: String) -> Int64 {
    let folder = path + "/" + app
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
    var total: Int64 = 0
    for name in names {
      var info = stat()
      if lstat(folder + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
        total += Int64(info.st_size)
      }
    }
    return total
  }

  /// The app's folder, made 0700 (with the attachment folder) when missing.
  private func appFolder(_ app: String) throws(NotifyError) -> String {
    let folder = path + "/" + app
    for one in [path, folder] {
      guard mkdir(one, 0o700) == 0 || errno == EEXIST else {
        throw NotifyError(
          .ioError, "cannot make the attachment folder \(Escaper.visible(one)) (\(Self.text(errno)))",
          fix: "check the store's folder")
      }
      chmod(one, 0o700)
    }
    return folder
  }

  private static func openError(_ code: Int32, _ shown: String) -> NotifyError {
    switch code {
    case ELOOP:
      NotifyError(
        .invalidData, "the attachment \(shown) is a symbolic link",
        fix: "attach the file it points to; notify does not follow links to attachments")
    case ENOENT:
      NotifyError(.noInput, "no such attachment \(shown)", fix: "check the path")
    default:
      NotifyError(
        .noInput, "cannot open the attachment \(shown) (\(text(code)))",
        fix: "check that you may read the file")
    }
  }

  static func text(_ code: Int32) -> String { String(cString: strerror(code)) }
}

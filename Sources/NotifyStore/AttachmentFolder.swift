import Foundation
import NotifyCore

/// Where a store keeps its notifications' attachments: a folder beside the store
/// file, `<store>.attachments/<app>/`, 0700 like the store's, each kept copy 0600 and named
/// by its notification and the scheduling that kept it (`<id>.<token>.<index>.<ext>`), so
/// that a replacement never touches the copies of the notification it replaces.
///
/// A copy is written under a hidden name (`~<name>`: no id has a `~`) and takes its name (`commit`) only once
/// the notification that carries it is stored: `sweep(keeping:)` removes at once every named
/// copy no notification uses, and hidden ones only when they are older than any scheduling
/// takes (a process that died between the copy and the store).
///
/// A file given at schedule time is checked then, through one descriptor (no path is read
/// twice): a regular file, not a symbolic link or a FIFO, within its kind's size cap, of a
/// kind its first bytes name (`AttachmentKind.sniff`). Its copy is written under a
/// temporary name and renamed into place, so a kept copy is always whole.
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
    return try keep(
      descriptor: input, name: source, identifier: identifier ?? (source as NSString).lastPathComponent,
      app: app, id: id, token: token, index: index)
  }

  /// `keep` for a file open at `input` (left open), named `name` in messages: the same
  /// checks, read from offset 0 whatever the descriptor's position.
  public func keep(
    descriptor input: Int32, name: String, identifier: String, app: String, id: String, token: String,
    index: Int
  ) throws(NotifyError) -> NotificationAttachment {
    let shown = Escaper.visible(name)
    var status = stat()
    guard fstat(input, &status) == 0 else {
      throw NotifyError(
        .noInput, "cannot read the attachment \(shown) (\(Self.text(errno)))", fix: "check the file")
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw NotifyError(
        .invalidData, "the attachment \(shown) is not a regular file",
        fix: "attach an image file (PNG, JPEG, GIF or WebP)")
    }
    var header = [UInt8](repeating: 0, count: AttachmentKind.headerSize)
    let count = header.withUnsafeMutableBytes { pread(input, $0.baseAddress, $0.count, 0) }
    guard count >= 0 else {
      throw NotifyError(
        .noInput, "cannot read the attachment \(shown) (\(Self.text(errno)))", fix: "check the file")
    }
    guard let kind = AttachmentKind.sniff(header.prefix(count)) else {
      throw NotifyError(
        .invalidData, "the attachment \(shown) is not a PNG, JPEG, GIF or WebP image (by its contents)",
        fix: "attach an image file; its name does not decide its type")
    }
    let size = Int64(status.st_size)
    guard size <= kind.maximumSize else {
      throw NotifyError(
        .invalidData,
        "the attachment \(shown) is \(size) bytes; images may be at most \(kind.maximumSize) (10 MiB)",
        fix: "attach a smaller image")
    }
    let folder = try appFolder(app)
    let name = "\(id).\(token).\(index).\(kind.fileExtension)"
    try Self.copy(input, size: size, to: folder + "/~" + name, in: folder)
    let target = folder + "/" + name
    return NotificationAttachment(identifier: identifier, kind: kind, file: target, size: size)
  }

  /// A new scheduling token: 8 hex digits.
  public static func token() -> String {
    let hex = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    return String(repeating: "0", count: 8 - hex.count) + hex
  }

  /// Gives stored notifications' copies their names (they were kept hidden until then).
  public static func commit(_ attachments: [NotificationAttachment]) {
    for attachment in attachments { rename(hidden(attachment.file), attachment.file) }
  }

  /// The hidden name a copy is kept under until `commit`.
  static func hidden(_ file: String) -> String {
    let name = (file as NSString).lastPathComponent
    return (file as NSString).deletingLastPathComponent + "/~" + name
  }

  /// How old a hidden copy must be before a sweep takes it for abandoned.
  public static let abandonedAfter: TimeInterval = 3600

  /// Removes every named copy not in `inUse` (absolute paths), every hidden one older than
  /// `abandonedAfter`, and the app folders left empty. Returns how many copies went.
  @discardableResult
  public func sweep(keeping inUse: Set<String>, now: Date = Date()) -> Int {
    guard let apps = try? FileManager.default.contentsOfDirectory(atPath: path) else { return 0 }
    var removed = 0
    for app in apps {
      let folder = path + "/" + app
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
      for name in names {
        let file = folder + "/" + name
        if name.hasPrefix("~") {
          var info = stat()
          guard lstat(file, &info) == 0,
            now.timeIntervalSince1970 - TimeInterval(info.st_mtim.tv_sec) > Self.abandonedAfter
          else { continue }
        } else if inUse.contains(file) {
          continue
        }
        if unlink(file) == 0 { removed += 1 }
      }
      rmdir(folder)
    }
    return removed
  }

  /// Removes these kept copies at once (a scheduling that failed after keeping them).
  public static func discard(_ attachments: [NotificationAttachment]) {
    for attachment in attachments {
      unlink(hidden(attachment.file))
      unlink(attachment.file)
    }
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

  private static func text(_ code: Int32) -> String { String(cString: strerror(code)) }

  /// Copies `size` bytes of `input` to `target` (0600) through a temporary file in `folder`.
  private static func copy(_ input: Int32, size: Int64, to target: String, in folder: String)
    throws(NotifyError)
  {
    let temporary = folder + "/~incoming-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let output = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    var failure = output < 0 ? errno : 0
    if output >= 0 {
      var buffer = [UInt8](repeating: 0, count: 64 * 1024)
      var offset: Int64 = 0
      copying: while offset < size {
        let read = buffer.withUnsafeMutableBytes { pread(input, $0.baseAddress, $0.count, off_t(offset)) }
        guard read > 0 else {
          if read < 0 { failure = errno }
          break
        }
        var written = 0
        while written < read {
          let n = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, read - written) }
          guard n > 0 else {
            failure = errno
            break copying
          }
          written += n
        }
        offset += Int64(read)
      }
      if close(output) != 0, failure == 0 { failure = errno }
      if failure == 0, rename(temporary, target) != 0 { failure = errno }
    }
    guard failure == 0 else {
      unlink(temporary)
      throw NotifyError(
        .ioError, "cannot keep a copy of the attachment in \(Escaper.visible(folder)) (\(text(failure)))",
        fix: "check the free space and the store's folder")
    }
  }
}

import Foundation
import NotifyCore

/// A file given as an attachment, checked through its open descriptor (`inspect`): a
/// regular file open for reading, within its kind's cap, of a kind its first bytes name.
/// `copy` writes it into an attachment folder and checks the copy, never the source again:
/// a source that changes while it is copied leaves nothing behind.
public struct AttachmentFile: Sendable {
  /// How the file was given: a path notify opened, or a descriptor a caller sent.
  public enum Given: Sendable {
    /// A path notify opened (`notify schedule --attach`): a read failure is the file's (66).
    case path
    /// A descriptor a caller sent (the D-Bus service's `ah`): one notify cannot read is the
    /// caller's bad argument (65).
    case descriptor
  }

  /// The open file, not owned: its owner closes it.
  public let descriptor: Int32
  /// How messages name it (`attachment 2`, a path).
  public let name: String
  /// Its kind, by its first bytes.
  public let kind: AttachmentKind
  /// Its length when checked; the copy must have exactly this many bytes.
  public let size: Int64

  /// Checks the file open at `descriptor` (read from offset 0, whatever its position).
  /// Throws `.invalidData` (65) for a file notify does not take, and for a descriptor it
  /// cannot read when `given` is `.descriptor`; `.noInput` (66) for a path's unreadable file.
  public static func inspect(_ descriptor: Int32, name: String, given: Given) throws(NotifyError)
    -> AttachmentFile
  {
    let shown = Escaper.visible(name)
    func unreadable(_ why: String) -> NotifyError {
      given == .descriptor
        ? NotifyError(
          .invalidData, "the attachment \(shown) cannot be read (\(why))",
          fix: "send a descriptor of the image opened for reading")
        : NotifyError(.noInput, "cannot read the attachment \(shown) (\(why))", fix: "check the file")
    }
    let flags = fcntl(descriptor, F_GETFL)
    guard flags >= 0 else { throw unreadable(AttachmentFolder.text(errno)) }
    // (O_PATH, which Glibc does not export to Swift: 010000000 on Linux)
    if flags & 0o10000000 != 0 { throw unreadable("it is an O_PATH descriptor, open for no reading") }
    if flags & O_ACCMODE == O_WRONLY { throw unreadable("it is open for writing only") }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw unreadable(AttachmentFolder.text(errno)) }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw NotifyError(
        .invalidData, "the attachment \(shown) is not a regular file",
        fix: "attach an image file (PNG, JPEG, GIF or WebP)")
    }
    var header = [UInt8](repeating: 0, count: AttachmentKind.headerSize)
    let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    guard count >= 0 else { throw unreadable(AttachmentFolder.text(errno)) }
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
    return AttachmentFile(descriptor: descriptor, name: name, kind: kind, size: size)
  }

  /// Copies the file into `folder` as `target` (0600) through a temporary file: exactly
  /// `size` bytes read up to the file's end, checked again on the copy (its length, its
  /// kind), synced, then renamed into place. `remake` makes `folder` again when a sweep
  /// removed it (empty) in between. Throws `.invalidData` when the file changed while it
  /// was copied, `.ioError` when the copy cannot be written; nothing is left then.
  func copy(
    into folder: String, as target: String, copied: ((Int64) -> Void)?,
    remake: () throws(NotifyError) -> String
  ) throws(NotifyError) {
    let temporary = folder + "/~incoming-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    var output = Glibc.open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if output < 0, errno == ENOENT {
      _ = try remake()
      output = Glibc.open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    }
    guard output >= 0 else { throw Self.writeError(errno, folder) }
    var kept = false
    defer {
      close(output)
      if !kept { unlink(temporary) }
    }
    let total = try pump(to: output, folder: folder, copied: copied)
    // Whole: as long as when checked, and the source still so long (not cut while read).
    var source = stat()
    guard total == size, fstat(descriptor, &source) == 0, Int64(source.st_size) == size else {
      throw NotifyError(
        .invalidData,
        "the attachment \(Escaper.visible(name)) changed while it was copied (\(size) bytes when checked, \(total) copied)",
        fix: "attach it again once it is written")
    }
    // The copy is what is kept: its own length and first bytes decide.
    var copy = stat()
    var header = [UInt8](repeating: 0, count: AttachmentKind.headerSize)
    let count = header.withUnsafeMutableBytes { pread(output, $0.baseAddress, $0.count, 0) }
    guard fstat(output, &copy) == 0, Int64(copy.st_size) == size, count >= 0,
      AttachmentKind.sniff(header.prefix(count)) == kind
    else {
      throw NotifyError(
        .invalidData, "the attachment \(Escaper.visible(name)) changed while it was copied",
        fix: "attach it again once it is written")
    }
    guard fsync(output) == 0, rename(temporary, folder + "/" + target) == 0 else {
      throw Self.writeError(errno, folder)
    }
    kept = true
  }

  /// Copies the file from offset 0 to its end (at most one byte past `size`, which is
  /// enough to tell that it grew) into `output`; the bytes copied.
  private func pump(to output: Int32, folder: String, copied: ((Int64) -> Void)?) throws(NotifyError) -> Int64
  {
    var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    var offset: Int64 = 0
    while offset <= size {
      let wanted = Int(min(Int64(buffer.count), size + 1 - offset))
      let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(offset)) }
      if read < 0, errno == EINTR { continue }
      guard read >= 0 else {
        throw NotifyError(
          .invalidData,
          "the attachment \(Escaper.visible(name)) could not be read while it was copied (\(AttachmentFolder.text(errno)))",
          fix: "attach it again")
      }
      if read == 0 { break }
      var written = 0
      while written < read {
        let n = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, read - written) }
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { throw Self.writeError(errno, folder) }
        written += n
      }
      offset += Int64(read)
      copied?(offset)
    }
    return offset
  }

  private static func writeError(_ code: Int32, _ folder: String) -> NotifyError {
    NotifyError(
      .ioError,
      "cannot keep a copy of the attachment in \(Escaper.visible(folder)) (\(AttachmentFolder.text(code)))",
      fix: "check the free space and the store's folder")
  }
}

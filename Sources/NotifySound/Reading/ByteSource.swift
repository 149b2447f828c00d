import Glibc
import NotifyCore
import SystemPackage

/// Random access to the bytes of a file, one bounded read at a time. The reader never
/// asks for the whole file, so a sound file of any size costs a few kilobytes to check.
public protocol ByteSource: AnyObject {
  /// The length of the file in bytes.
  var size: Int64 { get }
  /// Up to `count` bytes starting at `offset`; fewer at the end of the file.
  func read(at offset: Int64, count: Int) throws(SoundFileProblem) -> [UInt8]
}

/// A `ByteSource` over an open file descriptor, reading with `pread`.
public final class FileByteSource: ByteSource {
  /// The length of the file in bytes, from `fstat` when the file was opened.
  public let size: Int64
  private let descriptor: FileDescriptor

  /// Opens a regular file for reading without blocking (a FIFO would otherwise hang
  /// `open`); throws `.noInput` when it is missing, unreadable or not a regular file.
  public init(path: String) throws(NotifyError) {
    let fd: FileDescriptor
    do {
      fd = try FileDescriptor.open(
        FilePath(path), .readOnly, options: [.nonBlocking, .closeOnExec])
    } catch {
      let problem =
        (error as? Errno) == .noSuchFileOrDirectory
        ? "no such file '\(Escaper.visible(path))'"
        : "cannot open '\(Escaper.visible(path))' (\(error))"
      throw NotifyError(
        .inputMissing(path: path), problem, fix: "check the path and that you may read the file")
    }
    let status: Stat
    do { status = try fd.stat() } catch {
      try? fd.close()
      throw NotifyError(
        .inputMissing(path: path), "cannot read '\(Escaper.visible(path))' (\(error))",
        fix: "check the path and that you may read the file")
    }
    guard status.type == .regular else {
      try? fd.close()
      throw NotifyError(
        .inputMissing(path: path), "'\(Escaper.visible(path))' is not a regular file",
        fix: "give the path of a sound file")
    }
    self.descriptor = fd
    self.size = status.size
  }

  deinit { try? descriptor.close() }

  /// Reads with `pread`, retrying on interruption and short reads.
  public func read(at offset: Int64, count: Int) throws(SoundFileProblem) -> [UInt8] {
    guard count > 0, offset >= 0, offset < size else { return [] }
    let wanted = Int(min(Int64(count), size - offset))
    var bytes = [UInt8](repeating: 0, count: wanted)
    var filled = 0
    do {
      try bytes.withUnsafeMutableBytes { buffer in
        while filled < wanted {
          let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])
          let got = try descriptor.read(fromAbsoluteOffset: offset + Int64(filled), into: slice)
          if got == 0 { break }
          filled += got
        }
      }
    } catch {
      throw .unreadable(Self.describe(error))
    }
    return Array(bytes.prefix(filled))
  }

  private static func describe(_ error: any Error) -> String {
    if let errno = error as? Errno { return errno.description }
    return "\(error)"
  }
}

/// A `ByteSource` over a descriptor someone else opened (and closes), read with `pread`.
final class DescriptorByteSource: ByteSource {
  let size: Int64
  private let descriptor: Int32

  init(_ descriptor: Int32) {
    self.descriptor = descriptor
    var status = stat()
    size = fstat(descriptor, &status) == 0 ? Int64(status.st_size) : 0
  }

  func read(at offset: Int64, count: Int) throws(SoundFileProblem) -> [UInt8] {
    guard count > 0, offset >= 0, offset < size else { return [] }
    var bytes = [UInt8](repeating: 0, count: Int(min(Int64(count), size - offset)))
    var filled = 0
    while filled < bytes.count {
      let got = bytes.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress! + filled, $0.count - filled, off_t(offset) + off_t(filled))
      }
      if got < 0, errno == EINTR { continue }
      guard got >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
      if got == 0 { break }
      filled += got
    }
    return Array(bytes.prefix(filled))
  }
}

/// A `ByteSource` over bytes in memory, for tests and for data that is already loaded.
public final class MemoryByteSource: ByteSource {
  /// The bytes.
  public let bytes: [UInt8]
  /// The length of `bytes`.
  public var size: Int64 { Int64(bytes.count) }

  /// Wraps `bytes`.
  public init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// A copy of the requested range, clipped to the end.
  public func read(at offset: Int64, count: Int) throws(SoundFileProblem) -> [UInt8] {
    guard count > 0, offset >= 0, offset < size else { return [] }
    let start = Int(offset)
    let end = start + min(count, bytes.count - start)
    return Array(bytes[start..<end])
  }
}

/// Wraps a source, counts what is read and refuses to read past a budget: the reader's
/// guarantee that a hostile file costs a bounded amount of I/O and memory.
final class MeteredSource {
  let base: any ByteSource
  let budget: Int
  private(set) var bytesRead = 0
  private(set) var reads = 0

  init(_ base: any ByteSource, budget: Int) {
    self.base = base
    self.budget = budget
  }

  var size: Int64 { base.size }

  func read(at offset: Int64, count: Int) throws(SoundFileProblem) -> ByteView {
    guard bytesRead + count <= budget else {
      throw .damaged(container: nil, detail: "its headers are larger than \(budget) bytes")
    }
    let bytes = try base.read(at: offset, count: count)
    bytesRead += bytes.count
    reads += 1
    return ByteView(bytes)
  }
}

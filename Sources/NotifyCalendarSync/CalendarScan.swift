import Foundation
import Glibc
import NotifyCalendar
import NotifyCore

/// The files of one watched path as they are now, each with its identity (size, change
/// time, inode): a file is read again only when that changed since the last scan.
///
/// A daemon keeps one between rescans and brings it up to date with the names its watch
/// reported (`update(_:)`), one `stat` each, instead of listing the folder again; its
/// fingerprint is a sum over the files, so that an update changes it in constant time and
/// it stays equal to what a fresh listing of the same files gives.
public struct CalendarScan: Sendable {
  /// One file's identity: a file replaced by a rename (how vdirsyncer writes) has another
  /// inode, an edited one another size or change time.
  public struct Stamp: Hashable, Sendable {
    var size: Int64
    var changed: Int64
    var inode: UInt64
  }

  /// The path scanned (a folder or a file).
  public let path: String
  /// The files with their stamps, sorted by path.
  public private(set) var files: [(path: String, stamp: Stamp)]
  /// The folders one level down (which a watch also watches).
  public private(set) var folders: [String]
  /// Whether `path` was a folder when it was listed.
  let isFolder: Bool
  /// The sums of the files' hashes (two lanes): the fingerprint without the zone.
  private var sumA: UInt64 = 0
  private var sumB: UInt64 = 0

  /// Lists `path` and stats each file.
  public init(path: String) {
    self.path = path
    isFolder = CalendarFiles.kind(of: path) == .folder
    let listing = CalendarFiles.list(path)
    folders = listing.folders
    files = listing.files.compactMap { file in Self.stamp(of: file).map { (file, $0) } }
    for (file, stamp) in files { add(Self.hash(file, stamp)) }
  }

  /// A file's stamp now, nil when it is not there (or is a folder).
  static func stamp(of file: String) -> Stamp? {
    var info = stat()
    guard stat(file, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else { return nil }
    let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    return Stamp(size: Int64(info.st_size), changed: max(changed, modified), inode: UInt64(info.st_ino))
  }

  /// Whether `file` is one of this path's item files by where it is and its name (a
  /// folder's file or one of its folders' one level down, or the path itself).
  public func covers(_ file: String) -> Bool {
    guard isFolder else { return file == path }
    let slash = file.utf8.lastIndex(of: UInt8(ascii: "/")) ?? file.utf8.startIndex
    let folder = String(file[..<slash])
    let name = String(file[file.utf8.index(after: slash)...])
    guard CalendarFiles.isItemName(name) else { return false }
    let base = path.hasSuffix("/") ? String(path.dropLast()) : path
    return folder == base || folders.contains(folder)
  }

  /// What `update(_:)` found.
  public enum Update: Sendable, Equatable {
    /// The file is as it was listed (or not the path's).
    case unchanged
    /// The file is new or has another stamp.
    case changed
    /// The file is gone.
    case removed
  }

  /// Brings `file` up to date after a watch reported it: stats it, and adds, restamps or
  /// drops it. A file the path does not cover is left alone.
  @discardableResult
  public mutating func update(_ file: String) -> Update {
    guard covers(file) else { return .unchanged }
    let stamp = Self.stamp(of: file)
    let index = position(of: file)
    let present = index < files.count && files[index].path == file
    if present, files[index].stamp == stamp { return .unchanged }
    if present {
      remove(Self.hash(file, files[index].stamp))
      guard let stamp else {
        files.remove(at: index)
        return .removed
      }
      files[index].stamp = stamp
      add(Self.hash(file, stamp))
      return .changed
    }
    guard let stamp else { return .unchanged }
    files.insert((file, stamp), at: index)
    add(Self.hash(file, stamp))
    return .changed
  }

  /// Where `file` is or would be in `files`.
  private func position(of file: String) -> Int {
    var low = 0
    var high = files.count
    while low < high {
      let middle = (low + high) / 2
      if files[middle].path < file { low = middle + 1 } else { high = middle }
    }
    return low
  }

  private mutating func add(_ hash: (UInt64, UInt64)) {
    sumA &+= hash.0
    sumB &+= hash.1
  }

  private mutating func remove(_ hash: (UInt64, UInt64)) {
    sumA &-= hash.0
    sumB &-= hash.1
  }

  /// Two 64-bit FNV-1a hashes of a file's path and stamp.
  static func hash(_ file: String, _ stamp: Stamp) -> (UInt64, UInt64) {
    var hasher = Hasher128()
    for byte in file.utf8 { hasher.mix(byte) }
    hasher.mix(UInt64(bitPattern: stamp.size))
    hasher.mix(UInt64(bitPattern: stamp.changed))
    hasher.mix(stamp.inode)
    return (hasher.a, hasher.b)
  }

  /// What the scan found, with the system zone floating times are read in: equal
  /// fingerprints mean nothing to read again.
  public func fingerprint(zone: String) -> String {
    var hasher = Hasher128()
    for byte in zone.utf8 { hasher.mix(byte) }
    hasher.mix(UInt64(files.count))
    hasher.mix(sumA)
    hasher.mix(sumB)
    return String(hasher.a, radix: 16) + String(hasher.b, radix: 16)
  }
}

/// Two 64-bit FNV-1a sums with different offset bases.
struct Hasher128 {
  var a: UInt64 = 0xcbf2_9ce4_8422_2325
  var b: UInt64 = 0x6c62_272e_07bb_0142

  mutating func mix(_ byte: UInt8) {
    a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
  }

  mutating func mix(_ value: UInt64) {
    for shift in stride(from: 0, to: 64, by: 8) { mix(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
  }
}

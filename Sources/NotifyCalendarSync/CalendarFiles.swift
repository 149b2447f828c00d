import Foundation
import Glibc
import NotifyCalendar
import NotifyCore

/// The `.ics` files a watched path stands for, and reading them.
///
/// A file is itself. A folder is a vdir (one `.ics` per item, as vdirsyncer and khal keep
/// them) whose `.ics` files count, and so do those of its folders one level down (a folder
/// of calendars). Names starting with `.` (temporary files of a sync in progress) do not.
public enum CalendarFiles {
  /// Files larger than this are skipped with a warning (256 MiB).
  public static let maxFileBytes = 256 << 20

  /// What a path is.
  public enum Kind: Sendable, Equatable {
    case file
    case folder
    case missing
  }

  /// What `path` is now.
  public static func kind(of path: String) -> Kind {
    var info = stat()
    guard stat(path, &info) == 0 else { return .missing }
    return (info.st_mode & S_IFMT) == S_IFDIR ? .folder : .file
  }

  /// Whether `name` is a calendar item's file name.
  public static func isItemName(_ name: String) -> Bool {
    let bytes = name.utf8
    guard bytes.count > 4, bytes.first != UInt8(ascii: ".") else { return false }
    let tail = bytes.suffix(4).map { $0 | 0x20 }
    return tail == [UInt8(ascii: "."), UInt8(ascii: "i"), UInt8(ascii: "c"), UInt8(ascii: "s")]
  }

  /// The item files of `path`, sorted, and the folders one level down (which a watch
  /// also watches).
  public static func list(_ path: String) -> (files: [String], folders: [String]) {
    switch kind(of: path) {
    case .missing: return ([], [])
    case .file: return ([path], [])
    case .folder:
      var files: [String] = []
      var folders: [String] = []
      let base = path.hasSuffix("/") ? path : path + "/"
      for (name, type) in entries(of: path) {
        let full = base + name
        if isItemName(name) {
          if type == .file || (type == nil && kind(of: full) == .file) { files.append(full) }
        } else if !name.hasPrefix("."), type == .folder || (type == nil && kind(of: full) == .folder) {
          folders.append(full)
          for (inner, innerType) in entries(of: full) where isItemName(inner) {
            let innerPath = full + "/" + inner
            if innerType == .file || (innerType == nil && kind(of: innerPath) == .file) {
              files.append(innerPath)
            }
          }
        }
      }
      return (files.sorted(), folders.sorted())
    }
  }

  /// The names in a folder (no `.` or `..`), each with what the folder says it is (nil:
  /// a link, or a file system that does not say, which a `stat` then tells).
  static func entries(of folder: String) -> [(String, Kind?)] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [(String, Kind?)] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
      }
      guard name != "." && name != ".." else { continue }
      switch Int32(entry.pointee.d_type) {
      case Int32(DT_REG): names.append((name, .file))
      case Int32(DT_DIR): names.append((name, .folder))
      default: names.append((name, nil))
      }
    }
    return names
  }

  /// A file's bytes, or why they could not be read (a warning naming the file).
  public static func read(_ path: String) -> Result<[UInt8], CalendarWarning> {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
    guard fd >= 0 else {
      return .failure(
        CalendarWarning(file: path, line: 0, property: "", "skipped: \(String(cString: strerror(errno)))"))
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      return .failure(CalendarWarning(file: path, line: 0, property: "", "skipped: not a regular file"))
    }
    guard info.st_size <= maxFileBytes else {
      return .failure(
        CalendarWarning(
          file: path, line: 0, property: "", "skipped: \(info.st_size) bytes, more than \(maxFileBytes)"))
    }
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
    var filled = 0
    while true {
      if filled == bytes.count { bytes.append(contentsOf: [UInt8](repeating: 0, count: 65_536)) }
      let count = bytes.withUnsafeMutableBytes { raw in
        Glibc.read(fd, raw.baseAddress! + filled, raw.count - filled)
      }
      if count < 0 {
        if errno == EINTR { continue }
        return .failure(
          CalendarWarning(file: path, line: 0, property: "", "skipped: \(String(cString: strerror(errno)))"))
      }
      if count == 0 { break }
      filled += count
      guard filled <= maxFileBytes else {
        return .failure(
          CalendarWarning(file: path, line: 0, property: "", "skipped: more than \(maxFileBytes) bytes"))
      }
    }
    bytes.removeSubrange(filled...)
    return .success(bytes)
  }
}

import Glibc
import NotifyCore
import Synchronization

/// The system's tz database: TZif files under `$TZDIR`, else `/usr/share/zoneinfo`, as
/// glibc, systemd, cron and Python's zoneinfo read them, so notify follows the `tzdata`
/// package (and zones compiled with `zic`) instead of the copy frozen into ICU.
///
/// Names stay inside the folder: no absolute names, no `.` or `..` components, and the
/// file (after links) must lie within the folder and parse as TZif. Zones are cached by
/// name until `reload()`, which the firer's zone watch calls when the files change.
public final class TZDatabase: ZoneDatabase, Sendable {
  /// The folder zones are read from.
  public let folder: String
  /// Shared by design: every thread that computes an instant reads zones.
  private let cache = Mutex(Cache())

  private struct Cache {
    var zones: [String: Zone] = [:]
    var paths: Set<String> = []
  }

  /// The default folder: `$TZDIR` when set and not empty, else `/usr/share/zoneinfo`.
  public static func defaultFolder() -> String {
    if let value = getenv("TZDIR"), value.pointee != 0 { return String(cString: value) }
    return "/usr/share/zoneinfo"
  }

  /// The database of this process, over `defaultFolder()`.
  public static let shared = TZDatabase()

  /// A database over `folder` (default: `defaultFolder()`).
  public init(folder: String? = nil) {
    var chosen = folder ?? Self.defaultFolder()
    while chosen.count > 1, chosen.hasSuffix("/") { chosen.removeLast() }
    self.folder = chosen
  }

  public func zone(named name: String) throws(ZoneError) -> Zone {
    if let zone = cache.withLock({ $0.zones[name] }) { return zone }
    try Self.validate(name)
    let path = folder + "/" + name
    guard let real = Self.realPath(path) else { throw .unknown(name: name, folder: folder) }
    let root = Self.realPath(folder) ?? folder
    guard real.hasPrefix(root == "/" ? "/" : root + "/") else {
      throw .invalidName(name: name, reason: "it leads outside \(folder)")
    }
    guard let bytes = ZoneFile.read(real) else {
      if let size = ZoneFile.sizeIfTooLarge(real) {
        throw .malformed(
          name: name,
          reason:
            "\(real) is \(size) bytes, more than the \(ZoneFile.maximumSize >> 20) MiB a zone file may have")
      }
      throw .unknown(name: name, folder: folder)
    }
    let zone = try Zone(identifier: name, tzif: bytes)
    cache.withLock { cache in
      cache.zones[name] = zone
      cache.paths.insert(real)
    }
    return zone
  }

  /// The files (links resolved) of the zones read so far: what the zone watch watches.
  public var filesInUse: Set<String> { cache.withLock { $0.paths } }

  /// Forgets the cached zones, so that the next lookups read the files again.
  public func reload() {
    cache.withLock { $0.zones.removeAll() }
  }

  /// Refuses names that could leave the folder or are not zone names at all.
  static func validate(_ name: String) throws(ZoneError) {
    if name.isEmpty { throw .invalidName(name: name, reason: "it is empty") }
    if name.utf8.count > 255 { throw .invalidName(name: name, reason: "it is longer than 255 bytes") }
    if name.hasPrefix("/") { throw .invalidName(name: name, reason: "it is an absolute path") }
    if name.utf8.contains(where: { $0 < 0x20 || $0 == 0x7f }) {
      throw .invalidName(name: name, reason: "it contains control characters")
    }
    for component in name.split(separator: "/", omittingEmptySubsequences: false) {
      if component.isEmpty { throw .invalidName(name: name, reason: "it has an empty component") }
      if component == "." || component == ".." {
        throw .invalidName(name: name, reason: "it has a '\(component)' component")
      }
    }
  }

  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}

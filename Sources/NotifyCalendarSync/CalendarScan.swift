import Foundation
import Glibc
import NotifyCalendar
import NotifyCore

/// The files of one watched path as they are now: each one's identity (size, change time,
/// inode), read and parsed only when that changed since the last scan (`DocumentCache`).
public struct CalendarScan: Sendable {
  /// One file's identity: a file replaced by a rename (how vdirsyncer writes) has another
  /// inode, an edited one another size or change time.
  public struct Stamp: Hashable, Sendable {
    var size: Int64
    var changed: Int64
    var inode: UInt64
  }

  /// The files with their stamps, sorted by path.
  public var files: [(path: String, stamp: Stamp)]
  /// The folders one level down (which a watch also watches).
  public var folders: [String]

  /// Lists `path` and stats each file.
  public init(path: String) {
    let listing = CalendarFiles.list(path)
    folders = listing.folders
    files = listing.files.compactMap { file in
      var info = stat()
      guard stat(file, &info) == 0 else { return nil }
      let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
      let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
      return (
        file, Stamp(size: Int64(info.st_size), changed: max(changed, modified), inode: UInt64(info.st_ino))
      )
    }
  }

  /// What the scan found, with the system zone floating times are read in: equal
  /// fingerprints mean nothing to read again.
  public func fingerprint(zone: String) -> String {
    // Two 64-bit FNV-1a sums over the zone and each file's path and stamp.
    var a: UInt64 = 0xcbf2_9ce4_8422_2325
    var b: UInt64 = 0x6c62_272e_07bb_0142
    func mix(_ byte: UInt8) {
      a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
      b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
    func mixWord(_ value: UInt64) {
      for shift in stride(from: 0, to: 64, by: 8) { mix(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
    for byte in zone.utf8 { mix(byte) }
    for (path, stamp) in files {
      mix(UInt8(0))
      for byte in path.utf8 { mix(byte) }
      mixWord(UInt64(bitPattern: stamp.size))
      mixWord(UInt64(bitPattern: stamp.changed))
      mixWord(stamp.inode)
    }
    return String(a, radix: 16) + String(b, radix: 16)
  }
}

/// Parsed files, kept while their stamps stay the same: a daemon reads a changed file
/// again, not the whole calendar. Only touched by the thread that owns its `CalendarSync`.
public final class DocumentCache {
  private var entries: [String: (stamp: CalendarScan.Stamp, document: CalendarDocument)] = [:]

  public init() {}

  /// The document of `path` as `stamp` says it is now; `fresh` is true when it was read now.
  func document(_ path: String, stamp: CalendarScan.Stamp) -> (
    document: CalendarDocument, fresh: Bool, failure: CalendarWarning?
  ) {
    if let hit = entries[path], hit.stamp == stamp { return (hit.document, false, nil) }
    switch CalendarFiles.read(path) {
    case .failure(let warning):
      entries[path] = nil
      return (CalendarDocument(), true, warning)
    case .success(let bytes):
      let document = CalendarDocument(bytes: bytes)
      entries[path] = (stamp, document)
      return (document, true, nil)
    }
  }

  /// Forgets files no longer listed.
  func keep(only paths: Set<String>) {
    for path in entries.keys where !paths.contains(path) { entries[path] = nil }
    for path in expansions.keys where !paths.contains(path) { expansions[path] = nil }
  }

  private struct Expansion {
    var stamp: CalendarScan.Stamp
    var zone: String
    var from: Date
    var instants: [AlarmInstant]
    var truncated: Bool
  }

  private var expansions: [String: Expansion] = [:]

  /// Keeps a file's expansion (the soonest instants after `from`).
  func keep(
    expansion instants: [AlarmInstant], truncated: Bool, of path: String, stamp: CalendarScan.Stamp,
    zone: String,
    from: Date
  ) {
    expansions[path] = Expansion(
      stamp: stamp, zone: zone, from: from, instants: instants, truncated: truncated)
  }

  /// The soonest instants of an unchanged file after `from`, when a kept expansion still
  /// holds them all: same stamp and zone, made from no later, and (when it was cut at its
  /// limit) still holding `limit` after `from`.
  func expansion(_ path: String, stamp: CalendarScan.Stamp, zone: String, from: Date, limit: Int)
    -> [AlarmInstant]?
  {
    guard let kept = expansions[path], kept.stamp == stamp, kept.zone == zone, kept.from <= from else {
      return nil
    }
    let left = kept.instants.filter { $0.fireDate >= from }
    if kept.truncated && left.count < limit { return nil }
    return left
  }

  /// How many files it holds.
  public var count: Int { entries.count }
}

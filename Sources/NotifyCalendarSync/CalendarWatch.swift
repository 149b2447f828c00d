import CSystemd
import Foundation
import Glibc

/// Watches calendar folders and files with inotify on the firing loop's sd-event loop, and
/// calls `onChange` once a burst of changes has settled: `quiet` after the last event, and
/// at most `longest` after the first, so that a sync writing 500 files is one rescan and an
/// edit is seen within a second. Nothing is armed while nothing changes: an idle daemon
/// watching calendars makes no wake-ups.
///
/// A folder is watched with its folders one level down (a folder of calendars); a file
/// through its folder, for its name only, so that a file replaced by a rename (how
/// vdirsyncer and editors write) is followed. Runs on the loop's thread only.
public final class CalendarWatch {
  /// Quiet time after the last event before `onChange`.
  public static let quiet: UInt64 = 150_000
  /// The longest `onChange` waits after the first event of a burst.
  public static let longest: UInt64 = 700_000

  /// For a folder watched for some names only (a calendar file's, the store's marker): no
  /// IN_MODIFY, which the store's folder would raise at every write to its WAL.
  private static let namesMask: UInt32 =
    UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB)
    | UInt32(IN_ONLYDIR)
  private static let folderMask: UInt32 =
    UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MODIFY)
    | UInt32(IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(IN_ONLYDIR)

  private let onChange: () -> Void
  /// A file whose change means the list of calendars changed (`CalendarComponent.marker`).
  private let marker: String?
  /// Whether the marker was touched in the burst `onChange` is called for.
  public private(set) var markerTouched = false
  private var pendingMarker = false
  /// The files the burst `onChange` is called for changed (created, written, renamed,
  /// deleted), by path; nil when it cannot say (a folder came or went, the kernel's queue
  /// overflowed, a watch was dropped): then every calendar must be listed again.
  public private(set) var changedFiles: Set<String>? = []
  private var pendingFiles: Set<String>? = []
  private var fd: Int32 = -1
  private var ioSource: OpaquePointer?
  private var timer: OpaquePointer?
  /// Watch descriptor → the folder and the names that count there (nil: every `.ics` name and folder).
  private var watches: [Int32: (folder: String, names: Set<String>?)] = [:]
  private var firstEvent: UInt64?
  /// Bursts seen so far (tests and benchmarks read it).
  public private(set) var bursts = 0

  /// A watch that calls `onChange` after changes settle.
  public init(marker: String? = nil, onChange: @escaping () -> Void) {
    self.marker = marker
    self.onChange = onChange
  }

  deinit { detach() }

  /// Starts dispatching on `event` (an `sd_event *`).
  public func attach(to event: OpaquePointer) throws {
    fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard fd >= 0 else { throw WatchError("inotify_init1: \(String(cString: strerror(errno)))") }
    let me = Unmanaged.passUnretained(self).toOpaque()
    var source: OpaquePointer?
    var result = sd_event_add_io(
      event, &source, fd, UInt32(EPOLLIN.rawValue),
      { _, _, _, userdata in
        Unmanaged<CalendarWatch>.fromOpaque(userdata!).takeUnretainedValue().readEvents()
        return 0
      }, me)
    guard result >= 0 else { throw WatchError("sd_event_add_io: \(String(cString: strerror(-result)))") }
    ioSource = source
    var timerSource: OpaquePointer?
    result = sd_event_add_time(
      event, &timerSource, CLOCK_MONOTONIC, UInt64.max, 1000,
      { _, _, userdata in
        Unmanaged<CalendarWatch>.fromOpaque(userdata!).takeUnretainedValue().settled()
        return 0
      }, me)
    guard result >= 0 else { throw WatchError("sd_event_add_time: \(String(cString: strerror(-result)))") }
    timer = timerSource
    sd_event_source_set_enabled(timer, Int32(SD_EVENT_OFF))
  }

  /// Stops watching.
  public func detach() {
    if let ioSource { sd_event_source_disable_unref(ioSource) }
    if let timer { sd_event_source_disable_unref(timer) }
    ioSource = nil
    timer = nil
    if fd >= 0 { close(fd) }
    fd = -1
    watches = [:]
  }

  /// Watches exactly `paths` (calendar folders and files) and the folders `extra` (their
  /// folders one level down): adds what is new, drops what is gone. Returns whether a
  /// folder is watched now that was not before (what was written in it before then was
  /// not seen).
  @discardableResult
  public func watch(paths: [String], extra: [String]) -> Bool {
    guard fd >= 0 else { return false }
    var wanted: [String: Set<String>?] = [:]
    for path in paths {
      switch CalendarFiles.kind(of: path) {
      case .folder: wanted[path] = .some(nil)
      case .file, .missing:
        // A file is watched through its folder, for its name.
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        switch wanted[folder] {
        case .some(.none): break
        case .some(.some(var names)):
          names.insert(url.lastPathComponent)
          wanted[folder] = .some(names)
        case .none: wanted[folder] = .some([url.lastPathComponent])
        }
      }
    }
    for folder in extra where wanted[folder] == nil { wanted[folder] = .some(nil) }
    if let marker {
      let url = URL(fileURLWithPath: marker)
      let folder = url.deletingLastPathComponent().path
      switch wanted[folder] {
      case .some(.none): break
      case .some(.some(var names)):
        names.insert(url.lastPathComponent)
        wanted[folder] = .some(names)
      case .none: wanted[folder] = .some([url.lastPathComponent])
      }
    }
    for (wd, entry) in watches where wanted[entry.folder] == nil {
      inotify_rm_watch(fd, wd)
      watches[wd] = nil
    }
    let before = Set(watches.values.map(\.folder))
    var added = false
    for (folder, names) in wanted {
      let wd = inotify_add_watch(fd, folder, names == nil ? Self.folderMask : Self.namesMask)
      guard wd >= 0 else { continue }
      watches[wd] = (folder, names)
      if !before.contains(folder) { added = true }
    }
    return added
  }

  /// The folders watched now.
  public var watchedFolders: [String] { watches.values.map(\.folder).sorted() }

  private func readEvents() {
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var relevant = false
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      var offset = 0
      while offset + MemoryLayout<inotify_event>.size <= count {
        let (wd, mask, length) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
          let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
          return (event.wd, event.mask, Int(event.len))
        }
        let nameStart = offset + MemoryLayout<inotify_event>.size
        var name = ""
        if length > 0 {
          let bytes = buffer[nameStart..<(nameStart + length)].prefix { $0 != 0 }
          name = String(decoding: bytes, as: UTF8.self)
        }
        offset = nameStart + length
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
          relevant = true
          pendingFiles = nil
          continue
        }
        guard let entry = watches[wd] else { continue }
        if mask & UInt32(IN_IGNORED) != 0 {
          watches[wd] = nil
          relevant = true
          pendingFiles = nil
          continue
        }
        let path = entry.folder.hasSuffix("/") ? entry.folder + name : entry.folder + "/" + name
        if let marker, path == marker {
          pendingMarker = true
          relevant = true
        } else if let names = entry.names {
          if names.contains(name) {
            relevant = true
            // A calendar's path that comes back as a folder is listed whole.
            if mask & UInt32(IN_ISDIR) != 0 { pendingFiles = nil } else { pendingFiles?.insert(path) }
          }
        } else if name.isEmpty || mask & UInt32(IN_ISDIR) != 0 {
          // The folder itself, or a folder in it: what is listed changed beyond one file.
          relevant = true
          pendingFiles = nil
        } else if CalendarFiles.isItemName(name) {
          relevant = true
          pendingFiles?.insert(path)
        }
      }
    }
    guard relevant, let timer else { return }
    var now: UInt64 = 0
    sd_event_now(sd_event_source_get_event(timer), CLOCK_MONOTONIC, &now)
    let first = firstEvent ?? now
    firstEvent = first
    sd_event_source_set_time(timer, min(now + Self.quiet, first + Self.longest))
    sd_event_source_set_enabled(timer, Int32(SD_EVENT_ONESHOT))
  }

  private func settled() {
    firstEvent = nil
    bursts += 1
    markerTouched = pendingMarker
    pendingMarker = false
    changedFiles = pendingFiles
    pendingFiles = []
    onChange()
    markerTouched = false
    changedFiles = []
  }

  struct WatchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }
}

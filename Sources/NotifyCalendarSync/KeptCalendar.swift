import Foundation
import NotifyCalendar

/// What a sync keeps of one calendar between rescans: its listing (`scan`), and for each
/// file the instants of its soonest alarms after the watermark as they were expanded, as
/// bare times in one flat array; the full instants (titles, UIDs) only of the files whose
/// alarms are among the soonest the window uses. A rescan after one edit reads and expands
/// that file only, and a calendar of thousands of files costs tens of bytes per file, not
/// its parsed items. Only touched by the thread that owns its `CalendarSync`.
final class KeptCalendar {
  /// One kept instant: when, and whether it is an alarm's first going off (not a REPEAT).
  struct Kept {
    var at: Double
    var isFirst: Bool
  }

  /// One file's kept expansion: made from its `stamp`, for instants after `from`, the
  /// soonest first; `truncated` when the expansion's limit cut it.
  struct Record {
    var stamp: CalendarScan.Stamp
    var from: Double
    var truncated: Bool
    var start: Int32
    var count: Int32
  }

  /// The full instants of a file, as one expansion (`from`, `stamp`) made them.
  struct Full {
    var stamp: CalendarScan.Stamp
    var from: Double
    var instants: [AlarmInstant]
  }

  var scan: CalendarScan
  /// The system zone the kept expansions read floating times in.
  private(set) var zone: String
  private var records: [String: Record] = [:]
  private var pool: [Kept] = []
  /// Kept instants in `pool` no record points at any more.
  private var garbage = 0
  /// The full instants of the files the last sync chose from.
  var full: [String: Full] = [:]

  init(scan: CalendarScan, zone: String) {
    self.scan = scan
    self.zone = zone
  }

  /// Forgets every expansion when the system zone changed (floating times move with it).
  func use(zone: String) {
    guard zone != self.zone else { return }
    self.zone = zone
    records = [:]
    pool = []
    garbage = 0
    full = [:]
  }

  /// Whether `path` has been expanded from another stamp, or never: what a read of it
  /// finds is news (its warnings are reported).
  func isChanged(_ path: String, stamp: CalendarScan.Stamp) -> Bool { records[path]?.stamp != stamp }

  /// The kept instants of an unchanged file after `from`, when its kept expansion still
  /// holds them all: the same stamp, made from no later, and (when it was cut at its limit)
  /// still holding `limit` after `from`. Nil when the file must be expanded again.
  func kept(_ path: String, stamp: CalendarScan.Stamp, from: Double, limit: Int) -> ArraySlice<Kept>? {
    guard let record = records[path], record.stamp == stamp, record.from <= from else { return nil }
    let lower = Int(record.start)
    let upper = lower + Int(record.count)
    var first = lower
    while first < upper && pool[first].at < from { first += 1 }
    if record.truncated && upper - first < limit { return nil }
    return pool[first..<upper]
  }

  /// The full instants of an unchanged file after `from`, when the expansion it keeps
  /// made them.
  func fullInstants(_ path: String, stamp: CalendarScan.Stamp, from: Double) -> [AlarmInstant]? {
    guard let record = records[path], let kept = full[path], kept.stamp == stamp, record.stamp == stamp,
      kept.from == record.from, kept.from <= from
    else { return nil }
    return kept.instants
  }

  /// Keeps a file's expansion (its soonest instants after `from`, soonest first).
  func keep(
    _ instants: [AlarmInstant], truncated: Bool, of path: String, stamp: CalendarScan.Stamp, from: Double
  ) {
    let count = instants.count
    var record =
      records[path]
      ?? Record(stamp: stamp, from: from, truncated: truncated, start: Int32(pool.count), count: 0)
    if Int(record.count) >= count, records[path] != nil {
      garbage += Int(record.count) - count
    } else {
      if records[path] != nil { garbage += Int(record.count) }
      record.start = Int32(pool.count)
      pool.append(contentsOf: repeatElement(Kept(at: 0, isFirst: false), count: count))
    }
    for (offset, instant) in instants.enumerated() {
      pool[Int(record.start) + offset] = Kept(
        at: instant.fireDate.timeIntervalSince1970, isFirst: instant.repetition == 0)
    }
    record.count = Int32(count)
    record.stamp = stamp
    record.from = from
    record.truncated = truncated
    records[path] = record
    if garbage > 4096 && garbage > pool.count / 2 { compact() }
  }

  /// Forgets a file no longer listed.
  func forget(_ path: String) {
    if let record = records.removeValue(forKey: path) { garbage += Int(record.count) }
    full[path] = nil
  }

  /// Forgets every file `scan` no longer lists.
  func forgetUnlisted() {
    let listed = Set(scan.files.map(\.path))
    for path in records.keys where !listed.contains(path) { forget(path) }
    for path in full.keys where !listed.contains(path) { full[path] = nil }
  }

  /// How many files have a kept expansion.
  var count: Int { records.count }

  /// Moves the live kept instants together.
  private func compact() {
    var packed: [Kept] = []
    packed.reserveCapacity(pool.count - garbage)
    for (path, var record) in records {
      let start = Int(record.start)
      record.start = Int32(packed.count)
      packed.append(contentsOf: pool[start..<(start + Int(record.count))])
      records[path] = record
    }
    pool = packed
    garbage = 0
  }
}

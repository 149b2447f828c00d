import Foundation
import Glibc
import NotifyCalendar
import NotifyCalendarSync
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// A daemon's rescan states only the files its watch named and reuses what it kept of the
/// others; its result must be the one a full scan of the same files gives. Two stores see
/// the same seeded edits, deliveries and passing time: one synced by a `CalendarSync` kept
/// across the steps and told which files changed, the other by a fresh one that lists and
/// reads everything each time.
@Suite("A rescan of the changed files equals a full scan", .ownThreads)
struct RescanEquivalenceTests {
  let folder = TemporaryFolder(prefix: "notify-calendar-rescan")
  var vdir: String { folder.file("vdir") }

  /// An item of kind `shape` whose alarms start about `hours` from `base`.
  static func item(_ n: Int, shape: Int, hours: Int, base: Date, title: String) -> String {
    let start = CalendarDateTime(
      wall: WallClock(localSeconds: Int64(base.timeIntervalSince1970) + Int64(hours * 3600)), reference: .utc
    ).text
    var lines = [
      "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notify tests//EN", "BEGIN:VEVENT", "UID:item-\(n)",
      "DTSTART:\(start)", "SUMMARY:\(title)",
    ]
    switch shape {
    case 0: break
    case 1: lines.append("RRULE:FREQ=HOURLY;INTERVAL=7;COUNT=90")
    case 2: lines.append("RRULE:FREQ=DAILY")
    default: lines.append("RDATE:\(start.prefix(8))T235900Z")
    }
    lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT\(5 + n % 3)M"]
    if shape == 3 { lines += ["REPEAT:2", "DURATION:PT5M"] }
    lines += ["END:VALARM", "END:VEVENT", "END:VCALENDAR", ""]
    return lines.joined(separator: "\r\n")
  }

  /// What a window's store holds, to compare.
  static func snapshot(_ store: SQLiteStore) throws -> [String] {
    var lines: [String] = []
    for notification in try store.pending(app: "calendar.eq") {
      let n = notification.notification
      lines.append(
        "pending \(n.id) \(notification.nextFireDate.map { "\($0.timeIntervalSince1970)" } ?? "-") \(n.title ?? "") \(n.subtitle ?? "") \(n.realert.map { "\($0.every)x\($0.times)" } ?? "")"
      )
    }
    for calendar in try store.calendars() {
      lines.append(
        "calendar \(calendar.name) \(calendar.watermark.timeIntervalSince1970) \(calendar.fingerprint ?? "-")"
      )
      for alarm in try store.calendarAlarms(calendar: calendar.name) {
        lines.append(
          "alarm \(alarm.id) \(alarm.fireDate.timeIntervalSince1970) \(alarm.state) \(alarm.digest) \(alarm.file)"
        )
      }
    }
    return lines
  }

  @Test(
    "seeded edits, renames, deletions, new folders, deliveries and time passing: the same store",
    arguments: [1, 2, 3])
  func equivalence(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let base = Date(timeIntervalSince1970: 1_800_000_000)
    let clock = ManualClock(now: base, localZone: .utc, database: testZoneDatabase)
    try FileManager.default.createDirectory(atPath: vdir + "/sub", withIntermediateDirectories: true)
    func write(_ path: String, _ n: Int, title: String) throws {
      let text = Self.item(
        n, shape: Int(random.next() % 4), hours: 1 + Int(random.next() % 300), base: clock.now(), title: title
      )
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
    var paths: [String] = []
    for n in 0..<120 {
      let path = vdir + (n % 5 == 0 ? "/sub" : "") + "/i\(n).ics"
      try write(path, n, title: "Item \(n)")
      paths.append(path)
    }
    // Given two stores with the same calendar
    var stores: [SQLiteStore] = []
    for name in ["kept", "full"] {
      let store = try SQLiteStore(path: folder.file("\(name).db"))
      try store.addCalendar(
        CalendarRecord(
          name: "eq", path: vdir, app: "calendar.eq", writeBack: false, addedAt: base, watermark: base))
      stores.append(store)
    }
    let kept = CalendarSync(store: stores[0], clock: clock)
    try kept.sync(force: true)
    try CalendarSync(store: stores[1], clock: clock).sync(force: true)
    #expect(try Self.snapshot(stores[0]) == Self.snapshot(stores[1]))
    for step in 0..<25 {
      // When some files change (as a watch would name them), some alarms leave the store
      // (delivered), and time passes
      var changed: Set<String> = []
      var next = paths.count
      for _ in 0..<(1 + Int(random.next() % 4)) {
        let pick = Int(random.next() % UInt64(paths.count))
        let path = paths[pick]
        switch random.next() % 5 {
        case 0:
          try? FileManager.default.removeItem(atPath: path)
        case 1:
          // Replaced by a rename, as vdirsyncer writes.
          let temporary = vdir + "/.tmp-\(step)"
          let text = Self.item(pick, shape: 0, hours: 2 + step, base: clock.now(), title: "Renamed \(step)")
          try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
          rename(temporary, path)
        case 2:
          let path = vdir + "/sub/new\(next).ics"
          try write(path, next, title: "New \(next)")
          paths.append(path)
          changed.insert(path)
          next += 1
        default:
          try write(path, pick, title: "Edit \(step)")
        }
        changed.insert(path)
      }
      let delivered = Int(random.next() % 3)
      for store in stores {
        let pending = try store.pending(app: "calendar.eq").prefix(delivered)
        _ = try store.cancel(app: "calendar.eq", ids: pending.map(\.notification.id), at: clock.now())
      }
      clock.advance(by: TimeInterval(random.next() % 20_000))
      try kept.sync(changed: changed)
      try CalendarSync(store: stores[1], clock: clock).sync()
      // Then both stores hold the same window, watermarks and fingerprints
      let (a, b) = (try Self.snapshot(stores[0]), try Self.snapshot(stores[1]))
      let differences = Set(a).symmetricDifference(b).sorted()
      #expect(differences.isEmpty, "step \(step): \(differences.prefix(6))")
      if differences.isEmpty { #expect(a == b, "step \(step): the same lines in another order") }
      if !differences.isEmpty { break }
      #expect(!a.filter { $0.hasPrefix("pending") }.isEmpty)
    }
  }
}

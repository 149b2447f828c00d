import Foundation
import Glibc
import Logging
import NotifyCalendar
import NotifyCore
import NotifyStore

/// Writes acknowledgements back into the calendars that asked for it (`--write-back`):
/// each click, button (dismiss and snooze among them) and dismissal by the user of a
/// calendar alarm, read from history (whichever process heard it), becomes
/// `ACKNOWLEDGED` in the alarm's item (`AcknowledgementEdit`), so that a sync carries it
/// to the server and the other devices stop too.
///
/// The file is replaced atomically (a temporary file beside it, synced, renamed over it),
/// keeps every other byte and its mode, and is left alone when it changed since it was read.
public final class CalendarWriteBack {
  let store: SQLiteStore
  let clock: any NotifyClock
  let logger: Logger
  /// The one app whose calendars it writes to (an app's firing service), nil for all.
  let app: String?

  /// Write-back for the calendars of `store` (of `app`'s only, when given).
  public init(
    store: SQLiteStore, clock: any NotifyClock, app: String? = nil,
    logger: Logger = Logger(label: "notify.calendar")
  ) {
    self.store = store
    self.clock = clock
    self.app = app
    self.logger = logger
  }

  /// Acknowledges in the files what history says was acknowledged since the last look.
  /// Returns how many files were written.
  @discardableResult
  public func run() throws(NotifyError) -> Int {
    var written = 0
    let calendars = try store.calendars().filter { $0.writeBack && (app == nil || $0.app == app) }
    for app in Set(calendars.map(\.app)).sorted() {
      let members = calendars.filter { $0.app == app }
      let seen = members.map(\.historySeen).min() ?? 0
      let events = try store.acknowledgements(app: app, after: seen)
      guard let last = events.last?.0 else { continue }
      for (_, event) in events {
        guard event.notificationID.hasPrefix(AlarmIdentity.prefix),
          let record = try store.calendarAlarm(app: app, id: event.notificationID),
          members.contains(where: { $0.name == record.calendar })
        else { continue }
        // A snooze is written as RFC 9074 says (the alarm acknowledged, a snooze alarm
        // beside it); every other answer acknowledges.
        if event.kind == .snoozed, let until = event.fireDate {
          if snooze(record, at: max(event.at, record.fireDate), until: until) { written += 1 }
        } else if acknowledge(record, at: max(event.at, record.fireDate)) {
          written += 1
        }
      }
      try store.noteCalendarHistorySeen(last, calendars: members.map(\.name))
    }
    return written
  }

  /// Writes one acknowledgement; whether the file was written.
  func acknowledge(_ record: CalendarAlarmRecord, at time: Date) -> Bool {
    let path = record.file
    let before = Self.stamp(path)
    guard case .success(let bytes) = CalendarFiles.read(path), let before else {
      logger.notice("calendar write-back: \(Escaper.visible(path)) cannot be read: not acknowledged there")
      return false
    }
    switch AcknowledgementEdit.acknowledge(
      bytes, uid: record.uid, recurrenceID: record.recurrenceID, alarmKey: record.alarmKey, at: time,
      zones: clock.zones)
    {
    case .failure(let failure):
      logger.info("calendar write-back: \(Escaper.visible(path)): \(failure): nothing written")
      return false
    case .success(let edited):
      do {
        try Self.replace(path, with: edited, ifStill: before)
        logger.info("calendar write-back: acknowledged an alarm in \(Escaper.visible(path))")
        return true
      } catch {
        logger.notice("calendar write-back: \(Escaper.visible(path)) not written: \(error)")
        return false
      }
    }
  }

  /// Writes one snooze: the alarm acknowledged and a snooze alarm at `until` beside it.
  /// The snooze alarm is notify's own snoozed copy, which goes off at `until` already: it
  /// is remembered as done before the file is replaced, so that reading the file again
  /// does not schedule it a second time. Whether the file was written.
  func snooze(_ record: CalendarAlarmRecord, at time: Date, until: Date) -> Bool {
    let path = record.file
    let before = Self.stamp(path)
    guard case .success(let bytes) = CalendarFiles.read(path), let before else {
      logger.notice(
        "calendar write-back: \(Escaper.visible(path)) cannot be read: the snooze is not written there")
      return false
    }
    switch AcknowledgementEdit.snooze(
      bytes, uid: record.uid, recurrenceID: record.recurrenceID, alarmKey: record.alarmKey, at: time,
      until: until, zones: clock.zones, newUID: { UUID().uuidString })
    {
    case .failure(let failure):
      logger.info("calendar write-back: \(Escaper.visible(path)): \(failure): nothing written")
      return false
    case .success(let snoozed):
      let key = "uid:" + snoozed.snoozeUID
      let done = CalendarAlarmRecord(
        calendar: record.calendar,
        id: AlarmIdentity.id(
          calendar: record.calendar, uid: record.uid, recurrenceID: snoozed.recurrenceID, alarmKey: key),
        fireDate: until, state: "done", digest: "", file: path, uid: record.uid,
        recurrenceID: snoozed.recurrenceID, alarmKey: key)
      do {
        // The alarm given a UID is found by it from now on.
        try store.noteCalendarSnooze(
          done, alarm: record, alarmKey: snoozed.added ? "uid:" + snoozed.alarmUID : nil)
        try Self.replace(path, with: snoozed.bytes, ifStill: before)
        logger.info("calendar write-back: snoozed an alarm in \(Escaper.visible(path))")
        return true
      } catch {
        logger.notice("calendar write-back: \(Escaper.visible(path)) not written: \(error)")
        return false
      }
    }
  }

  /// A file's identity: device, inode, size and change time.
  static func stamp(_ path: String) -> [Int64]? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return [
      Int64(info.st_dev), Int64(info.st_ino), Int64(info.st_size), Int64(info.st_mtim.tv_sec),
      Int64(info.st_mtim.tv_nsec), Int64(info.st_ctim.tv_sec), Int64(info.st_ctim.tv_nsec),
    ]
  }

  struct WriteError: Error, CustomStringConvertible {
    var description: String
  }

  /// Replaces `path` with `bytes` atomically: a temporary file in the same folder with
  /// the same mode, written and synced, renamed over `path` only while `path` is still
  /// what `stamp` says (so an edit made meanwhile is never overwritten), then the folder synced.
  static func replace(_ path: String, with bytes: [UInt8], ifStill expected: [Int64]) throws {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    let temporary =
      folder + "/.\(url.lastPathComponent).notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
    var info = stat()
    guard stat(path, &info) == 0 else { throw WriteError(description: String(cString: strerror(errno))) }
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, info.st_mode & 0o7777)
    guard fd >= 0 else { throw WriteError(description: "\(temporary): \(String(cString: strerror(errno)))") }
    var ok = false
    defer {
      if !ok { unlink(temporary) }
    }
    do {
      defer { close(fd) }
      fchmod(fd, info.st_mode & 0o7777)
      var offset = 0
      while offset < bytes.count {
        let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if count < 0 {
          if errno == EINTR { continue }
          throw WriteError(description: "\(temporary): \(String(cString: strerror(errno)))")
        }
        offset += count
      }
      guard fsync(fd) == 0 else {
        throw WriteError(description: "fsync: \(String(cString: strerror(errno)))")
      }
    }
    guard stamp(path) == expected else {
      throw WriteError(
        description: "it changed since it was read (a sync or an editor wrote it); it is left as it is")
    }
    guard rename(temporary, path) == 0 else {
      throw WriteError(description: "rename: \(String(cString: strerror(errno)))")
    }
    ok = true
    let folderFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folderFD >= 0 {
      fsync(folderFD)
      close(folderFD)
    }
  }
}

import Dispatch
import Foundation
import Glibc
import Logging
import NotifyCore
import NotifyFiring
import NotifyStore

/// Calendars' alarms for a firer: the one interface the daemon's, `fire-due`'s and an app's
/// firing service's assemblies call (the app's for its own calendars only). Attached to the daemon's loop it watches the calendars (`CalendarWatch`) and
/// rescans what changed once changes settle; after each of the loop's wake-ups it refills
/// the rolling window when an alarm left it, and writes acknowledgements back. `runOnce`
/// is the same for a run of `fire-due`. Everything runs on the loop's thread.
public final class CalendarComponent: LoopAttachable {
  private let sync: CalendarSync
  private let writeBack: CalendarWriteBack
  private let store: SQLiteStore
  private let logger: Logger
  /// The one app whose calendars it keeps, nil for every app's.
  private let app: String?
  private lazy var watch = CalendarWatch(marker: Self.marker(storePath: store.path)) { [unowned self] in
    self.filesChanged()
  }
  private var calendars: [CalendarRecord] = []
  /// Called after a sync stored or cancelled alarms on this process's store connection,
  /// whose own commits do not wake the loop: the daemon re-arms its timer.
  public var onScheduled: (() -> Void)?

  /// The calendars of `store` (of `app`'s only, when given: an app's firing service),
  /// synced with `clock`'s time and zones; `onScheduled` as the property says (a firer
  /// passes its loop's nudge).
  public init(
    store: SQLiteStore, clock: any NotifyClock, app: String? = nil,
    logger: Logger = Logger(label: "notify.calendar"), onScheduled: (() -> Void)? = nil
  ) {
    self.onScheduled = onScheduled
    self.store = store
    self.logger = logger
    self.app = app
    sync = CalendarSync(store: store, clock: clock, app: app, logger: logger)
    writeBack = CalendarWriteBack(store: store, clock: clock, app: app, logger: logger)
  }

  /// For `fire-due` and commands: brings the windows up to date and writes acknowledgements
  /// back, once. Errors are logged: calendars never stop a firer.
  public func runOnce() {
    do {
      try writeBack.run()
      report(try sync.sync())
    } catch {
      logger.warning("calendars: \(error)")
    }
  }

  // MARK: - On the daemon's loop

  public func attach(to event: OpaquePointer, priority: Int32) throws {
    try watch.attach(to: event)
    reload(force: true)
  }

  public func detach() { watch.detach() }

  /// The file beside the store that `notify calendar add` and `remove` touch after their
  /// change (`notify.db.calendars`): the daemon watches it, so that a store without
  /// calendars costs no read at a wake-up to find out whether one was added.
  public static func marker(storePath: String) -> String { storePath + ".calendars" }

  /// Tells a running daemon that the calendars changed (`marker`): after `calendar add`
  /// and `remove`. A failure only delays the daemon until its next start.
  public static func announceChange(storePath: String) {
    let fd = open(marker(storePath: storePath), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard fd >= 0 else { return }
    let text = Array("\(getpid())\n".utf8)
    _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
  }

  /// After each wake-up of the loop: a delivery may have made room in a window, a click
  /// may want writing back. Costs nothing without calendars.
  public func afterWake(storeChangedByOthers: Bool) {
    do {
      guard !calendars.isEmpty else { return }
      if calendars.contains(where: \.writeBack) { try writeBack.run() }
      // The watch keeps the listing up to date: nothing to list again for a refill.
      if try store.calendarWindowConsumed() { report(try sync.sync(changed: [])) }
    } catch {
      logger.warning("calendars: \(error)")
    }
  }

  /// Folders and files the watch covers now (tests read it).
  public var watchedFolders: [String] { watch.watchedFolders }

  private func filesChanged() {
    if watch.markerTouched { return reload(force: false) }
    // The files the watch named are stated, not every file listed again; a burst it could
    // not name (a folder came or went) lists the calendars again, and their folders.
    let changed = watch.changedFiles
    do {
      let started = DispatchTime.now().uptimeNanoseconds
      let done = try sync.sync(changed: changed)
      let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
      logger.info(
        "calendars rescanned in \(String(format: "%.1f", milliseconds)) ms: \(done.filesRead) files read, \(done.scheduled) scheduled, \(done.cancelled) cancelled (listing \(Self.ms(done.scanning)), expanding \(Self.ms(done.expanding)), storing \(Self.ms(done.storing)))"
      )
      report(done)
    } catch {
      logger.warning("calendars: \(error)")
    }
    // A folder watched from now on may have had files written in it before: listed again.
    if changed == nil, refreshWatches() {
      do { report(try sync.sync()) } catch { logger.warning("calendars: \(error)") }
    }
  }

  static func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

  private func reload(force: Bool) {
    do {
      calendars = try store.calendars().filter { app == nil || $0.app == app }
      refreshWatches()
      report(try sync.sync(force: force))
      if refreshWatches() { report(try sync.sync()) }
    } catch {
      logger.warning("calendars: \(error)")
    }
  }

  /// Watches the calendars and their folders one level down; whether a folder is watched
  /// now that was not before.
  @discardableResult
  private func refreshWatches() -> Bool {
    var extra: [String] = []
    for calendar in calendars {
      extra += sync.folders(of: calendar) ?? CalendarFiles.list(calendar.path).folders
    }
    return watch.watch(paths: calendars.map(\.path), extra: extra)
  }

  private func report(_ report: CalendarSync.Report) {
    // Reading a calendar of thousands of files leaves the heap grown with freed pages the
    // daemon will not need again: give them back (glibc keeps them otherwise).
    if report.filesRead > 200 { _ = mallocTrim(0) }
    for warning in report.warnings { logger.warning("\(warning)") }
    if !report.discarded.isEmpty {
      logger.warning(
        "calendars: the 64 limit discarded \(report.discarded.count) notifications while alarms were stored")
    }
    if report.scheduled > 0 || report.cancelled > 0 { onScheduled?() }
  }
}

/// glibc's `malloc_trim(3)` (in `<malloc.h>`, which no module of the package imports):
/// returns the heap's free pages to the system.
@_silgen_name("malloc_trim")
private func mallocTrim(_ pad: Int) -> Int32

// Safe: an assembly makes it (on the loop's owner) before the loop runs and hands it to the
// loop; from then on only the loop's thread touches it, as every `LoopAttachable`.
extension CalendarComponent: @unchecked Sendable {}

import ArgumentParser
import Foundation
import Logging
import Notify
import NotifyCalendarSync
import NotifyCore
import NotifyDesktop
import NotifyFiring
import NotifyService
import NotifySound
import NotifyStore
import NotifyZones

/// `notify daemon`: the resident service that fires every app's notifications on time
/// (SPEC.md §6).
struct DaemonCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "daemon", _superCommandName: "notify",
    abstract: "Run the resident service that fires notifications on time.",
    discussion: """
      Sleeps until the earliest pending notification is due (no polling), delivers it, and \
      re-arms at once when another process changes the store, when the clock is set or \
      after suspend. Stops cleanly on SIGTERM, SIGINT or SIGHUP, also in the middle of a \
      burst: no new delivery starts, one in progress ends within the sink's own timeout \
      (5 s for the desktop, 1 s for stdout), the rest goes back to pending. With --sink \
      auto it follows the session bus: the desktop while a notification server is on it, \
      stdout while none is. A stdout whose reader stops reading is retried; one whose \
      reader went away ends the daemon with exit 69. Under systemd (Type=notify) it \
      reports READY, STATUS and WATCHDOG and logs to the journal; see units/notify.service.
      """)

  @OptionGroup var store: StoreOptions

  @Option(
    name: .long,
    help:
      "auto (the desktop while a notification server is on the session bus, else stdout), desktop or stdout.")
  var sink: SinkChoice = .auto

  @Option(
    name: .customLong("misfire-grace"), parsing: .unconditional,
    help: "Record occurrences later than this (e.g. 10m) as missed instead of delivering them late.")
  var misfireGrace: String?

  func run() throws {
    // Before any thread exists, so that SIGTERM reaches the loop's signalfd only.
    FiringLoop.blockTerminationSignals()
    LoggingSystem.bootstrap { JournalLogHandler(label: $0) }
    // The daemon logs every delivery, click and sink switch (docs/decisions/0064).
    NotifyLogging.level = .info
    let grace = try misfireGrace.map { text throws(NotifyError) in
      try DurationArgument.parse(text, option: "--misfire-grace")
    }
    let store = try store.open()
    let sinks = try sink.assemble(store: store)
    // The zone is read once and again when /etc/localtime changes, not on every wake-up.
    let clock = ZoneCachingClock()
    let firer = Firer(
      store: store, sink: sinks.sink, identity: .current, clock: clock,
      logger: Logger(label: "notify.firing"),
      options: .init(
        misfireGrace: grace, claimAhead: FiringLoop.claimAhead, handOverLead: FiringLoop.handOverLead,
        clickReach: sinks.clickReach))
    // The loop's thread owns the firer and the sinks; other threads send it jobs.
    let owner = SinkOwner(label: "notify.daemon")
    // The scheduler on the session bus (docs/dbus.md), on a thread of its own so
    // that no call holds a hand-off; it shows `Present`ed notifications through this
    // firer, on the loop's thread, as `notify now` does.
    // Safe: used by the job below only, which runs on the owner, the loop's thread.
    nonisolated(unsafe) let presenting = (firer, store)
    let scheduler = SchedulerEndpoint.start(storePath: store.path, clock: clock) {
      notification throws(NotifyError) in
      try owner.runBlocking { () throws(NotifyError) in
        let (firer, store) = presenting
        let bubble = (try? store.desktopServerID(app: notification.app, id: notification.id)) ?? nil
        _ = try firer.present(notification, replacing: bubble)
      }
    }
    // Calendars on disk (docs/calendars.md): watched on the loop, refilled after its wake-ups.
    let calendars = CalendarComponent(store: store, clock: clock)
    let loop = FiringLoop(
      firer: firer, clock: clock, configuration: .init(storePath: store.path),
      pendingCount: { try store.pendingCount() },
      attached: LoopAttachments(
        sinks.desktop, scheduler.map { LoopThread($0, name: "notify.service", owner: owner) }, calendars),
      owner: owner)
    calendars.onScheduled = { [unowned loop] in loop.nudge() }
    // Short-lived processes close without a checkpoint: the daemon makes one as it goes idle,
    // and removes the attachment copies no notification uses any more (after a
    // last delivery's bubble closed, or a notification replaced by another process, nothing
    // else may notice).
    loop.onIdle = {
      do { try store.checkpointIfWritten() } catch {
        Logger(label: "notify.store").notice("no checkpoint: \(error)")
      }
      store.sweepAttachments()
    }
    loop.idleWorkPending = { store.isWALWrittenSinceCheckpoint }
    // The daemon checkpoints the WAL itself, after its wake-ups, never inside a burst's
    // commits (`takeCheckpoints`).
    try store.takeCheckpoints()
    // The status line under systemd says how many are pending: counted in the firer's own
    // reads (`FiringOutlook.pending`), and only then.
    if ServiceNotifier().isActive { store.countPendingInOutlook() }
    loop.onWake = { store.checkpointIfLarge() }
    // A snooze clicked here stores its copy on this process's connection: re-arm for it.
    sinks.onPendingChange = { [unowned loop] in loop.nudge() }
    if let desktop = sinks.desktop {
      let badges = BadgeSync(store: store, desktop: desktop)
      let logger = Logger(label: "notify.bubbles")
      loop.onWake = { [unowned loop] in
        store.checkpointIfLarge()
        // Only others write what these read: a wake-up on the loop's own timer asks nothing.
        guard loop.storeChangedByOthers else { return }
        // One read for both; a store that cannot be read is looked at the long way.
        guard let look = try? store.busOutlook() else {
          badges.sync()
          sinks.takeOverLeftBubbles(app: nil, logger: logger)
          return
        }
        badges.sync(launcherBadges: look.launcherBadges)
        if look.bubblesLeft { sinks.takeOverLeftBubbles(app: nil, logger: logger) }
      }
    }
    let wake = loop.onWake
    loop.onWake = { [unowned loop] in
      wake?()
      calendars.afterWake(storeChangedByOthers: loop.storeChangedByOthers)
    }
    // Sleep, wake and power: the wake-capable timer and logind's sleep and shutdown.
    let power = FiringPower.make(storePath: store.path)
    firer.wakeAbility = power.ability
    loop.companions = power.companions
    // Online for every app, so that `notify status` can say a daemon runs, where its
    // deliveries go (kept as `--sink auto` switches, as is the systemd status line) and
    // whether it can wake the machine.
    let presence = AppPresence(
      app: AppPresence.everyApp, owner: .current, fires: true, sink: sinks.name, wake: power.facts)
    try store.enter(presence, at: clock.now())
    loop.deliveringTo = { sinks.name }
    sinks.onSinkChange = { [unowned loop] name in
      do { try store.noteSink(name, of: presence) } catch {
        Logger(label: "notify.store").notice("could not record the sink for notify status: \(error)")
      }
      loop.nudge()
    }
    defer {
      try? store.leave(presence)
      // A restarted daemon (or any other firer) takes over the bubbles this one shows.
      sinks.leaveShownBubbles()
    }
    try loop.run()
  }
}

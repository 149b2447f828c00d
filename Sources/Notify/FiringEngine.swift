import Foundation
import Logging
import NotifyCalendarSync
import NotifyCore
import NotifyDesktop
import NotifyFiring
import NotifyStore
import NotifyZones

/// The firing engine of one process, assembled in one place for `notify daemon`,
/// `notify fire-due` and an app's `firingService()` (`app`): options in, an engine out, every
/// part given what it needs as it is made (nothing wired up afterwards). The store, the
/// sinks, the firer, its loop and the loop's control, the calendars, sleep and power, the
/// D-Bus service beside the daemon's loop: the command parses and prints, the library
/// assembles.
///
/// One watch on the store serves everything: the loop's. The D-Bus service hears from the
/// loop's wake-ups that another process committed, and gets the firer's deliveries as they
/// are handed over, through its `HistoryBell`, made before the sinks, the firer and the
/// service so that each is given it as it is made; it watches nothing of its own.
///
/// ```swift
/// let engine = try FiringEngine.daemon(store: store, options: .init(sink: .auto))
/// try engine.run()   // until SIGTERM
/// ```
package final class FiringEngine: Sendable {
  /// What the caller chooses.
  package struct Options: Sendable {
    /// Where deliveries go (`--sink`).
    package var sink: SinkChoice
    /// Occurrences later than this are recorded missed instead of delivered late.
    package var misfireGrace: TimeInterval?

    /// Options; the defaults are `notify daemon`'s.
    package init(sink: SinkChoice = .auto, misfireGrace: TimeInterval? = nil) {
      self.sink = sink
      self.misfireGrace = misfireGrace
    }
  }

  /// What the D-Bus service beside the daemon's loop is given as it is made.
  package struct ServiceContext {
    /// The store file (the service opens a connection of its own).
    package var storePath: String
    /// The daemon's clock.
    package var clock: any NotifyClock
    /// Shows a notification at once through the daemon's firer and sinks (`Firer.present`),
    /// on the loop's thread; safe from the service's thread.
    package var present: (LocalNotification) throws(NotifyError) -> Void
    /// What the loop rings for the service: its firer's deliveries as they are handed over,
    /// and that history may have grown (another process's commit, a click recorded).
    package var bell: HistoryBell
  }

  /// The store.
  package let store: SQLiteStore
  /// The sinks deliveries go to.
  package let sinks: SinkAssembly
  /// The loop (its `control` stops and nudges it from any thread).
  package let loop: FiringLoop
  /// What the engine records as online while it runs (`notify status`; a click on an
  /// app's notification comes to a running app).
  let presence: AppPresence
  let clock: any NotifyClock
  /// The executor that owns an app's firer and sinks; nil for the daemon, whose loop's
  /// thread owns them.
  let owner: SinkOwner?

  init(
    store: SQLiteStore, sinks: SinkAssembly, loop: FiringLoop, presence: AppPresence, clock: any NotifyClock,
    owner: SinkOwner? = nil
  ) {
    self.owner = owner
    self.clock = clock
    self.store = store
    self.sinks = sinks
    self.loop = loop
    self.presence = presence
  }

  /// `notify daemon`'s engine: every app's notifications, through `options.sink`; the
  /// calendars on disk; the wake-capable timer and logind's sleep and shutdown; and, when
  /// `service` makes one, the D-Bus service on a thread of its own (so that no call holds
  /// a hand-off). Call `run()` on the thread that blocked the stop signals.
  package static func daemon(
    store: SQLiteStore, options: Options,
    service makeService: ((ServiceContext) -> (any LoopAttachable)?)? = nil
  ) throws(NotifyError) -> FiringEngine {
    // Where a wake-up, a click or a calendar nudges the loop: made before them all.
    let control = FiringLoopControl()
    // The zone is read once and again when /etc/localtime changes, not on every wake-up.
    let clock = ZoneCachingClock()
    // Sleep, wake and power: what this process can do to wake the machine, and the
    // companions that do it (the wake-capable timer, logind's sleep and shutdown).
    let power = FiringPower.make(storePath: store.path)
    // Online for every app, so that `notify status` can say a daemon runs, where its
    // deliveries go (kept as `--sink auto` switches, as is the systemd status line) and
    // whether it can wake the machine.
    var presence = AppPresence(app: AppPresence.everyApp, owner: .current, fires: true, wake: power.facts)
    // What the sinks hear and the firer hands over reaches the service, made after them,
    // through its bell, made before them all (only for a daemon that may have a service).
    let bell = makeService == nil ? nil : try HistoryBell()
    let sinks = try options.sink.assemble(
      store: store, clock: clock,
      observers: .init(
        // A click or close recorded in history: the service's subscribers hear it.
        interaction: { _ in bell?.ring() },
        // A snooze clicked here stores its copy on this process's connection: re-arm for it.
        pendingChanged: control.nudge,
        sinkChanged: { [presence] name in
          do { try store.noteSink(name, of: presence) } catch {
            Logger(label: "notify.store").notice("could not record the sink for notify status: \(error)")
          }
          control.nudge()
        }))
    presence.sink = sinks.name
    let firer = Firer(
      store: store, sink: sinks.sink, identity: .current, clock: clock,
      logger: Logger(label: "notify.firing"), wakeAbility: power.ability,
      options: .init(
        misfireGrace: options.misfireGrace, claimAhead: FiringLoop.claimAhead,
        handOverLead: FiringLoop.handOverLead, clickReach: sinks.clickReach,
        // Each delivery reaches the D-Bus service's subscribers as it is handed over.
        handedOver: bell?.handedOver))
    // The loop's thread owns the firer and the sinks; other threads send it jobs.
    let owner = SinkOwner(label: "notify.daemon")
    // Safe: used by the job below only, which runs on the owner, the loop's thread.
    nonisolated(unsafe) let presenting = (firer, store)
    let service = bell.flatMap { bell in
      makeService?(
        ServiceContext(
          storePath: store.path, clock: clock,
          present: { notification throws(NotifyError) in
            try owner.runBlocking { () throws(NotifyError) in
              let (firer, store) = presenting
              let bubble = (try? store.desktopServerID(app: notification.app, id: notification.id)) ?? nil
              _ = try firer.present(notification, replacing: bubble)
            }
          }, bell: bell))
    }
    // Calendars on disk (docs/calendars.md): watched on the loop, refilled after its wake-ups.
    let calendars = CalendarComponent(store: store, clock: clock, onScheduled: control.nudge)
    // The daemon checkpoints the WAL itself, after its wake-ups, never inside a burst's
    // commits (`takeCheckpoints`).
    try store.takeCheckpoints()
    // The status line under systemd says how many are pending: counted in the firer's own
    // reads (`FiringOutlook.pending`), and only then.
    if ServiceNotifier().isActive { store.countPendingInOutlook() }
    // As it goes idle, the daemon gives back what start-up and the last wake-up mapped of
    // its executable and the heap's free pages (docs/decisions/0126); `NOTIFY_IDLE_TRIM=off`
    // keeps them, the baseline of the idle benchmark.
    let trim = ProcessInfo.processInfo.environment["NOTIFY_IDLE_TRIM"] == "off" ? nil : IdleTrim()
    let afterWake = Self.daemonWake(
      store: store, sinks: sinks, calendars: calendars, historyMayHaveGrown: service == nil ? nil : bell?.ring
    )
    let hooks = FiringLoopHooks(
      onWake: afterWake,
      // Short-lived processes close without a checkpoint: the daemon makes one as it goes
      // idle, and removes the attachment copies no notification uses any more (after a last
      // delivery's bubble closed, or a notification replaced by another process, nothing
      // else may notice).
      onIdle: {
        do { try store.checkpointIfWritten() } catch {
          Logger(label: "notify.store").notice("no checkpoint: \(error)")
        }
        store.sweepAttachments()
        trim?.run()
      },
      idleWorkPending: { store.isWALWrittenSinceCheckpoint },
      deliveringTo: { sinks.name },
      companions: power.companions)
    let loop = FiringLoop(
      firer: firer, clock: clock, configuration: .init(storePath: store.path),
      pendingCount: { try store.pendingCount() },
      attached: LoopAttachments(
        sinks.desktop, service.map { LoopThread($0, name: "notify.service", owner: owner) }, calendars),
      owner: owner, control: control, hooks: hooks)
    return FiringEngine(store: store, sinks: sinks, loop: loop, presence: presence, clock: clock)
  }

  /// What the daemon does after each wake-up of its loop, on the loop's thread.
  private static func daemonWake(
    store: SQLiteStore, sinks: SinkAssembly, calendars: CalendarComponent,
    historyMayHaveGrown: (@Sendable () -> Void)?
  ) -> (FiringLoopWake) -> Void {
    let badges = sinks.desktop.map { BadgeSync(store: store, desktop: $0) }
    let logger = Logger(label: "notify.bubbles")
    return { wake in
      store.checkpointIfLarge()
      // What another process recorded: the service's subscribers hear it now, not after a
      // watch of the service's own (the loop's own deliveries reached it as they were
      // handed over).
      if wake.storeChangedByOthers { historyMayHaveGrown?() }
      // Only others write what these read: a wake-up on the loop's own timer asks nothing.
      if let badges, wake.storeChangedByOthers {
        // One read for both; a store that cannot be read is looked at the long way.
        if let look = try? store.busOutlook() {
          badges.sync(launcherBadges: look.launcherBadges)
          if look.bubblesLeft { sinks.takeOverLeftBubbles(app: nil, logger: logger) }
        } else {
          badges.sync()
          sinks.takeOverLeftBubbles(app: nil, logger: logger)
        }
      }
      calendars.afterWake(storeChangedByOthers: wake.storeChangedByOthers)
    }
  }

  /// Runs the daemon's loop until a stop signal or `loop.stop()`: online for `notify
  /// status` meanwhile; on the way out, the bubbles it shows are left for the next firer.
  package func run() throws(NotifyError) {
    try store.enter(presence, at: clock.now())
    defer {
      try? store.leave(presence)
      // A restarted daemon (or any other firer) takes over the bubbles this one shows.
      sinks.leaveShownBubbles()
    }
    try loop.run()
  }
}

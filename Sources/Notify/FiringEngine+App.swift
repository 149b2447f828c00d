import Foundation
import NotifyCalendarSync
import NotifyCore
import NotifyFiring
import NotifyStore

extension FiringEngine {
  /// An app's engine (`LocalNotificationCenter.firingService()`): the app's own
  /// notifications, through the center's firer and sinks, on a loop that runs as a job of
  /// the center's owner (`SinkOwner`), which alone touches them; the app's waking
  /// notifications wake the machine where the app may (its own alarm timer), and a suspend
  /// waits for its hand-offs. `afterWake` runs on the loop after each wake-up (the center
  /// relays what others recorded). Made on the owner: the firer is the owner's.
  package static func app(
    _ app: String, store: SQLiteStore, sinks: SinkAssembly, firer: Firer, owner: SinkOwner,
    clock: any NotifyClock, fires: Bool, control: FiringLoopControl, afterWake: @escaping () -> Void
  ) -> FiringEngine {
    precondition(owner.isCurrent, "an app's engine is made on the center's owner")
    let power = FiringPower.make(storePath: store.path)
    firer.wakeAbility = power.ability
    // When it fires, the app's calendars come with it, as in the daemon (for this app's
    // calendars only): watched, and the rolling window refilled after the wake-ups that
    // delivered from it, so that a calendar's alarms keep coming when only the app fires.
    let calendars =
      fires
      ? CalendarComponent(
        store: store, clock: clock, app: app, logger: NotifyLogging.logger("notify.calendar"),
        onScheduled: control.nudge)
      : nil
    let loop = FiringLoop(
      firer: firer, clock: clock,
      configuration: .init(storePath: store.path, handlesSignals: false, fires: fires),
      logger: NotifyLogging.logger("notify.firing"), attached: LoopAttachments(sinks.attachable, calendars),
      owner: owner, control: control,
      hooks: .init(
        onWake: { wake in
          afterWake()
          calendars?.afterWake(storeChangedByOthers: wake.storeChangedByOthers)
        }, companions: power.companions))
    // Online: a click on the app's notification comes here instead of launching it, and a
    // firing daemon leaves the app's scheduled notifications to this process.
    let presence = AppPresence(app: app, owner: .current, fires: fires)
    return FiringEngine(
      store: store, sinks: sinks, loop: loop, presence: presence, clock: clock, owner: owner)
  }

  /// Runs an app's engine until `loop.stop()` or the calling task is cancelled: online
  /// meanwhile; on the way out, the bubbles it shows are left for a firer that keeps
  /// running (a click on one should still open the app).
  package func run() async throws(NotifyError) {
    try store.enter(presence, at: clock.now())
    let result: Result<Void, NotifyError>
    do { result = .success(try await loop.run()) } catch { result = .failure(error) }
    try? store.leave(presence)
    let sinks = self.sinks
    if let owner { await owner.run { _ = sinks.leaveShownBubbles() } } else { sinks.leaveShownBubbles() }
    try result.get()
  }
}

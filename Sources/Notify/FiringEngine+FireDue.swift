import Foundation
import Logging
import NotifyCalendarSync
import NotifyCore
import NotifyFiring
import NotifyStore
import NotifyZones

extension FiringEngine {
  /// One run of `notify fire-due`, done: what it delivered and left, and the sinks, whose
  /// shown bubbles the caller leaves for a running firer before the process ends
  /// (`leaveShownBubbles`).
  package struct FireDueRun {
    /// What the run did.
    package var summary: FireDue.Summary
    /// The run's sinks.
    package var sinks: SinkAssembly

    /// Leaves the bubbles this run shows for a firer that keeps running: clicks on them
    /// would reach nobody once the run ends.
    package func leaveShownBubbles() { sinks.leaveShownBubbles() }
  }

  /// `notify fire-due`: delivers what is due within `budget` through `options.sink`, with
  /// the calendars brought up to date before and after, and the user manager's waking
  /// timer set for the next waking notification where it may hold one. A stop signal
  /// (blocked by the caller, `StopSignals.block()`) ends the run between hand-offs.
  /// `onOverrun` runs on another thread when a delivery outlasts the budget by
  /// `FireDue.overrunGrace`.
  package static func fireDue(
    store: SQLiteStore, options: Options, budget: TimeInterval, onOverrun: @escaping @Sendable () -> Void
  ) throws(NotifyError) -> FireDueRun {
    let sinks = try options.sink.assemble(store: store)
    // What it may do to wake the machine (recorded for status), and the user manager's
    // waking timer for the next waking notification where it may hold one.
    let wake = FiringPower.fireDue(store: store)
    let firer = Firer(
      store: store, sink: sinks.sink, identity: .current,
      logger: Logger(label: "notify.firing"), wakeAbility: wake.ability,
      isStopRequested: { StopSignals.pending() != nil },
      options: .init(misfireGrace: options.misfireGrace, clickReach: sinks.clickReach))
    // Calendars on disk: what changed since the last run is scheduled before the run
    // delivers, and the window refilled after it.
    let calendars = CalendarComponent(store: store, clock: SystemClock())
    calendars.runOnce()
    let summary: FireDue.Summary
    do {
      summary = try FireDue.run(
        firer: firer, budget: budget, dueCount: { now in try store.dueCount(now: now) }, onOverrun: onOverrun)
    } catch {
      sinks.leaveShownBubbles()
      throw error
    }
    calendars.runOnce()
    // Attachment copies no notification uses any more (a last delivery, a closed bubble).
    store.sweepAttachments()
    FiringPower.keepUserTimer(store: store, ability: wake.ability, now: Date())
    return FireDueRun(summary: summary, sinks: sinks)
  }
}

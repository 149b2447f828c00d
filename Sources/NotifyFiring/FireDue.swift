import Foundation
import Logging
import NotifyCore
import NotifyZones

/// `notify fire-due` (SPEC.md §6): deliver what is due now, within a budget, then return.
///
/// The work runs in a `BackgroundTask`. Its expiration handler (called from a timer even
/// while a delivery is in progress) stops new deliveries; the unstarted claims go back to
/// the store and the summary says how many are left for the next run. Should a single
/// delivery still be running `overrunGrace` after the whole budget is gone, `onOverrun` is
/// called (the command exits 75 there; the claim is taken over by the next run).
public enum FireDue {
  /// What a run did.
  public struct Summary: Hashable, Sendable {
    /// The batches' counts added up.
    public var report: Firer.BatchReport
    /// Occurrences still due when the run stopped: the next run delivers them.
    public var left: Int
    /// True when the budget stopped the run before everything due was delivered.
    public var budgetSpent: Bool
    /// True when a stop request (`Firer.isStopRequested`: SIGTERM, SIGINT, SIGHUP) ended
    /// the run early; what was not handed over went back to pending.
    public var interrupted: Bool { report.interrupted }
    /// The sink fault that ended the run early, if one did; what was not handed over went
    /// back to pending.
    public var sinkFault: SinkFault? { report.sinkFault }
  }

  /// Time past the budget allowed for giving unstarted claims back before the run counts
  /// as overrun (`RuntimeMaxSec` in units/notify-fire.service leaves room for it).
  public static let overrunGrace: TimeInterval = 2

  /// Runs batches until nothing is due or the budget is spent. `dueCount` tells how many
  /// are due at an instant, given-back claims included (nil: count the released claims only).
  public static func run(
    firer: Firer, budget: TimeInterval, clock: any NotifyClock = SystemClock(),
    dueCount: ((Date) throws -> Int)? = nil, onOverrun: (@Sendable () -> Void)? = nil
  ) throws(NotifyError) -> Summary {
    let task = BackgroundTask.begin(named: "fire-due", budget: budget, clock: clock, trigger: .dispatch) {}
    let overrun = onOverrun.map { handler in
      let timer = DispatchSource.makeTimerSource(queue: .global())
      timer.schedule(deadline: .now() + max(0, budget) + overrunGrace, leeway: .milliseconds(50))
      timer.setEventHandler(handler: handler)
      timer.resume()
      return timer
    }
    defer {
      overrun?.cancel()
      task.end()
    }
    try firer.recomputeWallClock()
    let total = try firer.fireBatch(task: task)
    // Released claims went back to the store, so a count of what is due includes them.
    var left = total.released
    if total.stopped || total.interrupted || total.sinkFault != nil, let counted = try? dueCount?(clock.now())
    {
      left = counted
    }
    return Summary(report: total, left: left, budgetSpent: total.stopped)
  }
}

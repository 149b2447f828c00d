import Foundation
import Logging
import NotifyCore
import NotifyDesktop
import NotifyFiring

/// Sleep and shutdown as a firing loop knows them: logind's announcements and delay
/// inhibitor (`Logind`) carried out as `SleepGuard` decides. While the firer has work in hand
/// (claims being handed over, a burst being recorded with its alarms' next re-alerts) it
/// holds a delay inhibitor, so a suspend or a shutdown waits for the hand-off instead of
/// cutting it in half; with nothing in hand it holds none. As the machine resumes it wakes
/// the firer at once, which delivers what fell due while it slept.
///
/// A companion of the loop (`FiringLoopCompanion`): everything runs on the loop's thread.
package final class SleepWatch: FiringLoopCompanion {
  private let logger: Logger
  private let systemBus: String?
  private var logind: Logind?
  private var sleepGuard = SleepGuard()
  private var lookAgain: () -> Void = {}
  /// When the firer asked to be woken last: a wake-up at or after it hands something over.
  private var due: Date?

  /// A watch that logs with `logger`, on the system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else the
  /// system's), or on the bus at `systemBus` (a test's logind).
  package init(logger: Logger, systemBus: String? = nil) {
    self.logger = logger
    self.systemBus = systemBus
  }

  package func start(on loop: FiringLoopHandle) throws(NotifyError) {
    let logind: Logind
    do {
      logind = try Logind(address: systemBus)
    } catch {
      throw NotifyError(
        .unavailable, "sleep and shutdown are not followed (\(error.problemText.rendered(\.apiName)))",
        fix: nil)
    }
    logind.onAnnouncement = { [unowned self] announcement in self.heard(announcement) }
    logind.onInhibitor = { [unowned self] taken in
      self.carry(taken ? self.sleepGuard.taken() : self.sleepGuard.refused())
    }
    try logind.attach(to: loop.event)
    lookAgain = loop.lookAgain
    self.logind = logind
  }

  package func firerWillWake(now: Date) {
    // The timer came for what the firer asked (a claim, a hand-off): the inhibitor before
    // it starts, not after (on a loaded machine the claim and the hand-off may be one
    // wake-up).
    if let due, due <= now + Self.dueTolerance { carry(sleepGuard.workComing()) }
  }

  package func firerWoke(_ wake: Firer.Wake, now: Date) {
    due = wake.next
    carry(sleepGuard.work(inHand: wake.holdsWork))
  }

  /// A wake-up this close to (or past) the instant the firer asked for counts as its timer's.
  static let dueTolerance: TimeInterval = 0.005

  package func stop() {
    logind?.release()
    logind?.detach()
    logind = nil
  }

  private func heard(_ announcement: Logind.Announcement) {
    switch announcement {
    case .sleep(true), .shutdown(true):
      let transition: SleepGuard.Transition = announcement == .sleep(true) ? .sleep : .shutdown
      logger.info(
        "the machine is \(transition == .sleep ? "going to sleep" : "shutting down")\(sleepGuard.inhibits ? "; finishing the hand-off in hand first" : "")"
      )
      carry(sleepGuard.preparing(transition))
    case .sleep(false):
      logger.info("the machine resumed; delivering what fell due while it slept")
      carry(sleepGuard.resumed(.sleep))
    case .shutdown(false):
      carry(sleepGuard.resumed(.shutdown))
    }
  }

  /// What `systemd-inhibit --list` shows for notify's inhibitor.
  static let why = "delivering a notification"

  private func carry(_ action: SleepGuard.Action) {
    switch action {
    case .takeInhibitor(let wait):
      if wait, let logind {
        carry(logind.inhibitNow(why: Self.why) ? sleepGuard.taken() : sleepGuard.refused())
      } else {
        logind?.inhibit(why: Self.why)
      }
    case .releaseInhibitor: logind?.release()
    case .lookAgain: lookAgain()
    case .none: break
    }
  }
}

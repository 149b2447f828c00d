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
final class SleepWatch: FiringLoopCompanion {
  private let logger: Logger
  private var logind: Logind?
  private var sleepGuard = SleepGuard()
  private var lookAgain: () -> Void = {}

  init(logger: Logger) {
    self.logger = logger
  }

  func start(on loop: FiringLoopHandle) throws(NotifyError) {
    let logind: Logind
    do {
      logind = try Logind()
    } catch {
      throw NotifyError(
        .unavailable, "sleep and shutdown are not followed (\(error.problemText.rendered(\.apiName)))", fix: nil)
    }
    logind.onAnnouncement = { [unowned self] announcement in self.heard(announcement) }
    logind.onInhibitor = { [unowned self] taken in
      self.carry(taken ? self.sleepGuard.taken() : self.sleepGuard.refused())
    }
    try logind.attach(to: loop.event)
    lookAgain = loop.lookAgain
    self.logind = logind
  }

  func firerWoke(_ wake: Firer.Wake, now: Date) {
    carry(sleepGuard.work(inHand: wake.holdsWork))
  }

  func stop() {
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

  private func carry(_ action: SleepGuard.Action) {
    switch action {
    case .takeInhibitor: logind?.inhibit(why: "delivering a notification")
    case .releaseInhibitor: logind?.release()
    case .lookAgain: lookAgain()
    case .none: break
    }
  }
}

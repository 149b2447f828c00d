import Foundation
import Testing

@testable import NotifyCore

/// The delay inhibitor around work in hand, and the look at what is due after a resume.
@Suite("SleepGuard: sleep and shutdown decisions")
struct SleepGuardTests {
  @Test("a hand-off its timer came for takes the inhibitor first and lets it go once nothing is in hand")
  func aroundHandOff() {
    var sleepGuard = SleepGuard()
    // Given the timer came for a hand-off
    #expect(sleepGuard.workComing() == .takeInhibitor(wait: true))
    #expect(sleepGuard.taken() == .none)
    #expect(sleepGuard.inhibits)
    // When the wake-up left claims in hand, then none
    #expect(sleepGuard.work(inHand: true) == .none)
    #expect(sleepGuard.work(inHand: false) == .releaseInhibitor)
    #expect(!sleepGuard.inhibits)
    // And with nothing in hand, nothing happens
    #expect(sleepGuard.work(inHand: false) == .none)
  }

  @Test(
    "claims left in hand ask for one without waiting; work that ended before the answer lets it go as it comes"
  )
  func lateAnswer() {
    var sleepGuard = SleepGuard()
    #expect(sleepGuard.work(inHand: true) == .takeInhibitor(wait: false))
    // (asked for already: no second request)
    #expect(sleepGuard.workComing() == .none)
    #expect(sleepGuard.work(inHand: false) == .none)
    #expect(sleepGuard.taken() == .releaseInhibitor)
    #expect(!sleepGuard.inhibits)
  }

  @Test("a refused inhibitor leaves the work going on without one")
  func refused() {
    var sleepGuard = SleepGuard()
    #expect(sleepGuard.workComing() == .takeInhibitor(wait: true))
    #expect(sleepGuard.refused() == .none)
    #expect(!sleepGuard.inhibits)
    #expect(sleepGuard.work(inHand: true) == .takeInhibitor(wait: false))
  }

  @Test(
    "a sleep announced during a hand-off waits for it: released when the work ends, none taken until resume, then a look",
    arguments: [SleepGuard.Transition.sleep, .shutdown])
  func announcedDuringWork(transition: SleepGuard.Transition) {
    var sleepGuard = SleepGuard()
    _ = sleepGuard.workComing()
    _ = sleepGuard.taken()
    // When logind announces it while the hand-off is in flight
    #expect(sleepGuard.preparing(transition) == .none)
    #expect(sleepGuard.inhibits && sleepGuard.isGoing)
    // Then the inhibitor goes once the work ends, and no new one is asked for meanwhile
    #expect(sleepGuard.work(inHand: false) == .releaseInhibitor)
    #expect(sleepGuard.workComing() == .none)
    #expect(sleepGuard.work(inHand: true) == .none)
    #expect(!sleepGuard.inhibits)
    // When the machine resumes (or the shutdown is called off), the firer looks at once
    #expect(sleepGuard.resumed(transition) == .lookAgain)
    #expect(!sleepGuard.isGoing)
    // And the next hand-off takes one again
    #expect(sleepGuard.workComing() == .takeInhibitor(wait: true))
  }

  @Test("an answer that comes after the announcement is kept while work is in hand, else let go")
  func answerDuringPreparation() {
    var busy = SleepGuard()
    _ = busy.work(inHand: true)
    _ = busy.preparing(.sleep)
    #expect(busy.taken() == .none)
    #expect(busy.work(inHand: false) == .releaseInhibitor)
    var idle = SleepGuard()
    _ = idle.work(inHand: true)
    _ = idle.work(inHand: false)
    _ = idle.preparing(.sleep)
    #expect(idle.taken() == .releaseInhibitor)
  }

  @Test("a resume heard without its announcement (started while asleep) still looks again")
  func resumeAlone() {
    var sleepGuard = SleepGuard()
    #expect(sleepGuard.resumed(.sleep) == .lookAgain)
    #expect(sleepGuard.workComing() == .takeInhibitor(wait: true))
  }
}

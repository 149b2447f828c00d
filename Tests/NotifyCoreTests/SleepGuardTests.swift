import Foundation
import Testing

@testable import NotifyCore

/// The delay inhibitor around work in hand, and the look at what is due after a resume.
@Suite("SleepGuard: sleep and shutdown decisions")
struct SleepGuardTests {
  @Test("a hand-off its timer came for takes the inhibitor first and lets it go once nothing is in hand")
  func aroundHandOff() {
    var guard_ = SleepGuard()
    // Given the timer came for a hand-off
    #expect(guard_.workComing() == .takeInhibitor(wait: true))
    #expect(guard_.taken() == .none)
    #expect(guard_.inhibits)
    // When the wake-up left claims in hand, then none
    #expect(guard_.work(inHand: true) == .none)
    #expect(guard_.work(inHand: false) == .releaseInhibitor)
    #expect(!guard_.inhibits)
    // And with nothing in hand, nothing happens
    #expect(guard_.work(inHand: false) == .none)
  }

  @Test("claims left in hand ask for one without waiting; work that ended before the answer lets it go as it comes")
  func lateAnswer() {
    var guard_ = SleepGuard()
    #expect(guard_.work(inHand: true) == .takeInhibitor(wait: false))
    // (asked for already: no second request)
    #expect(guard_.workComing() == .none)
    #expect(guard_.work(inHand: false) == .none)
    #expect(guard_.taken() == .releaseInhibitor)
    #expect(!guard_.inhibits)
  }

  @Test("a refused inhibitor leaves the work going on without one")
  func refused() {
    var guard_ = SleepGuard()
    #expect(guard_.workComing() == .takeInhibitor(wait: true))
    #expect(guard_.refused() == .none)
    #expect(!guard_.inhibits)
    #expect(guard_.work(inHand: true) == .takeInhibitor(wait: false))
  }

  @Test(
    "a sleep announced during a hand-off waits for it: released when the work ends, none taken until resume, then a look",
    arguments: [SleepGuard.Transition.sleep, .shutdown])
  func announcedDuringWork(transition: SleepGuard.Transition) {
    var guard_ = SleepGuard()
    _ = guard_.workComing()
    _ = guard_.taken()
    // When logind announces it while the hand-off is in flight
    #expect(guard_.preparing(transition) == .none)
    #expect(guard_.inhibits && guard_.isGoing)
    // Then the inhibitor goes once the work ends, and no new one is asked for meanwhile
    #expect(guard_.work(inHand: false) == .releaseInhibitor)
    #expect(guard_.workComing() == .none)
    #expect(guard_.work(inHand: true) == .none)
    #expect(!guard_.inhibits)
    // When the machine resumes (or the shutdown is called off), the firer looks at once
    #expect(guard_.resumed(transition) == .lookAgain)
    #expect(!guard_.isGoing)
    // And the next hand-off takes one again
    #expect(guard_.workComing() == .takeInhibitor(wait: true))
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
    var guard_ = SleepGuard()
    #expect(guard_.resumed(.sleep) == .lookAgain)
    #expect(guard_.workComing() == .takeInhibitor(wait: true))
  }
}

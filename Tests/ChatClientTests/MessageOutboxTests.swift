import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyTestSupport
import NotifyZones
import Testing

/// Words for the error cases the tests build.
private let words = NotificationError.Context(problem: "x")

/// The presenter's rules (`MessageOutbox`), with literal instants: what is presented,
/// retried, held back, and with which badge.
struct MessageOutboxTests {
  let t0 = ContinuousClock.now

  func message(_ number: Int) -> ChatMessage {
    ChatMessage(
      id: "msg-test-\(number)", sender: "SteveJ", text: "m\(number)", reason: .privateMessage, channel: "#c")
  }

  @Test func aShownMessageIsNeverPresentedAgainWhenALaterOneFails() {
    // Given two messages, the first shown and the second refused
    var outbox = MessageOutbox(unread: 0)
    outbox.received(message(1))
    outbox.received(message(2))
    #expect(outbox.nextAction(now: t0) == .present(message(1), badge: 2))
    outbox.presented("msg-test-1", .shown, now: t0)
    #expect(outbox.nextAction(now: t0) == .present(message(2), badge: 2))
    outbox.presented("msg-test-2", .refused, now: t0)

    // When the retry comes (after the backoff) and works
    #expect(outbox.nextAction(now: t0) == .wait(until: t0 + .seconds(1)))
    #expect(outbox.nextAction(now: t0 + .seconds(1)) == .present(message(2), badge: 2))
    outbox.presented("msg-test-2", .shown, now: t0 + .seconds(1))

    // Then only the second was presented again, under the same id, and nothing is owed
    #expect(outbox.owed.isEmpty)
    #expect(outbox.nextAction(now: t0 + .seconds(2)) == .wait(until: nil))
  }

  @Test func refusalsBackOffAndANewMessageRetriesAtOnceInOrder() {
    // Given a message the sink keeps refusing
    var outbox = MessageOutbox(unread: 0)
    outbox.received(message(1))
    var now = t0
    var waits: [Duration] = []
    for _ in 0..<8 {
      guard case .present = outbox.nextAction(now: now) else {
        Issue.record("expected an attempt")
        return
      }
      outbox.presented("msg-test-1", .refused, now: now)
      guard case .wait(let until?) = outbox.nextAction(now: now) else {
        Issue.record("expected a backoff")
        return
      }
      waits.append(until - now)
      now = until
    }
    // Then the waits double from 1 s up to 30 s, never 0 (no busy loop)
    #expect(waits == [1, 2, 4, 8, 16, 30, 30, 30].map { Duration.seconds($0) })

    // When a new message arrives in the middle of a backoff
    outbox.presented("msg-test-1", .refused, now: now)
    outbox.received(message(2))
    // Then the oldest is tried again at once, then the new one
    #expect(outbox.nextAction(now: now) == .present(message(1), badge: 2))
    outbox.presented("msg-test-1", .shown, now: now)
    #expect(outbox.nextAction(now: now) == .present(message(2), badge: 2))
  }

  @Test func aMessageInDoubtIsNotSentAgainAndLaterOnesWaitForTheServer() {
    // Given a call that timed out (the hung server may still show it)
    var outbox = MessageOutbox(unread: 0)
    outbox.received(message(1))
    outbox.presented("msg-test-1", .inDoubt, now: t0)
    outbox.received(message(2))

    // Then the server is probed before the next message, and never gets the first again
    #expect(outbox.nextAction(now: t0) == .probe)
    outbox.probed(answered: false, now: t0)
    #expect(outbox.nextAction(now: t0) == .wait(until: t0 + .seconds(2)))
    #expect(outbox.nextAction(now: t0 + .seconds(2)) == .probe)
    outbox.probed(answered: true, now: t0 + .seconds(2))
    #expect(outbox.nextAction(now: t0 + .seconds(2)) == .present(message(2), badge: 2))
    #expect(outbox.owed == [message(2)])
  }

  @Test func rejectedContentIsDroppedAndTheNextOneGoesOn() {
    var outbox = MessageOutbox(unread: 0)
    outbox.received(message(1))
    outbox.received(message(2))
    outbox.presented("msg-test-1", .rejected, now: t0)
    #expect(outbox.nextAction(now: t0) == .present(message(2), badge: 2))
  }

  @Test func readingClearsTheCountAndItStartsAgainFromOne() {
    // Given the badge a previous run left, and a message
    var outbox = MessageOutbox(unread: 5)
    outbox.received(message(1))
    #expect(outbox.nextAction(now: t0) == .present(message(1), badge: 6))
    // When the user reads, then another message comes
    outbox.markedRead()
    outbox.received(message(2))
    // Then the owed first one and the new one show the count since reading
    #expect(outbox.nextAction(now: t0) == .present(message(1), badge: 1))
  }

  @Test(
    arguments: [
      (outcome: MessageOutbox.Outcome.refused, error: NotificationError.serverUnavailable(words)),
      (.inDoubt, .serverTimedOut(words)), (.inDoubt, .temporary(words)),
      (.inDoubt, .storeBusy(holder: nil, words)),
      (.inDoubt, .storeUnavailable(damaged: false, words)), (.rejected, .invalidContent(nil, nil, words)),
      (.rejected, .soundRejected(sound: nil, words)),
    ])
  func failuresAreSortedBySafety(outcome: MessageOutbox.Outcome, error: NotificationError) {
    // Only a sure refusal may be sent again; anything that may have shown is not
    #expect(MessageOutbox.Outcome(error) == outcome)
  }

  @Test(arguments: 1...40 as ClosedRange<UInt64>)
  func theBadgeNeverGoesBackwards(seed: UInt64) {
    // Given random traffic: messages, reads, and attempts that are shown, refused, in
    // doubt or probed, with time passing
    var random = SeededGenerator(seed: seed)
    var outbox = MessageOutbox(unread: Int.random(in: 0...3, using: &random))
    var now = t0
    var number = 0
    var lastBadge = 0
    var handedOver: Set<String> = []
    for _ in 0..<300 {
      switch Int.random(in: 0..<10, using: &random) {
      case 0, 1:
        number += 1
        outbox.received(message(number))
      case 2:
        outbox.markedRead()
        lastBadge = 0
      case 3:
        now += .milliseconds(Int.random(in: 0...4000, using: &random))
      default:
        switch outbox.nextAction(now: now) {
        case .present(let next, let badge):
          // Then each badge is at least the last one shown since reading
          #expect(badge >= lastBadge, "seed \(seed)")
          #expect(badge == outbox.unread)
          // And nothing shown (or possibly shown) is presented again
          #expect(!handedOver.contains(next.id), "seed \(seed)")
          let outcome = [MessageOutbox.Outcome.shown, .shown, .shown, .refused, .inDoubt].randomElement(
            using: &random)!
          if outcome == .shown || outcome == .inDoubt { handedOver.insert(next.id) }
          if outcome == .shown { lastBadge = badge }
          outbox.presented(next.id, outcome, now: now)
        case .probe:
          outbox.probed(answered: Bool.random(using: &random), now: now)
        case .wait:
          break
        }
      }
    }
    // And what is still owed was never shown, in the order it came
    #expect(outbox.owed.allSatisfy { !handedOver.contains($0.id) })
    let numbers = outbox.owed.map { Int($0.id.split(separator: "-").last ?? "") ?? 0 }
    #expect(numbers == numbers.sorted())
  }

  @Test func messagesOfOneRunHaveDistinctIdsUnlikeAnotherRun() {
    var first = MessageNumbering(prefix: "msg-a")
    var second = MessageNumbering(prefix: "msg-b")
    #expect([first.next(), first.next()] == ["msg-a-1", "msg-a-2"])
    #expect(second.next() == "msg-b-1")
    #expect(MessageNumbering().prefix.hasPrefix("msg-"))
  }
}

/// `MessageOutbox` keeps the ids of the bubbles shown since the user last read, for the
/// presenter to withdraw when the user reads.
struct MessageOutboxWithdrawalTests {
  let t0 = ContinuousClock.now

  func message(_ number: Int) -> ChatMessage {
    ChatMessage(
      id: "msg-test-\(number)", sender: "bob", text: "m\(number)", reason: .privateMessage, channel: "#c")
  }

  @Test func readingHandsBackTheBubblesShownSinceTheLastRead() {
    // Given three messages: shown, shown in the transcript only, refused then shown
    var outbox = MessageOutbox(unread: 0)
    for number in 1...3 { outbox.received(message(number)) }
    outbox.presented("msg-test-1", .shown, now: t0)
    outbox.presented("msg-test-2", .shown, now: t0, onScreen: false)
    outbox.presented("msg-test-3", .refused, now: t0)
    #expect(outbox.shownSinceRead == ["msg-test-1"])
    outbox.presented("msg-test-3", .shown, now: t0 + .seconds(1))

    // When the user reads
    let read = outbox.markedRead()

    // Then the bubbles on screen are handed back, oldest first, and forgotten
    #expect(read == ["msg-test-1", "msg-test-3"])
    #expect(outbox.shownSinceRead.isEmpty)
    #expect(outbox.markedRead().isEmpty)

    // And a message shown after reading is the next one to withdraw
    outbox.received(message(4))
    outbox.presented("msg-test-4", .shown, now: t0)
    #expect(outbox.markedRead() == ["msg-test-4"])
  }

  @Test func whatMayNotBeOnScreenIsNotWithdrawn() {
    // Given a message in doubt (the call timed out) and one rejected
    var outbox = MessageOutbox(unread: 0)
    outbox.received(message(1))
    outbox.received(message(2))
    outbox.presented("msg-test-1", .inDoubt, now: t0)
    outbox.probed(answered: true, now: t0)
    outbox.presented("msg-test-2", .rejected, now: t0)
    // Then reading has nothing to withdraw: a call to a hung server would wait its timeout
    #expect(outbox.markedRead().isEmpty)
  }

  @Test func onlyTheLatestShownAreRemembered() {
    // Given more messages shown than are remembered, nobody reading
    var outbox = MessageOutbox(unread: 0)
    let count = MessageOutbox.rememberedShown + 5
    for number in 1...count {
      outbox.received(message(number))
      outbox.presented("msg-test-\(number)", .shown, now: t0)
    }
    // Then reading withdraws the latest ones, oldest first
    #expect(outbox.markedRead() == (6...count).map { "msg-test-\($0)" })
  }
}

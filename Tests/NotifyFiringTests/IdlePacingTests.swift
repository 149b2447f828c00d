import Foundation
import NotifyFiring
import Testing

@Suite("IdlePacing: the daemon's idle work (its WAL checkpoint) at most once a spacing")
struct IdlePacingTests {
  let start = Date(timeIntervalSince1970: 1_800_000_000)

  @Test("the first going idle runs at once")
  func firstRunsNow() {
    // Given a pacing that never ran
    var pacing = IdlePacing(spacing: 1)
    // When the loop goes idle, Then it runs now, without asking whether there is work
    // (the daemon's question is a `stat` of the WAL)
    var asked = false
    #expect(
      pacing.goingIdle(
        at: start,
        hasWork: {
          asked = true; return true
        }) == .now)
    #expect(pacing.lastRun == start)
    #expect(!asked)
  }

  @Test(
    "going idle again within the spacing puts the run off to its end; after it, at once",
    arguments: [
      (after: 0.0, expected: IdlePacing.Decision.at(Date(timeIntervalSince1970: 1_800_000_001))),
      (after: 0.2, expected: .at(Date(timeIntervalSince1970: 1_800_000_001))),
      (after: 0.999, expected: .at(Date(timeIntervalSince1970: 1_800_000_001))),
      (after: 1.0, expected: .now),
      (after: 30.0, expected: .now),
    ])
  func secondWithinSpacing(after: TimeInterval, expected: IdlePacing.Decision) {
    // Given a run at `start`
    var pacing = IdlePacing(spacing: 1)
    _ = pacing.goingIdle(at: start)
    // When the loop goes idle `after` seconds later
    let decision = pacing.goingIdle(at: start + after)
    // Then it runs as expected, and a put-off run is not counted as run
    #expect(decision == expected)
    #expect(pacing.lastRun == (expected == .now ? start + after : start))
  }

  @Test("a stream of wake-ups runs once a spacing: every put-off run waits for the same instant")
  func streamOnceASpacing() {
    // Given a run at `start`
    var pacing = IdlePacing(spacing: 1)
    _ = pacing.goingIdle(at: start)
    // When the loop goes idle every 10 ms for 0.9 s
    let decisions = (1..<90).map { pacing.goingIdle(at: start + Double($0) * 0.01) }
    // Then each puts the run off to the end of the spacing
    #expect(Set(decisions.map { "\($0)" }).count == 1)
    #expect(decisions.first == .at(start + 1))
    // And when the timer fires and the run happens, the next spacing starts there
    pacing.ran(at: start + 1)
    #expect(pacing.goingIdle(at: start + 1.5) == .at(start + 2))
  }

  @Test(
    "within the spacing with nothing to do since (the wake-up its own checkpoint caused), nothing is put off")
  func nothingToDo() {
    // Given a run at `start`
    var pacing = IdlePacing(spacing: 1)
    _ = pacing.goingIdle(at: start)
    // When the loop goes idle within the spacing and nothing was written since
    // Then no run is put off; after the spacing it runs as usual
    #expect(pacing.goingIdle(at: start + 0.1, hasWork: { false }) == .nothing)
    #expect(pacing.lastRun == start)
    #expect(pacing.goingIdle(at: start + 1.1, hasWork: { false }) == .now)
  }

  @Test("a wall clock set back does not put the run off")
  func clockSetBack() {
    // Given a run at `start`
    var pacing = IdlePacing(spacing: 1)
    _ = pacing.goingIdle(at: start)
    // When the loop goes idle at an instant before it (the clock was set back an hour)
    // Then it runs now
    #expect(pacing.goingIdle(at: start - 3600) == .now)
  }
}

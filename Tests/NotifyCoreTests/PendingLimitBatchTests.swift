import Foundation
import Testing

@testable import NotifyCore

/// Which requests of a batch the limit keeps, decided before the batch is stored (the
/// D-Bus service copies files for these only).
@Suite("PendingLimit.kept: a batch's survivors, before it is stored")
struct PendingLimitBatchTests {
  let base = Date(timeIntervalSince1970: 1_800_000_000)

  func pending(_ count: Int) -> [PendingLimit.Entry] {
    (0..<count).map {
      PendingLimit.Entry(id: "p\($0)", nextFire: base + TimeInterval($0 * 60), sequence: Int64($0 + 10))
    }
  }

  func arrival(_ id: String, minutes: Int) -> PendingLimit.Arrival {
    PendingLimit.Arrival(id: id, firstFire: base + TimeInterval(minutes * 60))
  }

  @Test func aFullAppKeepsOnlyWhatFiresSooner() {
    // Given 64 pending one minute apart, when a batch brings one later than all and one sooner
    let kept = PendingLimit.kept(
      arriving: [arrival("late", minutes: 500), arrival("early", minutes: -1)], over: pending(64))
    // Then only the sooner one is kept (it evicts the latest pending)
    #expect(kept == [1])
  }

  @Test func aTieGoesToWhatWasScheduledFirst() {
    // Given 64 pending, the last at minute 63: a newcomer at minute 63 loses the tie
    #expect(PendingLimit.kept(arriving: [arrival("tie", minutes: 63)], over: pending(64)).isEmpty)
    // And with room for it, it stays
    #expect(PendingLimit.kept(arriving: [arrival("tie", minutes: 63)], over: pending(63)) == [0])
  }

  @Test func aLaterRequestWithTheSameIdReplacesTheEarlierAndAPendingOne() {
    // Given 64 pending; the batch replaces p63 twice: only its last request is kept
    let kept = PendingLimit.kept(
      arriving: [arrival("p63", minutes: 1), arrival("p63", minutes: 2)], over: pending(64))
    #expect(kept == [1])
  }

  @Test func aBatchOfAThousandKeepsTheSixtyFourSoonest() {
    let batch = (0..<1000).map { arrival("b\($0)", minutes: 1000 - $0) }
    let kept = PendingLimit.kept(arriving: batch, over: [])
    #expect(kept == Set(936..<1000))
  }
}

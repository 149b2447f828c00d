import Foundation
import Testing

@testable import NotifyCore

@Suite("PendingLimit: keep the 64 soonest")
struct PendingLimitTests {
  let base = Date(timeIntervalSince1970: 1_800_000_000)

  func entries(_ count: Int) -> [PendingLimit.Entry] {
    (0..<count).map {
      PendingLimit.Entry(id: "n\($0)", nextFire: base + TimeInterval($0 * 60), sequence: Int64($0))
    }
  }

  @Test("nothing is discarded up to the limit", arguments: [0, 1, 63, 64])
  func withinLimit(_ count: Int) {
    #expect(PendingLimit.overflow(of: entries(count)).isEmpty)
  }

  @Test("the latest fire instants are discarded, soonest first")
  func discardsLatest() {
    // Given 66 entries, shuffled
    let all = entries(66).shuffled()
    // When the limit is applied
    let discarded = PendingLimit.overflow(of: all)
    // Then the two latest go, in fire order
    #expect(discarded.map(\.id) == ["n64", "n65"])
  }

  @Test("on equal fire instants the one scheduled earlier wins")
  func tiesKeepEarlierScheduled() {
    // Given 64 pending entries and a 65th scheduled later for the same instant as the last
    var all = entries(64)
    let last = all[63]
    all.append(PendingLimit.Entry(id: "later", nextFire: last.nextFire, sequence: 100))
    // When the limit is applied
    let discarded = PendingLimit.overflow(of: all.reversed())
    // Then the later-scheduled one is discarded
    #expect(discarded.map(\.id) == ["later"])
  }

  @Test("a new notification firing sooner evicts the latest one")
  func newSoonerEvicts() {
    var all = entries(64)
    all.append(PendingLimit.Entry(id: "new", nextFire: base - 60, sequence: 500))
    #expect(PendingLimit.overflow(of: all).map(\.id) == ["n63"])
  }

  @Test("a new notification tied with the latest loses the tie", arguments: [1, 3])
  func newTiedLoses(_ extra: Int) {
    // Given every pending entry fires at the same instant
    var all = (0..<64).map { PendingLimit.Entry(id: "old\($0)", nextFire: base, sequence: Int64($0)) }
    for i in 0..<extra {
      all.append(PendingLimit.Entry(id: "new\(i)", nextFire: base, sequence: Int64(64 + i)))
    }
    // Then the newest ones are discarded, the oldest kept
    #expect(PendingLimit.overflow(of: all.shuffled()).map(\.id) == (0..<extra).map { "new\($0)" })
  }

  @Test("a custom maximum is honoured")
  func customMaximum() {
    #expect(PendingLimit.overflow(of: entries(5), maximum: 2).map(\.id) == ["n2", "n3", "n4"])
  }
}

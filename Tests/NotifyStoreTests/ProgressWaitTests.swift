import Foundation
import Testing

@testable import NotifyStore

/// The busy wait's rule (`ProgressWait`, `StoreActivity`): it lasts while others visibly
/// make progress, gives up after the busy timeout without any, and at its cap in any case.
/// Literal instants, no store.
@Suite("Busy waits: progress, not time, decides")
struct ProgressWaitTests {
  let start = ContinuousClock.now
  func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

  /// A store as one look sees it: a WAL index, a WAL file and a holder.
  static let still = StoreActivity(
    walIndex: [1, 0, 0, 0, 7, 0, 0, 0],
    files: ["/s/notify.db": [4096, 10, 0], "/s/notify.db-wal": [8272, 10, 5]],
    holder: 4242)

  /// `still` with a change made by `change`.
  static func changed(_ change: (inout StoreActivity) -> Void) -> StoreActivity {
    var activity = still
    change(&activity)
    return activity
  }

  struct ProgressCase: CustomTestStringConvertible, Sendable {
    let name: String
    let before: StoreActivity
    let after: StoreActivity
    let isProgress: Bool
    var testDescription: String { name }
  }

  static let progressCases: [ProgressCase] = [
    ProgressCase(name: "nothing changed", before: still, after: still, isProgress: false),
    ProgressCase(
      name: "a commit (the WAL index header changed)", before: still,
      after: changed { $0.walIndex[4] = 8 }, isProgress: true),
    ProgressCase(
      name: "a write inside a transaction (the WAL file grew)", before: still,
      after: changed { $0.files["/s/notify.db-wal"] = [12368, 10, 9] }, isProgress: true),
    ProgressCase(
      name: "the WAL rewritten in place (its time of change alone moved)", before: still,
      after: changed { $0.files["/s/notify.db-wal"] = [8272, 11, 0] }, isProgress: true),
    ProgressCase(
      name: "a creator's file appeared", before: still,
      after: changed { $0.files["/s/.notify.db.new-77-1f"] = [0, 12, 0] }, isProgress: true),
    ProgressCase(
      name: "the lock passed to another process", before: still, after: changed { $0.holder = 4343 },
      isProgress: true),
    ProgressCase(
      name: "the lock taken after it was seen free", before: changed { $0.holder = nil }, after: still,
      isProgress: true),
    ProgressCase(
      name: "the lock let go (the waiter tries at once)", before: still, after: changed { $0.holder = nil },
      isProgress: false),
    ProgressCase(
      name: "the lock free, and free again", before: changed { $0.holder = nil },
      after: changed { $0.holder = nil }, isProgress: false),
  ]

  @Test("what counts as progress", arguments: progressCases)
  func progress(_ example: ProgressCase) {
    #expect(example.after.showsProgress(since: example.before) == example.isProgress)
  }

  @Test("a holder doing nothing: waits out the busy timeout, then gives up as no progress")
  func noProgress() {
    // Given a wait with a busy timeout of 1 s on a store nobody changes
    var wait = ProgressWait(timeout: .seconds(1), seen: Self.still, now: at(0))
    // When it looks until just before 1 s, Then it waits; at 1 s it gives up
    for milliseconds in stride(from: 10, to: 1000, by: 10) {
      #expect(wait.look(Self.still, now: at(milliseconds)) == .keepWaiting, "at \(milliseconds) ms")
    }
    #expect(wait.look(Self.still, now: at(1000)) == .giveUp(.noProgress))
  }

  @Test("a writer committing every 400 ms with a timeout of 1 s: waits on until the cap, 10 timeouts")
  func progressUntilTheCap() {
    // Given a wait with a busy timeout of 1 s on a store another process commits to every 400 ms
    var wait = ProgressWait(timeout: .seconds(1), seen: Self.still, now: at(0))
    var activity = Self.still
    // When it looks every 10 ms for 10 s
    for milliseconds in stride(from: 10, to: 10_000, by: 10) {
      if milliseconds % 400 == 0 { activity.walIndex[4] &+= 1 }
      // Then it keeps waiting, long past the busy timeout
      #expect(wait.look(activity, now: at(milliseconds)) == .keepWaiting, "at \(milliseconds) ms")
    }
    // And at 10 s, the cap, it gives up saying others kept writing
    #expect(wait.look(activity, now: at(10_000)) == .giveUp(.capReached))
  }

  @Test("progress for 3 s, then a stopped holder: gives up 1 s after the last change")
  func progressThenStopped() {
    // Given a wait with a busy timeout of 1 s, the holder writing every 100 ms until 3 s
    var wait = ProgressWait(timeout: .seconds(1), seen: Self.still, now: at(0))
    var activity = Self.still
    for milliseconds in stride(from: 100, through: 3000, by: 100) {
      activity.files["/s/notify.db-wal"]?[0] += 4096
      #expect(wait.look(activity, now: at(milliseconds)) == .keepWaiting)
    }
    // When it stops writing, Then the wait goes on until 1 s after its last write
    #expect(wait.look(activity, now: at(3990)) == .keepWaiting)
    #expect(wait.look(activity, now: at(4000)) == .giveUp(.noProgress))
  }

  @Test("a store's open: its waits end at the open's end, even with progress")
  func openEnd() {
    // Given a wait inside an open that must end at 2.5 s
    var wait = ProgressWait(timeout: .seconds(1), seen: Self.still, now: at(0), end: at(2500))
    var activity = Self.still
    // When the store changes every 100 ms
    for milliseconds in stride(from: 100, to: 2500, by: 100) {
      activity.holder = Int32(5000 + milliseconds)
      #expect(wait.look(activity, now: at(milliseconds)) == .keepWaiting)
    }
    // Then it gives up at the open's end as capped
    activity.holder = 1
    #expect(wait.look(activity, now: at(2500)) == .giveUp(.capReached))
  }
}

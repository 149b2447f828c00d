import Foundation
import NotifyCore

/// Wakes a firer as the daemon's timer would, on a manual clock: `wake` once, then again at
/// each instant it asks for (never before `clock`'s now), at most `limit` wake-ups in all.
/// Returns the last instant asked for: nil when the firer went back to sleep with nothing
/// to wait for.
public func wakeUntilIdle(clock: ManualClock, limit: Int = 20, _ wake: () throws -> Date?) rethrows -> Date? {
  var next = try wake()
  var wakes = 1
  while let instant = next, wakes < limit {
    clock.set(max(instant, clock.now()))
    next = try wake()
    wakes += 1
  }
  return next
}

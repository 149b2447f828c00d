import Foundation

/// The one deadline of a store's open: the migration lock's wait and SQLite's busy waits
/// draw on it together, so an open gives up after its busy timeout, not after a sum of them.
struct StoreDeadline: Sendable {
  private let end: ContinuousClock.Instant
  /// The whole time the open may take.
  let seconds: TimeInterval

  init(seconds: TimeInterval) {
    self.seconds = seconds
    end = .now + .milliseconds(Int64(max(0, seconds) * 1000))
  }

  /// What is left, never negative.
  var remaining: Duration { max(.zero, end - .now) }

  /// What is left in whole milliseconds, at least 1 (SQLite's busy timeout: 0 would mean
  /// "fail at once" only by accident of rounding).
  var remainingMilliseconds: Int32 {
    let (seconds, attoseconds) = remaining.components
    return Int32(clamping: max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
  }

  var hasPassed: Bool { ContinuousClock.now >= end }
}

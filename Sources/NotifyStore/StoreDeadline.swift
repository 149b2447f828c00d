import Foundation

/// The busy timeout of a store's open and the open's end: the migration lock's wait and
/// SQLite's busy waits each give up after the busy timeout without progress by others
/// (`ProgressWait`), and all of them at the one end, `ProgressWait.capFactor` busy timeouts
/// after the open began, so that an open keeps to its cap as a whole, not to a sum of caps.
struct StoreDeadline: Sendable {
  /// The busy timeout in seconds (for messages).
  let seconds: TimeInterval
  /// The busy timeout: the longest a wait goes without progress by others.
  let timeout: Duration
  /// When the open gives up even while others make progress.
  let end: ContinuousClock.Instant

  init(seconds: TimeInterval) {
    self.seconds = seconds
    timeout = .milliseconds(Int64(max(0, seconds) * 1000))
    end = .now + timeout * ProgressWait.capFactor
  }
}

/// A wait for other processes that lasts while they visibly make progress: it gives up
/// once the busy timeout passes without any (the holder is stopped, or holds the lock doing
/// nothing), or at its end, the cap, whatever happens. Pure: its caller looks at the store
/// (`StoreActivity`) and passes what it saw with the time; SQLite's busy handler
/// (`StoreBusyHandler`) and the migration lock's wait (`StoreLock`) both decide with it.
struct ProgressWait: Sendable {
  /// Why a wait gave up.
  enum Ending: Sendable, Equatable {
    /// Nothing changed for the whole busy timeout.
    case noProgress
    /// Others kept making progress until the cap.
    case capReached
  }

  /// What to do after a look.
  enum Verdict: Sendable, Equatable {
    case keepWaiting
    case giveUp(Ending)
  }

  /// The cap of a wait, in busy timeouts: generous, since only a store that others keep
  /// changing all that time gets there, and finite, so that nothing waits forever.
  static let capFactor = 10

  /// The longest a wait may go without progress.
  let timeout: Duration
  /// When the wait gives up even while others make progress.
  let end: ContinuousClock.Instant
  private var seen: StoreActivity
  private var lastProgress: ContinuousClock.Instant

  /// A wait starting `now` on a store looking as `seen`, capped at `capFactor` busy
  /// timeouts, or at `end` when given (the open's end, shared by its waits).
  init(
    timeout: Duration, seen: StoreActivity, now: ContinuousClock.Instant, end: ContinuousClock.Instant? = nil
  ) {
    self.timeout = timeout
    self.end = end ?? now + timeout * Self.capFactor
    self.seen = seen
    lastProgress = now
  }

  /// The verdict after a look at `now` that saw `activity`.
  mutating func look(_ activity: StoreActivity, now: ContinuousClock.Instant) -> Verdict {
    if activity.showsProgress(since: seen) { lastProgress = now }
    seen = activity
    if now - lastProgress >= timeout { return .giveUp(.noProgress) }
    if now >= end { return .giveUp(.capReached) }
    return .keepWaiting
  }
}

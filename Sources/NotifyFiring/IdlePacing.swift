import Foundation

/// When a loop going idle runs its idle work (the daemon's WAL checkpoint): at once,
/// unless it ran less than `spacing` ago; then once, `spacing` after that last run.
///
/// A checkpoint restarts the WAL, and the next commit after it syncs the WAL's new header;
/// the checkpoint itself syncs the WAL and the store file. Run after every commit of a
/// client calling the D-Bus service back to back, that was three `fdatasync`s per call,
/// one of them inside the call (BENCHMARKS.md, "The D-Bus service"). Paced, a stream of commits is checkpointed once per `spacing`
/// and once after its last commit; a single commit after a quiet time still at once.
///
/// ```swift
/// var pacing = IdlePacing(spacing: 1)
/// pacing.goingIdle(at: t)        // .now
/// pacing.goingIdle(at: t + 0.2)  // .at(t + 1): arm a timer; when it fires, run and `ran(at:)`
/// ```
public struct IdlePacing: Sendable, Equatable {
  /// What the loop does about its idle work.
  public enum Decision: Sendable, Equatable {
    /// Run it now.
    case now
    /// Run it when a timer armed for this instant fires, and say so (`ran(at:)`).
    case at(Date)
    /// Nothing: it ran less than `spacing` ago and has nothing to do since.
    case nothing
  }

  /// The least time between two runs.
  public let spacing: TimeInterval
  /// When the idle work last ran.
  public private(set) var lastRun: Date?

  /// No run yet: the first going idle runs at once.
  public init(spacing: TimeInterval) {
    self.spacing = spacing
  }

  /// The loop goes idle at `now` after a wake-up: run now, or at the instant returned.
  /// `hasWork` says whether there is anything to do since the last run (the WAL was
  /// written): when there is not, nothing is put off, so that a wake-up the idle work
  /// itself caused (the checkpoint's write to the store file) arms no timer.
  /// It is asked only when the run would be put off.
  public mutating func goingIdle(at now: Date, hasWork: () -> Bool = { true }) -> Decision {
    // A wall clock set back (now before the last run) does not put the run off.
    if let lastRun, now >= lastRun, now < lastRun + spacing {
      return hasWork() ? .at(lastRun + spacing) : .nothing
    }
    lastRun = now
    return .now
  }

  /// The idle work ran at `now` (the timer of a `.at` decision fired).
  public mutating func ran(at now: Date) {
    lastRun = now
  }
}

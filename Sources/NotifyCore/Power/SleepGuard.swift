import Foundation

/// Every decision a firer makes about the machine going to sleep or shutting down: when it
/// takes logind's *delay* inhibitor (while work is in hand: claims being handed over, a
/// burst being recorded, an alarm's next re-alert being stored with it), when it lets it go
/// (at once when nothing is in hand; once the work in hand is done after logind announced a
/// sleep or a shutdown), and when it looks again at what is due (as the machine resumes,
/// without waiting for a timer that counted while it slept).
///
/// Pure: one method per event, each returning the one action to carry out. The adapter
/// (logind over the system bus) carries it out and reports the inhibitor's answer as the
/// next event. The state is an enum; an event that cannot happen in it traps.
///
/// ```swift
/// var guard = SleepGuard()
/// guard.workComing()               // .takeInhibitor(wait: true): ask, report taken() or refused()
/// guard.taken()                     // .none: held
/// guard.preparing(.sleep)           // .none: the work in hand finishes first
/// guard.work(inHand: false)         // .releaseInhibitor: the suspend goes on
/// guard.resumed(.sleep)             // .lookAgain: deliver what fell due while asleep
/// ```
public struct SleepGuard: Hashable, Sendable {
  /// What logind announces.
  public enum Transition: String, Hashable, Sendable {
    case sleep, shutdown
  }

  /// What the adapter carries out.
  public enum Action: Hashable, Sendable {
    /// Ask logind for a delay inhibitor (`Inhibit("sleep:shutdown", ..., "delay")`); report
    /// with `taken()` or `refused()`. With `wait`, before anything else happens (a hand-off
    /// is about to start: the answer is waited for, briefly); else whenever it comes.
    case takeInhibitor(wait: Bool)
    /// Close the inhibitor's descriptor: logind may go on.
    case releaseInhibitor
    /// Wake the firer now: what fell due while the machine slept is delivered at once.
    case lookAgain
    /// Nothing to do.
    case none
  }

  /// Where the guard is.
  enum State: Hashable, Sendable {
    /// Awake, nothing in hand, no inhibitor.
    case idle
    /// Work in hand and the inhibitor asked for; `wanted` false once the work ended before
    /// logind answered (it is let go as it comes).
    case asking(wanted: Bool)
    /// Work in hand, the inhibitor held.
    case holding
    /// logind announced a sleep or a shutdown: the inhibitor (held, or asked for) is kept
    /// while work is in hand (`busy`) and let go when it ends; none is asked for until the
    /// transition is over.
    case going(Transition, holding: Bool, asking: Bool, busy: Bool)
  }

  private(set) var state = State.idle

  /// A guard with nothing in hand.
  public init() {}

  /// Whether the inhibitor is held or asked for.
  public var inhibits: Bool {
    switch state {
    case .idle: false
    case .asking, .holding: true
    case .going(_, let holding, let asking, _): holding || asking
    }
  }

  /// Whether logind announced a sleep or a shutdown that has not ended.
  public var isGoing: Bool {
    if case .going = state { return true }
    return false
  }

  // MARK: - Events

  /// A wake-up of the firer is about to hand something over (its timer came for an instant
  /// it asked for). Returns `.takeInhibitor(wait: true)` when none is held or asked for,
  /// else `.none`.
  public mutating func workComing() -> Action {
    guard case .idle = state else { return .none }
    state = .asking(wanted: true)
    return .takeInhibitor(wait: true)
  }

  /// After a wake-up of the firer: whether it has work in hand (claims not yet handed
  /// over or recorded). Returns `.takeInhibitor(wait: false)`, `.releaseInhibitor` or
  /// `.none`.
  public mutating func work(inHand: Bool) -> Action {
    switch state {
    case .idle:
      guard inHand else { return .none }
      state = .asking(wanted: true)
      return .takeInhibitor(wait: false)
    case .asking:
      state = .asking(wanted: inHand)
      return .none
    case .holding:
      guard !inHand else { return .none }
      state = .idle
      return .releaseInhibitor
    case .going(let transition, let holding, let asking, _):
      state = .going(transition, holding: holding && inHand, asking: asking, busy: inHand)
      return holding && !inHand ? .releaseInhibitor : .none
    }
  }

  /// logind gave the inhibitor asked for. Returns `.none` (kept while work is in hand) or
  /// `.releaseInhibitor` (the work ended meanwhile).
  public mutating func taken() -> Action {
    switch state {
    case .asking(let wanted):
      state = wanted ? .holding : .idle
      return wanted ? .none : .releaseInhibitor
    case .going(let transition, false, true, let busy):
      state = .going(transition, holding: busy, asking: false, busy: busy)
      return busy ? .none : .releaseInhibitor
    case .idle, .holding, .going:
      preconditionFailure("an inhibitor taken while \(state)")
    }
  }

  /// logind refused the inhibitor (or cannot be reached): the work goes on without one.
  /// Returns `.none`.
  public mutating func refused() -> Action {
    switch state {
    case .asking:
      state = .idle
    case .going(let transition, let holding, true, let busy):
      state = .going(transition, holding: holding, asking: false, busy: busy)
    case .idle, .holding, .going:
      preconditionFailure("an inhibitor refused while \(state)")
    }
    return .none
  }

  /// logind announced a sleep or a shutdown (`PrepareForSleep(true)`,
  /// `PrepareForShutdown(true)`). Returns `.releaseInhibitor` when one is held with nothing
  /// in hand, else `.none`: the work in hand ends first.
  public mutating func preparing(_ transition: Transition) -> Action {
    switch state {
    case .idle:
      state = .going(transition, holding: false, asking: false, busy: false)
    case .asking(let wanted):
      state = .going(transition, holding: false, asking: true, busy: wanted)
    case .holding:
      state = .going(transition, holding: true, asking: false, busy: true)
    case .going(_, let holding, let asking, let busy):
      state = .going(transition, holding: holding, asking: asking, busy: busy)
    }
    return .none
  }

  /// The machine resumed (`PrepareForSleep(false)`) or a shutdown was called off
  /// (`PrepareForShutdown(false)`), also one this guard did not hear start. Returns
  /// `.lookAgain`.
  public mutating func resumed(_ transition: Transition) -> Action {
    if case .going(_, let holding, let asking, let busy) = state {
      state = asking ? .asking(wanted: busy) : holding ? .holding : .idle
    }
    return .lookAgain
  }
}

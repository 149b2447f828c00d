import Foundation

/// The decisions of one firer between wake-ups (SPEC.md §6), the same for `notify daemon`,
/// `notify fire-due` and an app firing in process: what to hand over now, when to claim,
/// when to wake next, what to give back.
///
/// Pure: each event (a wake-up, a claim's result, a budget spent, a stop) goes in with
/// `now` and the store's earliest next fire instant, and the actions to take come out. The
/// firer carries them out and reports back; a driver (sd-event, a plain loop) only decides
/// when to call `wake`. Occurrences are claimed `claimAhead` before their instant, so that
/// at the instant only the hand-off is left; everything due at one instant is handed over
/// together.
///
/// ```swift
/// var machine = FiringStateMachine(claimAhead: 0.01)
/// for action in machine.wake(now: now, next: store.nextFireDate) { ... }
/// // after carrying out .claim(dueBy:): machine.claimed(claims, now: now, next: store.nextFireDate)
/// ```
public struct FiringStateMachine: Sendable {
  /// The store's earliest next fire instant, and how many occurrences fall due at it.
  public struct NextDue: Hashable, Sendable {
    /// The instant.
    public var instant: Date
    /// How many occurrences are due at it (at least 1).
    public var count: Int

    /// Creates the fact.
    public init(_ instant: Date, count: Int = 1) {
      self.instant = instant
      self.count = max(1, count)
    }
  }

  /// What the firer does next.
  public enum Action: Hashable, Sendable {
    /// Claim what falls due by this instant, then report with `claimed(_:now:next:)`.
    case claim(dueBy: Date)
    /// Hand these claimed occurrences to the sink now, in order, then record them.
    case handOver([Claim])
    /// Sleep until this instant (or until something changes).
    case arm(Date)
    /// Nothing is pending: sleep until something changes.
    case disarm
    /// Return these unstarted claims to pending.
    case giveBack([Claim])
    /// Read the store's next instant and report it with `nextRead(_:now:)`.
    case readNext
  }

  /// How long before its instant an occurrence is claimed (0: when due).
  public let claimAhead: TimeInterval
  /// What claiming one occurrence is expected to cost: a burst of n due at one instant is
  /// claimed `claimAhead + n × claimCost` ahead, so that it is all claimed by its instant.
  public let claimCost: TimeInterval
  /// How many claims in a row one wake-up may make before it re-arms instead (each claims
  /// up to a batch; more than this many batches due at once continue after other events).
  public let claimRounds: Int
  /// Occurrences claimed and not yet handed over, soonest first.
  public private(set) var prepared: [Claim] = []
  private var rounds = 0
  private var lastClaimEmpty = false

  /// A machine that claims `claimAhead` early, plus `claimCost` per occurrence due at once
  /// (none when `claimAhead` is 0: a run that exits claims what is due, when it is due).
  public init(claimAhead: TimeInterval = 0, claimCost: TimeInterval = 0.0001, claimRounds: Int = 16) {
    self.claimAhead = max(0, claimAhead)
    self.claimCost = claimAhead > 0 ? max(0, claimCost) : 0
    self.claimRounds = max(1, claimRounds)
  }

  /// How long before `next` its occurrences are claimed.
  public func margin(for next: NextDue) -> TimeInterval {
    claimAhead + Double(next.count) * claimCost
  }

  /// A wake-up: the timer, a change to the store, a clock set, a zone change, a resume.
  /// Hands over what has come due first (no store read stands before a hand-off), then
  /// asks for the store's next instant (`.readNext`).
  public mutating func wake(now: Date) -> [Action] {
    rounds = 0
    lastClaimEmpty = false
    return handOverDue(now: now) + [.readNext]
  }

  /// The result of `.claim`: `claims` are now this firer's. Hands over those already due,
  /// then asks for the store's next instant again.
  public mutating func claimed(_ claims: [Claim], now: Date) -> [Action] {
    rounds += 1
    lastClaimEmpty = claims.isEmpty
    prepared = (prepared + claims).sorted { ($0.fireDate, $0.rowID) < ($1.fireDate, $1.rowID) }
    return handOverDue(now: now) + [.readNext]
  }

  /// The result of `.readNext`: the store's earliest next fire instant (pending rows and
  /// abandoned claims), or nil. Decides whether to claim, or when to wake next.
  public mutating func nextRead(_ next: NextDue?, now: Date) -> [Action] {
    plan(now: now, next: next, claimedNothing: lastClaimEmpty)
  }

  /// `wake(now:)` followed by `nextRead(_:now:)`, for a caller that has `next` at hand.
  public mutating func wake(now: Date, next: NextDue?) -> [Action] {
    wake(now: now).filter { $0 != .readNext } + nextRead(next, now: now)
  }

  /// `claimed(_:now:)` followed by `nextRead(_:now:)`, for a caller that has `next` at hand.
  public mutating func claimed(_ claims: [Claim], now: Date, next: NextDue?) -> [Action] {
    claimed(claims, now: now).filter { $0 != .readNext } + nextRead(next, now: now)
  }

  /// The budget ran out with `unstarted` claims not handed over: keep them for the next
  /// wake-up, which comes at once.
  public mutating func budgetSpent(unstarted: [Claim], now: Date) -> [Action] {
    prepared = (unstarted + prepared).sorted { ($0.fireDate, $0.rowID) < ($1.fireDate, $1.rowID) }
    return unstarted.isEmpty ? [] : [.arm(now)]
  }

  /// Stopping (a signal, a run's end): every claim not handed over goes back.
  public mutating func stop() -> [Action] {
    defer { prepared = [] }
    return prepared.isEmpty ? [] : [.giveBack(prepared)]
  }

  private mutating func handOverDue(now: Date) -> [Action] {
    let due = prepared.prefix { $0.fireDate <= now }
    guard !due.isEmpty else { return [] }
    prepared.removeFirst(due.count)
    return [.handOver(Array(due))]
  }

  /// Claim when the next instant is within its margin; otherwise arm for the earliest of
  /// the prepared instants and the margin before the next pending one.
  private func plan(now: Date, next: NextDue?, claimedNothing: Bool) -> [Action] {
    let margin = next.map(margin(for:)) ?? claimAhead
    let horizon = now + margin
    if let next, next.instant <= horizon, !claimedNothing, rounds < claimRounds {
      return [.claim(dueBy: max(now + claimAhead, next.instant))]
    }
    var wake = [prepared.first?.fireDate, next.map { $0.instant - margin }].compactMap { $0 }.min()
    if claimedNothing, let soon = wake, soon <= horizon, prepared.first.map({ $0.fireDate > soon }) ?? true {
      // The store says something is due but nothing could be claimed: another live firer
      // holds it, or the instant is a fraction of a millisecond past its stored
      // millisecond. Look again shortly instead of spinning.
      wake = max(soon, now + Self.retryAfterEmptyClaim)
    }
    guard let wake else { return [.disarm] }
    return [.arm(wake)]
  }

  /// How soon to look again when something due could not be claimed.
  public static let retryAfterEmptyClaim: TimeInterval = 0.001
}

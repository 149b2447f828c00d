import Foundation

/// Every decision of one firer (SPEC.md §6), the same for `notify daemon`, `notify
/// fire-due` and an app firing in process: when to claim, what to hand over and in what
/// order, how often a refused delivery is tried, what a sink fault, a spent budget or a stop
/// does to the claims in hand, what to record and give back, when to wake next.
///
/// Pure: one method per event, each with `now` (and the store's next instant where the
/// decision needs it), each returning the one action to carry out next. The firer carries it
/// out against the store and the sink and reports the result as the next event, until the
/// action is `.sleep`. A driver (sd-event, a plain loop) only decides when to call `wake`.
/// The state is an enum; an event that cannot happen in the current state is a programming
/// error and traps.
///
/// Occurrences are claimed `claimAhead` before their instant, so that at the instant only
/// the hand-off is left; everything due at one instant is handed over back to back and then
/// recorded in one write.
///
/// ```swift
/// var machine = FiringStateMachine(claimAhead: 0.01)
/// var action = machine.wake(now: now, next: outlook.next)
/// while true {
///   switch action {
///   case .claim(let dueBy): action = machine.claimed(try claim(dueBy), now: now, next: outlook.next)
///   case .handOver(let claim, let attempt): action = machine.handedOver(deliver(claim), now: now)
///   // ...
///   case .sleep(let until): return until
///   }
/// }
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

  /// What the firer carries out next. Each event's documentation names the cases it
  /// returns.
  public enum Action: Hashable, Sendable {
    /// Claim what falls due by this instant; report with `claimed(_:now:next:)`.
    case claim(dueBy: Date)
    /// Hand this claimed occurrence to the sink (`attempt` counts from 1), unless the
    /// budget is spent or a stop was asked for (`interrupted(_:now:)`); report with
    /// `handedOver(_:now:)`.
    case handOver(Claim, attempt: Int)
    /// Hand these claimed occurrences, due at one instant, to the sink at once (a sink that
    /// shows a burst with one call: `BurstSink`), unless the budget is spent or a stop was
    /// asked for (`interrupted(_:now:)`); report with `handedOverBurst(_:now:)`. Their first
    /// attempt; a refused one is then tried again on its own (`handOver`).
    case handOverBurst([Claim])
    /// Record this claim `failed` with the sink's reason; report with `markedFailed(now:)`.
    case markFailed(Claim, reason: String)
    /// Record these hand-offs (none, when nothing of the burst was taken) in one write;
    /// report with `recorded(now:next:)`.
    case record([HandOff])
    /// Return these unstarted claims to pending; report with `gaveBack(now:)`.
    case giveBack([Claim])
    /// Nothing more now: wake at this instant, or only when something changes (nil).
    case sleep(until: Date?)
  }

  /// What became of one hand-off.
  public enum HandOffResult: Hashable, Sendable {
    /// The sink took it (or may have shown it: never tried again).
    case taken(HandOff)
    /// Quiet hours hold it: recorded `held`, nothing shown.
    case held(HandOff)
    /// The sink refused it, and said why; it may be tried again.
    case refused(String)
    /// The sink cannot take deliveries now or any more: every claim in hand goes back.
    case fault(SinkFault)
    /// No longer this firer's (cancelled, or taken over past its lease): skipped.
    case lost
  }

  /// Why hand-overs stop before the burst's end.
  public enum Interruption: Hashable, Sendable {
    /// The background task's budget ran out: the rest stays claimed and the next wake-up
    /// comes at once.
    case budget
    /// The driver is stopping: the rest stays claimed until it gives them back (`stop()`).
    case stop
  }

  /// The hand-overs of one instant in progress.
  struct Burst: Hashable, Sendable {
    /// The claim being handed over, and the ones after it.
    var queue: ArraySlice<Claim>
    /// Which try of the first claim this is.
    var attempt = 1
    /// What the sink took so far, recorded together at the end.
    var taken: [HandOff] = []
    /// Claims whose first attempt was spent in a `handOverBurst`, with the sink's reason.
    var refusedInBurst: [Claim: String] = [:]
  }

  /// What comes after a record.
  enum AfterRecord: Hashable, Sendable {
    /// Claim or sleep, by the store's next instant.
    case plan
    /// Sleep until then (a spent budget: at once; a stop: until woken).
    case sleep(Date?)
    /// Give every claim back, then sleep until then (a sink fault).
    case giveBackAll(retry: Date?)
  }

  /// Where the machine is.
  enum State: Hashable, Sendable {
    /// Between wake-ups.
    case idle
    /// A claim is being carried out, asked for at `since`.
    case claiming(since: Date)
    /// Hand-overs are being carried out.
    case handingOver(Burst)
    /// A claim refused on every attempt is being recorded `failed`.
    case markingFailed(Burst)
    /// A burst is being recorded.
    case recording(AfterRecord)
    /// Claims are being given back; then sleep until then.
    case givingBack(retry: Date?)
  }

  /// How long before its instant an occurrence is claimed (0: when due).
  public let claimAhead: TimeInterval
  /// How long before its instant a claimed occurrence is handed over (0: when due): the
  /// sink waits for the instant itself (`DeliveryGate`), having done its work before it.
  /// Less than `claimAhead`.
  public let handOverLead: TimeInterval
  /// Whether several claims due at once are handed over together (`handOverBurst`): the
  /// firer's sink shows a burst with one call.
  public let handsOverBursts: Bool
  /// At most this many claims go in one `handOverBurst` (a burst of 1000 goes over in
  /// parts, so that its first lines do not wait for the last ones to be built).
  public static let burstLimit = 64
  /// What claiming one occurrence is expected to cost at least: a burst of n due at one
  /// instant is claimed `claimAhead + n × expectedClaimCost` ahead, so that it is all
  /// claimed by its instant. By default 0.3 ms: what the first claims of a daemon's life
  /// cost, before it has claimed anything to learn from (docs/decisions/0023).
  public let claimCost: TimeInterval
  /// What claiming one occurrence cost in this firer's recent claims of at least
  /// `learnsFromClaims` occurrences (from the `.claim` action to its `claimed` event): it
  /// rises at once with a slower claim and falls back slowly. 0 until such a claim.
  public private(set) var observedClaimCost: TimeInterval = 0
  /// Claims of fewer occurrences say little about the cost of one (a transaction's own cost
  /// dominates): they are not learned from.
  public static let learnsFromClaims = 16
  /// The margin counts each occurrence at twice the observed cost (a claim under load
  /// varies), and at most this much.
  public static let maxClaimCost: TimeInterval = 0.001
  /// How many claims in a row one wake-up may make before it re-arms instead (each claims
  /// up to a batch; more than this many batches due at once continue after other events).
  public let claimRounds: Int
  /// How many times a delivery is tried before it is recorded `failed`.
  public let attempts: Int
  /// How long after a stalled sink (`SinkFault.stalled`) to try again.
  public let stalledRetry: TimeInterval

  /// Occurrences claimed and not yet handed over, soonest first.
  public private(set) var prepared: [Claim] = []
  /// What was done since the last `takeReport()`.
  public private(set) var report = FiringReport()
  private(set) var state = State.idle
  /// Claims made since the wake-up, and whether the last one found nothing.
  private var rounds = 0
  private var lastClaimEmpty = false

  /// A machine that claims `claimAhead` early, plus `claimCost` per occurrence due at once
  /// (none when `claimAhead` is 0: a run that exits claims what is due, when it is due), and
  /// tries a refused delivery `attempts` times.
  public init(
    claimAhead: TimeInterval = 0, handOverLead: TimeInterval = 0, handsOverBursts: Bool = false,
    claimCost: TimeInterval = 0.0003, claimRounds: Int = 16, attempts: Int = 3, stalledRetry: TimeInterval = 2
  ) {
    self.handsOverBursts = handsOverBursts
    self.claimAhead = max(0, claimAhead)
    self.handOverLead = min(max(0, handOverLead), self.claimAhead / 2)
    self.claimCost = claimAhead > 0 ? max(0, claimCost) : 0
    self.claimRounds = max(1, claimRounds)
    self.attempts = max(1, attempts)
    self.stalledRetry = max(0, stalledRetry)
  }

  /// What claiming one occurrence is expected to cost: `claimCost`, or twice what the
  /// firer's claims were seen to cost when that is more (at most `maxClaimCost`). 0 when
  /// `claimCost` is 0 (a margin that does not grow with the burst).
  public var expectedClaimCost: TimeInterval {
    guard claimCost > 0 else { return 0 }
    return max(claimCost, min(2 * observedClaimCost, Self.maxClaimCost))
  }

  /// How long before `next` its occurrences are claimed.
  public func margin(for next: NextDue) -> TimeInterval {
    claimAhead + Double(next.count) * expectedClaimCost
  }

  /// True between wake-ups.
  public var isIdle: Bool { state == .idle }

  // MARK: - Events

  /// A wake-up (the timer, a change to the store, a clock set, a zone change, a resume),
  /// with the store's next instant. Returns `.handOver` when something prepared is due,
  /// else `.claim` or `.sleep`.
  public mutating func wake(now: Date, next: NextDue?) -> Action {
    precondition(state == .idle, "wake while \(state)")
    rounds = 0
    lastClaimEmpty = false
    return handOverOrPlan(now: now, next: next)
  }

  /// The result of `.claim`: `claims` are now this firer's. Returns `.handOver` when one is
  /// due, else `.claim` (a full batch) or `.sleep`.
  public mutating func claimed(_ claims: [Claim], now: Date, next: NextDue?) -> Action {
    guard case .claiming(let since) = state else { preconditionFailure("claimed while \(state)") }
    learnClaimCost(now.timeIntervalSince(since), claimed: claims.count)
    rounds += 1
    lastClaimEmpty = claims.isEmpty
    report.claimed += claims.count
    // A burst's batches come in order: appended in place, sorted only when they did not (a
    // burst of 1000 sorted its claims 16 times over).
    prepared.append(contentsOf: claims)
    if !Self.isOrdered(prepared) { prepared.sort(by: Self.order) }
    return handOverOrPlan(now: now, next: next)
  }

  /// The result of `.handOver`. Returns the next `.handOver` (the next claim, or the same
  /// one again after a refusal), `.markFailed` (refused on every attempt), `.record` (the
  /// burst's end) or, after a sink fault with nothing to record, `.giveBack`.
  public mutating func handedOver(_ result: HandOffResult, now: Date) -> Action {
    guard case .handingOver(var burst) = state else { preconditionFailure("handedOver while \(state)") }
    state = .idle  // the burst's arrays are not shared while they change
    switch result {
    case .taken(let handOff):
      keep(handOff, held: false, in: &burst)
    case .held(let handOff):
      keep(handOff, held: true, in: &burst)
    case .lost:
      break
    case .refused(let reason):
      guard burst.attempt >= attempts else {
        burst.attempt += 1
        state = .handingOver(burst)
        return .handOver(burst.queue[burst.queue.startIndex], attempt: burst.attempt)
      }
      state = .markingFailed(burst)
      return .markFailed(burst.queue[burst.queue.startIndex], reason: reason)
    case .fault(let fault):
      return faulted(fault, untried: Array(burst.queue), taken: burst.taken, now: now)
    }
    return next(after: burst)
  }

  /// The result of `.handOverBurst`: one result per claim, in order; fewer when the sink
  /// stopped at a fault (the last result), the claims after it not tried. Returns the next
  /// part of a burst larger than `burstLimit` (`.handOverBurst`), `.handOver` of the first
  /// refused one (its second attempt) or of a last claim left, `.record` (the burst's end)
  /// or, after a sink fault, `.record` then `.giveBack`.
  public mutating func handedOverBurst(_ results: [HandOffResult], now: Date) -> Action {
    guard case .handingOver(var burst) = state, burst.attempt == 1 else {
      preconditionFailure("handedOverBurst while \(state)")
    }
    state = .idle
    var refused: [Claim] = []
    for (index, result) in results.enumerated() {
      let claim = burst.queue[burst.queue.startIndex + index]
      switch result {
      case .taken(let handOff):
        keep(handOff, held: false, in: &burst)
      case .held(let handOff):
        keep(handOff, held: true, in: &burst)
      case .lost:
        break
      case .refused(let reason):
        refused.append(claim)
        burst.refusedInBurst[claim] = reason
      case .fault(let fault):
        return faulted(fault, untried: refused + burst.queue.dropFirst(index), taken: burst.taken, now: now)
      }
    }
    let rest = burst.queue.dropFirst(results.count)
    if refused.isEmpty, rest.count > 1 {
      // The next part of a burst larger than `burstLimit`.
      burst.queue = rest
      state = .handingOver(burst)
      return .handOverBurst(Array(rest.prefix(Self.burstLimit)))
    }
    burst.queue = ArraySlice(refused + rest)
    return start(burst)
  }

  /// The result of `.markFailed`. Returns what `handedOver` returns after a hand-off.
  public mutating func markedFailed(now: Date) -> Action {
    guard case .markingFailed(let burst) = state else { preconditionFailure("markedFailed while \(state)") }
    report.failed += 1
    return next(after: burst)
  }

  /// Hand-overs cannot go on (`why`): the claim about to be handed over and the rest stay
  /// prepared, and what the sink took is recorded. Returns `.record`.
  public mutating func interrupted(_ why: Interruption, now: Date) -> Action {
    guard case .handingOver(let burst) = state else { preconditionFailure("interrupted while \(state)") }
    prepared = (burst.queue + prepared).sorted(by: Self.order)
    switch why {
    case .budget:
      report.stopped = true
      return record(burst.taken, then: .sleep(now))
    case .stop:
      report.interrupted = true
      return record(burst.taken, then: .sleep(nil))
    }
  }

  /// The result of `.record`, with the store's next instant. Returns `.handOver` (more came
  /// due meanwhile), `.claim`, `.giveBack` (after a sink fault) or `.sleep`.
  public mutating func recorded(now: Date, next: NextDue?) -> Action {
    guard case .recording(let after) = state else { preconditionFailure("recorded while \(state)") }
    switch after {
    case .plan:
      return handOverOrPlan(now: now, next: next)
    case .sleep(let until):
      state = .idle
      return .sleep(until: until)
    case .giveBackAll(let retry):
      guard !prepared.isEmpty else {
        state = .idle
        return .sleep(until: retry)
      }
      state = .givingBack(retry: retry)
      return .giveBack(takePrepared())
    }
  }

  /// The result of `.giveBack`. Returns `.sleep`.
  public mutating func gaveBack(now: Date) -> Action {
    guard case .givingBack(let retry) = state else { preconditionFailure("gaveBack while \(state)") }
    state = .idle
    return .sleep(until: retry)
  }

  /// The action in progress could not be carried out (the store failed): back to idle,
  /// with every claim not handed over still prepared.
  public mutating func failed() {
    switch state {
    case .handingOver(let burst), .markingFailed(let burst):
      prepared = (burst.queue + prepared).sorted(by: Self.order)
    case .idle, .claiming, .recording, .givingBack:
      break
    }
    state = .idle
  }

  /// Stopping (a signal, a run's end), between wake-ups: every claim not handed over is to
  /// go back. Returns them (counted as released).
  public mutating func stop() -> [Claim] {
    precondition(state == .idle, "stop while \(state)")
    return takePrepared()
  }

  /// What was done since the last call; starts counting again.
  public mutating func takeReport() -> FiringReport {
    defer { report = FiringReport() }
    return report
  }

  // MARK: - Decisions

  private mutating func takePrepared() -> [Claim] {
    defer { prepared = [] }
    report.released += prepared.count
    return prepared
  }

  /// A sink fault: what it took is recorded, and `untried` goes back to pending at once with
  /// every other claim, so that another firer (with another sink) may take them while this
  /// one's sink is stalled (looked at again `stalledRetry` later) or gone.
  private mutating func faulted(_ fault: SinkFault, untried: [Claim], taken: [HandOff], now: Date) -> Action {
    report.sinkFault = fault
    prepared = (untried + prepared).sorted(by: Self.order)
    let retry = fault.kind == .stalled ? now + stalledRetry : nil
    return record(taken, then: .giveBackAll(retry: retry))
  }

  /// A hand-off the sink took (or quiet hours hold), counted and kept for the burst's record.
  private mutating func keep(_ handOff: HandOff, held: Bool, in burst: inout Burst) {
    if held { report.held += 1 } else { report.delivered += 1 }
    burst.taken.append(handOff)
  }

  private mutating func record(_ taken: [HandOff], then after: AfterRecord) -> Action {
    state = .recording(after)
    return .record(taken)
  }

  /// After a claim is done with: the next one of the burst, or the burst's record.
  private mutating func next(after burst: Burst) -> Action {
    var burst = burst
    burst.queue.removeFirst()
    return start(burst)
  }

  /// The first hand-over of the burst's next claim: its second attempt when a burst
  /// hand-over spent its first (or its failure, when one attempt is all there is); the
  /// next part of the burst when several claims not tried yet are left and the sink shows
  /// bursts; the burst's record when none is left.
  private mutating func start(_ burst: Burst) -> Action {
    var burst = burst
    guard let claim = burst.queue.first else { return record(burst.taken, then: .plan) }
    burst.attempt = 1
    if handsOverBursts {
      let untried = burst.queue.prefix { burst.refusedInBurst[$0] == nil }.prefix(Self.burstLimit)
      if untried.count > 1 {
        state = .handingOver(burst)
        return .handOverBurst(Array(untried))
      }
    }
    if let reason = burst.refusedInBurst[claim] {
      guard attempts > 1 else {
        state = .markingFailed(burst)
        return .markFailed(claim, reason: reason)
      }
      burst.attempt = 2
    }
    state = .handingOver(burst)
    return .handOver(claim, attempt: burst.attempt)
  }

  /// Hands over what has come due first (no claim stands before a hand-off), else claims
  /// or sleeps.
  private mutating func handOverOrPlan(now: Date, next: NextDue?) -> Action {
    let due = prepared.prefix { $0.fireDate <= now + handOverLead }
    if let first = due.first {
      state = .handingOver(Burst(queue: ArraySlice(due)))
      prepared.removeFirst(due.count)
      guard handsOverBursts, due.count > 1 else { return .handOver(first, attempt: 1) }
      return .handOverBurst(Array(due.prefix(Self.burstLimit)))
    }
    let action = plan(now: now, next: next)
    if case .claim = action { state = .claiming(since: now) } else { state = .idle }
    return action
  }

  /// A claim of `count` occurrences took `elapsed`: a larger cost per occurrence is taken at
  /// once (the next burst is claimed early enough), a smaller one an eighth at a time.
  private mutating func learnClaimCost(_ elapsed: TimeInterval, claimed count: Int) {
    guard count >= Self.learnsFromClaims, elapsed > 0 else { return }
    let cost = elapsed / Double(count)
    observedClaimCost =
      cost >= observedClaimCost ? cost : observedClaimCost + (cost - observedClaimCost) / 8
  }

  /// Claim when the next instant is within its margin; otherwise sleep until the earliest
  /// of the prepared instants and the margin before the next pending one.
  private func plan(now: Date, next: NextDue?) -> Action {
    let margin = next.map(margin(for:)) ?? claimAhead
    let horizon = now + margin
    if let next, next.instant <= horizon, !lastClaimEmpty, rounds < claimRounds {
      return .claim(dueBy: max(now + claimAhead, next.instant))
    }
    let handOver = prepared.first.map { $0.fireDate - handOverLead }
    var wake = [handOver, next.map { $0.instant - margin }].compactMap { $0 }.min()
    if lastClaimEmpty, let soon = wake, soon <= horizon, handOver.map({ $0 > soon }) ?? true {
      // The store says something is due but nothing could be claimed: another live firer
      // holds it, or the instant is a fraction of a millisecond past its stored
      // millisecond. Look again shortly instead of spinning.
      wake = max(soon, now + Self.retryAfterEmptyClaim)
    }
    return .sleep(until: wake)
  }

  private static func order(_ a: Claim, _ b: Claim) -> Bool {
    (a.fireDate, a.rowID, a.occurrence) < (b.fireDate, b.rowID, b.occurrence)
  }

  private static func isOrdered(_ claims: [Claim]) -> Bool {
    zip(claims, claims.dropFirst()).allSatisfy { !order($1, $0) }
  }

  /// How soon to look again when something due could not be claimed.
  public static let retryAfterEmptyClaim: TimeInterval = 0.001
}

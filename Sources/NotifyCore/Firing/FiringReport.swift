/// What a wake-up or a run of a firer did (SPEC.md §6), counted by `FiringStateMachine`
/// as it decides, and by the firer for what quiet hours released.
public struct FiringReport: Hashable, Sendable {
  /// Occurrences claimed (including ones taken over from dead firers).
  public var claimed = 0
  /// Occurrences handed to the sink and recorded.
  public var delivered = 0
  /// Occurrences recorded `failed`.
  public var failed = 0
  /// Occurrences held for quiet hours.
  public var held = 0
  /// Held occurrences shown now that quiet hours are over.
  public var releasedFromQuiet = 0
  /// Claimed occurrences given back unstarted (the budget ran out, the sink failed, a stop).
  public var released = 0
  /// True when the task expired before everything due was handed over.
  public var stopped = false
  /// True when a stop request (a signal, `FiringLoop.stop()`) cut the work short: what was
  /// not handed over is given back by the driver as it stops.
  public var interrupted = false
  /// The sink fault that halted the hand-overs, if one did; the claims not handed over
  /// went back to pending (counted in `released`).
  public var sinkFault: SinkFault?

  /// Creates an empty report.
  public init() {}

  /// Adds another report's counts; the later report's sink fault wins.
  public mutating func add(_ other: FiringReport) {
    claimed += other.claimed
    delivered += other.delivered
    failed += other.failed
    held += other.held
    releasedFromQuiet += other.releasedFromQuiet
    released += other.released
    stopped = stopped || other.stopped
    interrupted = interrupted || other.interrupted
    sinkFault = other.sinkFault ?? sinkFault
  }
}

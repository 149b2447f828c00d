import Foundation
import Logging
import NotifyCore
import NotifySound

/// Claims what is due, hands it to a sink and marks it (SPEC.md §6): the delivery engine
/// shared by `notify daemon`, `notify fire-due` and apps that fire in-process.
///
/// A batch runs inside a `BackgroundTask`: once the task expires no further delivery is
/// started and the unstarted claims go back to the store for the next run. A delivery
/// the sink refuses is tried again (`Options.attempts` in all), then recorded `failed`
/// with the sink's reason. Not thread-safe: one batch at a time.
public final class Firer {
  /// Tuning for a firer.
  public struct Options: Sendable {
    /// Occurrences later than this are recorded `missed` instead of delivered; nil
    /// delivers every missed occurrence late.
    public var misfireGrace: TimeInterval?
    /// At most this many occurrences are claimed per batch.
    public var batchLimit: Int
    /// How many times a delivery is tried before it is recorded `failed`.
    public var attempts: Int

    /// Creates options.
    public init(misfireGrace: TimeInterval? = nil, batchLimit: Int = 64, attempts: Int = 3) {
      self.misfireGrace = misfireGrace
      self.batchLimit = max(1, batchLimit)
      self.attempts = max(1, attempts)
    }
  }

  /// What one batch did.
  public struct BatchReport: Hashable, Sendable {
    /// Occurrences claimed (including ones taken over from dead firers).
    public var claimed = 0
    /// Occurrences handed to the sink and recorded.
    public var delivered = 0
    /// Occurrences recorded `failed`.
    public var failed = 0
    /// Claimed occurrences given back unstarted because the budget ran out.
    public var released = 0
    /// True when the batch hit `batchLimit`: more may be due right now.
    public var reachedLimit = false
    /// True when the task expired before the batch was done.
    public var stopped = false

    /// Creates an empty report.
    public init() {}

    /// Adds another batch's counts.
    public mutating func add(_ other: BatchReport) {
      claimed += other.claimed
      delivered += other.delivered
      failed += other.failed
      released += other.released
      reachedLimit = other.reachedLimit
      stopped = stopped || other.stopped
    }
  }

  /// The store claims are taken from.
  public let store: any FiringStore
  /// Where deliveries go.
  public let sink: any DeliverySink
  /// This firer, as claims name it.
  public let identity: FirerIdentity
  /// Tuning.
  public let options: Options

  private let clock: any NotifyClock
  private let sounds: any SoundResolving
  private let logger: Logger
  /// Deliveries handed over but not yet recorded because the store was busy.
  private var unrecorded: [(Claim, Delivery)] = []

  /// Creates a firer.
  public init(
    store: any FiringStore, sink: any DeliverySink, identity: FirerIdentity,
    clock: any NotifyClock = SystemClock(), sounds: any SoundResolving = LibrarySounds(),
    logger: Logger = Logger(label: "notify.firing"), options: Options = Options()
  ) {
    self.store = store
    self.sink = sink
    self.identity = identity
    self.clock = clock
    self.sounds = sounds
    self.logger = logger
    self.options = options
  }

  /// A claimed occurrence with its sound already checked, ready to hand over.
  public struct Prepared: Sendable {
    /// The durable claim.
    public var claim: Claim
    /// The sound the delivery will use.
    public var sound: SoundResolution
    /// When it is due.
    public var fireDate: Date { claim.fireDate }
  }

  /// Claims the occurrences due now (at most `batchLimit`) and delivers them, checking
  /// `task` before each; once it expires the unstarted claims go back to the store.
  /// `beforeEach` runs before every delivery (the daemon pings its watchdog there).
  public func fireBatch(task: BackgroundTask? = nil, beforeEach: () -> Void = {}) throws(NotifyError)
    -> BatchReport
  {
    if task?.checkExpiration() == true {
      var report = BatchReport()
      report.stopped = true
      return report
    }
    let prepared = try claim(dueBy: clock.now())
    var (report, unstarted) = deliver(prepared, task: task, beforeEach: beforeEach)
    report.claimed = prepared.count
    report.reachedLimit = prepared.count >= options.batchLimit
    if !unstarted.isEmpty {
      try release(unstarted)
      report.released = unstarted.count
      logger.notice("budget spent: gave back \(unstarted.count) unstarted deliveries for the next run")
    }
    return report
  }

  /// Claims what is due at `instant` (at most `batchLimit`), soonest first, and checks
  /// each one's sound. `instant` may lie a little ahead: the daemon claims just before
  /// the due instant so that the hand-off itself happens on time.
  public func claim(dueBy instant: Date) throws(NotifyError) -> [Prepared] {
    recordUnrecorded()
    let claims = try Firer.storeCall {
      try store.claimDue(
        now: instant, localZone: clock.localZone, owner: identity, misfireGrace: options.misfireGrace,
        limit: options.batchLimit)
    }
    return claims.map { claim in
      Prepared(claim: claim, sound: sounds.resolve(claim.notification))
    }
  }

  /// Delivers `prepared` in order, checking `task` before each. Returns what was done and
  /// the ones not started because the task expired (still claimed by this firer).
  public func deliver(_ prepared: [Prepared], task: BackgroundTask? = nil, beforeEach: () -> Void = {})
    -> (report: BatchReport, unstarted: [Prepared])
  {
    var report = BatchReport()
    for (position, item) in prepared.enumerated() {
      if task?.checkExpiration() == true {
        report.stopped = true
        return (report, Array(prepared[position...]))
      }
      beforeEach()
      if deliver(item) { report.delivered += 1 } else { report.failed += 1 }
    }
    return (report, [])
  }

  /// Gives claims back to the store, unstarted.
  public func release(_ prepared: [Prepared]) throws(NotifyError) {
    guard !prepared.isEmpty else { return }
    let claims = prepared.map(\.claim)
    try Firer.storeCall { try store.release(claims) }
  }

  /// Hands one claimed occurrence to the sink, trying again on failure; records the
  /// outcome. Returns true when delivered. Nothing but the delivery value is built
  /// before the sink call: that is the latency that counts.
  private func deliver(_ item: Prepared) -> Bool {
    let claim = item.claim
    let notification = claim.notification
    let sound = item.sound
    var lastError = ""
    for attempt in 1...options.attempts {
      let now = clock.now()
      var delivery = Delivery(
        notification: notification, occurrence: claim.occurrence + 1, fireDate: claim.fireDate,
        deliveredAt: now,
        late: claim.late || now.timeIntervalSince(claim.fireDate) > Delivery.lateTolerance)
      delivery.apply(sound)
      do {
        try sink.deliver(delivery)
      } catch {
        lastError = "\(error)"
        logger.warning(
          "the \(sink.name) sink refused a delivery (attempt \(attempt) of \(options.attempts)): \(lastError)",
          metadata: Firer.metadata(claim))
        continue
      }
      record(claim, delivery)
      logger.info(
        "delivered\(delivery.late ? " late" : "")\(claim.coalesced > 0 ? " (standing for \(claim.coalesced + 1) occurrences)" : "")",
        metadata: Firer.metadata(claim))
      return true
    }
    do {
      try store.markFailed(claim, reason: "\(sink.name) sink: \(lastError)", at: clock.now())
    } catch {
      logger.error("could not record a failed delivery: \(error)", metadata: Firer.metadata(claim))
    }
    logger.error(
      "delivery failed after \(options.attempts) attempts: \(lastError)", metadata: Firer.metadata(claim))
    return false
  }

  /// Log fields naming an occurrence: id, app, occurrence; never the body or userInfo.
  static func metadata(_ claim: Claim) -> Logger.Metadata {
    [
      LogKey.id: "\(claim.notification.id)", LogKey.app: "\(claim.notification.app)",
      LogKey.occurrence: "\(claim.occurrence + 1)",
    ]
  }

  private func record(_ claim: Claim, _ delivery: Delivery) {
    do {
      try store.markDelivered(claim, delivery: delivery)
    } catch {
      // Shown but not yet recorded: keep it and try again before the next batch, so a
      // busy store cannot make a live firer's claim linger.
      unrecorded.append((claim, delivery))
      logger.error("delivered but could not record it yet: \(error)", metadata: Firer.metadata(claim))
    }
  }

  /// The store port throws untyped errors; the SQLite store's are `NotifyError` already.
  static func storeCall<T>(_ body: () throws -> T) throws(NotifyError) -> T {
    do {
      return try body()
    } catch let error as NotifyError {
      throw error
    } catch {
      throw NotifyError(.ioError, "the store failed: \(error)", fix: "check the store file and try again")
    }
  }

  private func recordUnrecorded() {
    let waiting = unrecorded
    unrecorded = []
    for (claim, delivery) in waiting { record(claim, delivery) }
  }
}

import Foundation
import Logging
import NotifyCore

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
    clock: any NotifyClock = SystemClock(), sounds: any SoundResolving = UncheckedSounds(),
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

  /// Claims the occurrences due now (at most `batchLimit`) and delivers them, checking
  /// `task` before each. `beforeEach` runs before every delivery (the daemon pings its
  /// watchdog there).
  public func fireBatch(task: BackgroundTask? = nil, beforeEach: () -> Void = {}) throws(NotifyError)
    -> BatchReport
  {
    var report = BatchReport()
    recordUnrecorded()
    if task?.checkExpiration() == true {
      report.stopped = true
      return report
    }
    let claims = try Firer.storeCall {
      try store.claimDue(
        now: clock.now(), localZone: clock.localZone, owner: identity, misfireGrace: options.misfireGrace,
        limit: options.batchLimit)
    }
    report.claimed = claims.count
    report.reachedLimit = claims.count >= options.batchLimit
    for (position, claim) in claims.enumerated() {
      if task?.checkExpiration() == true {
        let rest = Array(claims[position...])
        try Firer.storeCall { try store.release(rest) }
        report.released = rest.count
        report.stopped = true
        logger.notice("budget spent: gave back \(rest.count) unstarted deliveries for the next run")
        break
      }
      beforeEach()
      if deliver(claim) { report.delivered += 1 } else { report.failed += 1 }
    }
    return report
  }

  /// Hands one claimed occurrence to the sink, trying again on failure; records the
  /// outcome. Returns true when delivered.
  private func deliver(_ claim: Claim) -> Bool {
    let notification = claim.notification
    let metadata: Logger.Metadata = [
      LogKey.id: "\(notification.id)", LogKey.app: "\(notification.app)",
      LogKey.occurrence: "\(claim.occurrence + 1)",
    ]
    let sound = sounds.resolve(notification.sound, app: notification.app)
    var lastError = ""
    for attempt in 1...options.attempts {
      let now = clock.now()
      let delivery = Delivery(
        notification: notification, occurrence: claim.occurrence + 1, fireDate: claim.fireDate,
        deliveredAt: now,
        late: claim.late || now.timeIntervalSince(claim.fireDate) > Delivery.lateTolerance,
        sound: sound.effective, soundRequested: sound.requested, soundNote: sound.note, soundFile: sound.file)
      do {
        try sink.deliver(delivery)
      } catch {
        lastError = "\(error)"
        logger.warning(
          "the \(sink.name) sink refused a delivery (attempt \(attempt) of \(options.attempts)): \(lastError)",
          metadata: metadata)
        continue
      }
      record(claim, delivery)
      logger.info(
        "delivered\(delivery.late ? " late" : "")\(claim.coalesced > 0 ? " (for \(claim.coalesced + 1) occurrences)" : "")",
        metadata: metadata)
      return true
    }
    do {
      try store.markFailed(claim, reason: "\(sink.name) sink: \(lastError)", at: clock.now())
    } catch {
      logger.error("could not record a failed delivery: \(error)", metadata: metadata)
    }
    logger.error("delivery failed after \(options.attempts) attempts: \(lastError)", metadata: metadata)
    return false
  }

  private func record(_ claim: Claim, _ delivery: Delivery) {
    do {
      try store.markDelivered(claim, delivery: delivery)
    } catch {
      // Shown but not yet recorded: keep it and try again before the next batch, so a
      // busy store cannot make a live firer's claim linger.
      unrecorded.append((claim, delivery))
      logger.error(
        "delivered but could not record it yet: \(error)",
        metadata: [LogKey.id: "\(claim.notification.id)", LogKey.app: "\(claim.notification.app)"])
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

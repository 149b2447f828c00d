import Foundation
import Logging
import NotifyCore
import NotifySound
import NotifyZones

/// The one firing engine (SPEC.md §6), run by `notify daemon`, `notify fire-due` and apps
/// that fire in process: it carries out what `FiringStateMachine` decides — claim what is
/// due, hand it to the sink, record it, give back what was not started — against a
/// `FiringStore` and a `DeliverySink`. Drivers only decide when to call `wake`: the daemon
/// and an app's firing service from an sd-event loop (`FiringLoop`), `fire-due` and
/// `deliverDueNotifications` once, under a budget.
///
/// Everything due at one instant is handed over together and then recorded in one
/// transaction, so the last of a burst does not wait for the others' commits. Claims are
/// durable before the hand-off, and each hand-off is noted at once (`noteHandedOver`, one
/// `write(2)`), so a firer that dies before the record shows nothing twice: the next one
/// records what the notes list. Only a crash between the sink's write and the note can
/// repeat one delivery. A delivery the sink refuses is tried again (`Options.attempts` in all), then
/// recorded `failed` with the sink's reason. Not thread-safe: one wake-up at a time.
public final class Firer {
  /// Tuning for a firer.
  public struct Options: Sendable {
    /// Occurrences later than this are recorded `missed` instead of delivered; nil
    /// delivers every missed occurrence late.
    public var misfireGrace: TimeInterval?
    /// At most this many occurrences are claimed per claim transaction.
    public var batchLimit: Int
    /// How many times a delivery is tried before it is recorded `failed`.
    public var attempts: Int
    /// How long before its instant an occurrence is claimed, so that at the instant only
    /// the hand-off is left (the daemon: 10 ms; a run that exits: 0).
    public var claimAhead: TimeInterval
    /// Only this app's notifications (an app firing in process), or every app's (nil).
    public var app: String?
    /// How the app in the foreground wants each of its notifications presented (an app
    /// firing in process); nil presents everything fully.
    public var presentation: (@Sendable (LocalNotification) -> PresentationOptions)?
    /// Whether a click on a bubble can reach its app, asked once per app per claim batch
    /// (`Delivery.offersDefaultAction`); nil offers the default action everywhere.
    public var clickReach: (any ClickReachability)?

    /// Creates options.
    public init(
      misfireGrace: TimeInterval? = nil, batchLimit: Int = 64, attempts: Int = 3,
      claimAhead: TimeInterval = 0,
      app: String? = nil, presentation: (@Sendable (LocalNotification) -> PresentationOptions)? = nil,
      clickReach: (any ClickReachability)? = nil
    ) {
      self.presentation = presentation
      self.clickReach = clickReach
      self.misfireGrace = misfireGrace
      self.batchLimit = max(1, batchLimit)
      self.attempts = max(1, attempts)
      self.claimAhead = max(0, claimAhead)
      self.app = app
    }
  }

  /// What a wake-up or a run did.
  public struct BatchReport: Hashable, Sendable {
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
    /// Claimed occurrences given back unstarted because the budget ran out.
    public var released = 0
    /// True when the task expired before everything due was handed over.
    public var stopped = false
    /// True when a stop request (`Firer.isStopRequested`: a signal, `stop()`) cut the work
    /// short: what was not handed over is given back by the driver as it stops.
    public var interrupted = false
    /// The sink fault that halted the hand-overs, if one did; the claims not handed over
    /// went back to pending (counted in `released`).
    public var sinkFault: SinkFault?

    /// Creates an empty report.
    public init() {}

    /// Adds another report's counts.
    public mutating func add(_ other: BatchReport) {
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

  /// What one wake-up did, and when the firer wants to be woken next (nil: only when
  /// something changes).
  public struct Wake: Hashable, Sendable {
    /// What was done.
    public var report: BatchReport
    /// The instant to arm the timer for.
    public var next: Date?
  }

  /// The store claims are taken from.
  public let store: any FiringStore
  /// Where deliveries go.
  public let sink: any DeliverySink
  /// This firer, as claims name it.
  public let identity: FirerIdentity
  /// Tuning.
  public let options: Options
  /// Asked before every hand-off and between a delivery's attempts: true once the driver
  /// is stopping (SIGTERM, SIGINT, SIGHUP, `FiringLoop.stop()`). No new hand-off starts
  /// then; the one in flight ends within the sink's own timeout, and the claims left are
  /// given back (`giveBack`). Set by the driver before it runs the firer.
  public var isStopRequested: () -> Bool = { false }
  /// How long after a sink stalled (`SinkFault.stalled`) the firer asks to be woken to try
  /// again.
  public static let stalledSinkRetry: TimeInterval = 2
  /// How long after the store was too busy to record a release (what quiet hours held, shown
  /// when they ended) the firer asks to be woken to record it.
  public static let recordRetry: TimeInterval = 2

  let clock: any NotifyClock
  let sounds: any SoundResolving
  let logger: Logger
  private var machine: FiringStateMachine
  /// What each claim will be handed over with, worked out when it was claimed (file and
  /// store reads stay off the hand-off).
  private var prepared: [ClaimKey: Preparation] = [:]

  /// A claim's sound, the user's settings for its app, whether quiet hours hold it, and the
  /// store's state when it was claimed (`claimedAt`, `version`).
  struct Preparation {
    var sound: SoundResolution
    var settings: NotificationSettings
    var held: Bool
    var claimedAt: Date
    var version: StoreVersion?
    /// Whether a click reaches the claim's app (`ClickReachability`); nil: not asked.
    var reachesApp: Bool?
  }
  /// The store's last answer (issue 26), kept while nothing was committed since
  /// (`FiringStore.isUnchanged(since:)`) and the system zone is the one it was read in: a
  /// wake-up on the firer's own timer then claims or hands over without reading first.
  private var outlook: (FiringOutlook, zone: String)?
  /// Deliveries handed over but not yet recorded because the store was busy.
  private var unrecorded: [HandOff] = []
  /// Held occurrences a release showed but could not record yet because the store was busy:
  /// still claimed by this firer, so no release takes them again (`Firer+QuietHours`).
  var unrecordedReleases: [ShownRelease] = []

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
    self.machine = FiringStateMachine(claimAhead: options.claimAhead)
  }

  /// Computes every wall-clock notification's next instant again in the zones as they are
  /// now: on start (the zone data may have changed while no firer ran) and when the zone
  /// watch sees the system zone or the zone files change. Returns how many moved.
  @discardableResult
  public func recomputeWallClock() throws(NotifyError) -> Int {
    try Firer.storeCall { try store.recomputeWallClockRows(zones: clock.zones) }
  }

  /// The earliest instant anything of this firer's apps is due (abandoned claims included).
  public func nextFireDate() throws(NotifyError) -> Date? {
    try Firer.storeCall { try store.nextFireDate(zones: clock.zones, app: options.app) }
  }

  /// The next instant and how many fall due at it (the count matters only when claiming
  /// ahead).
  private func nextDue() throws(NotifyError) -> FiringStateMachine.NextDue? {
    guard let next = try currentOutlook().next else { return nil }
    return options.claimAhead > 0 ? next : .init(next.instant)
  }

  /// The store's outlook: the one kept from the last transaction while the store is
  /// unchanged since, otherwise read (one transaction).
  func currentOutlook() throws(NotifyError) -> FiringOutlook {
    let zones = clock.zones
    if let (kept, zone) = outlook, zone == zones.local.identifier, let version = kept.version,
      store.isUnchanged(since: version)
    {
      return kept
    }
    let read = try Firer.storeCall { try store.outlook(zones: zones, app: options.app) }
    keep(read)
    return read
  }

  /// Keeps `outlook` as the store's last answer (nil: none).
  private func keep(_ read: FiringOutlook?) {
    outlook = read.map { ($0, clock.zones.local.identifier) }
  }

  /// Another process committed to the store (the driver saw it: `changedByOthers`): what
  /// was kept of the store is read again, and claims are confirmed before their hand-off.
  public func storeChanged() {
    outlook = nil
    for key in prepared.keys { prepared[key]?.version = nil }
  }

  /// One wake-up: hands over what has come due, claims what falls due within
  /// `claimAhead`, and says when to wake next. `task` bounds the hand-overs: once it
  /// expires no further one starts, and the unstarted claims stay prepared for the next
  /// wake-up (which is due at once). `beforeEach` runs before every hand-over (the daemon
  /// pings its watchdog there).
  public func wake(task: BackgroundTask? = nil, beforeEach: () -> Void = {}) throws(NotifyError) -> Wake {
    var report = BatchReport()
    if isStopRequested() {
      report.interrupted = true
      return Wake(report: report, next: nil)
    }
    let stillHeld = releaseHeld(&report)
    var actions = machine.wake(now: clock.now())
    while !actions.isEmpty {
      switch actions.removeFirst() {
      case .readNext:
        actions += machine.nextRead(try nextDue(), now: clock.now())
      case .claim(let dueBy):
        let claims = try claim(dueBy: dueBy)
        report.claimed += claims.count
        actions = machine.claimed(claims, now: clock.now())
      case .handOver(let claims):
        let (done, unstarted, halt) = handOver(claims, task: task, beforeEach: beforeEach)
        report.add(done)
        switch halt {
        case nil:
          break
        case .budget:
          report.stopped = true
          actions = machine.budgetSpent(unstarted: unstarted, now: clock.now())
        case .stopRequested:
          // Kept prepared: the driver gives them back as it stops (`giveBack`).
          report.interrupted = true
          _ = machine.budgetSpent(unstarted: unstarted, now: clock.now())
          return Wake(report: report, next: nil)
        case .sinkFault(let fault):
          // Back to pending at once, so that another firer (with another sink) may take
          // them while this one's sink is stalled or gone.
          report.sinkFault = fault
          _ = machine.budgetSpent(unstarted: unstarted, now: clock.now())
          for case .giveBack(let claims) in machine.stop() {
            try release(claims)
            report.released += claims.count
          }
          let retry = fault.kind == .stalled ? clock.now() + Firer.stalledSinkRetry : nil
          return finished(report, next: retry, stillHeld: stillHeld)
        }
      case .giveBack(let claims):
        try release(claims)
        report.released += claims.count
      case .arm(let date):
        return finished(report, next: date, stillHeld: stillHeld)
      case .disarm:
        return finished(report, next: nil, stillHeld: stillHeld)
      }
    }
    return finished(report, next: nil, stillHeld: stillHeld)
  }

  /// A wake-up's result: the machine's `next` instant, or sooner when what quiet hours hold
  /// asks for a look when they end (held before and `stillHeld`, or held by this wake-up:
  /// issue 25, the wake that holds the first one must arm the end of quiet too), or a
  /// release the store could not record yet asks to be recorded.
  private func finished(_ report: BatchReport, next: Date?, stillHeld: Bool) -> Wake {
    let release = releaseDeadline(holding: stillHeld || report.held > 0)
    let retry = unrecordedReleases.isEmpty ? nil : clock.now() + Firer.recordRetry
    return Wake(report: report, next: [next, release, retry].compactMap { $0 }.min())
  }

  /// Gives back every claim not handed over yet (on stop, or at the end of a run).
  /// Returns how many went back.
  @discardableResult
  public func giveBack() throws(NotifyError) -> Int {
    var released = 0
    for case .giveBack(let claims) in machine.stop() {
      try release(claims)
      released += claims.count
    }
    // What is still unrecorded keeps its journal lines: the next firer records it.
    recordUnrecordedReleases()
    store.endHandOffs(owner: identity)
    return released
  }

  /// Fires what is due now, once, under `task` (what `fire-due` and an app's
  /// `deliverDueNotifications` do): wakes until nothing more is due or the task expired,
  /// then gives back what was not handed over.
  public func fireBatch(task: BackgroundTask? = nil) throws(NotifyError) -> BatchReport {
    var total = BatchReport()
    if task?.checkExpiration() == true {
      total.stopped = true
      return total
    }
    while true {
      let wake = try wake(task: task)
      total.add(wake.report)
      // Nothing claimed: what is still due belongs to a live firer (or a millisecond away).
      guard !total.stopped, !total.interrupted, total.sinkFault == nil, wake.report.claimed > 0,
        let next = wake.next, next <= clock.now()
      else { break }
    }
    let released = try giveBack()
    total.released += released
    if released > 0 {
      let why = total.interrupted ? "stopping" : total.sinkFault != nil ? "the sink failed" : "budget spent"
      logger.notice("\(why): gave back \(released) unstarted deliveries for the next run")
    }
    return total
  }

  // MARK: - Carrying out the machine's actions

  private func claim(dueBy instant: Date) throws(NotifyError) -> [Claim] {
    recordUnrecorded()
    let batch = try Firer.storeCall {
      try store.claimBatch(
        now: instant, zones: clock.zones, owner: identity, misfireGrace: options.misfireGrace,
        limit: options.batchLimit, app: options.app)
    }
    if let read = batch.outlook { keep(read) }
    prepare(
      batch.claims, settings: batch.settings, quiet: batch.quiet, reach: batch.reach, version: batch.version)
    return batch.claims
  }

  /// Works out how each claim will be handed over (`Preparation`), with the settings and
  /// quiet hours the claim read (or reading them when it did not).
  private func prepare(
    _ claims: [Claim], settings read: [String: NotificationSettings]? = nil,
    quiet readQuiet: QuietHours? = nil, reach: [String: AppReach]? = nil,
    version: StoreVersion? = nil
  ) {
    guard !claims.isEmpty else { return }
    // Unreadable settings or quiet hours show the notification: nothing is held back by a
    // read error.
    let now = clock.now()
    let quietHours = readQuiet ?? (try? store.quietHours())
    let quiet = quietHours?.isQuiet(at: now, in: clock.zones.local) ?? false
    var settings: [String: NotificationSettings] = read ?? [:]
    var reaches: [String: Bool] = [:]
    for app in Set(claims.map(\.notification.app)) {
      if settings[app] == nil { settings[app] = (try? store.settingsInForce(app: app)) ?? .allowAll }
      // Once per app per batch, off the hand-off: the sink only reads the answer.
      reaches[app] = options.clickReach?.reaches(app: app, known: reach?[app])
    }
    for claim in claims {
      let allowed = settings[claim.notification.app] ?? .allowAll
      prepared[ClaimKey(claim)] = Preparation(
        sound: sounds.resolve(claim.notification), settings: allowed,
        held: QuietRelease.holds(claim.notification, quiet: quiet, settings: allowed), claimedAt: now,
        version: version, reachesApp: reaches[claim.notification.app])
    }
  }

  /// Whether `claim` must be confirmed with the store before its hand-off (`keepClaim`):
  /// unless nothing was committed since this firer claimed it, a moment ago (younger than
  /// `ClaimLease.renewAfter`), when nobody can have cancelled or taken it over.
  private func mustConfirm(_ claim: Claim) -> Bool {
    guard let preparation = prepared[ClaimKey(claim)], let version = preparation.version else { return true }
    return clock.now().timeIntervalSince(preparation.claimedAt) > ClaimLease.renewAfter
      || !store.isUnchanged(since: version)
  }

  /// Why a burst's hand-overs stopped before its end.
  private enum Halt {
    /// The task's budget ran out.
    case budget
    /// The driver is stopping.
    case stopRequested
    /// The sink cannot take deliveries now (stalled) or any more (gone).
    case sinkFault(SinkFault)
  }

  /// Hands `claims` over in order, checking `task` and the stop request before each, then
  /// records the ones the sink took in one transaction. Returns what was done, the claims
  /// not started and why they were not.
  private func handOver(_ claims: [Claim], task: BackgroundTask?, beforeEach: () -> Void)
    -> (report: BatchReport, unstarted: [Claim], halt: Halt?)
  {
    var report = BatchReport()
    var handed: [HandOff] = []
    var unstarted: [Claim] = []
    var halt: Halt?
    for (position, claim) in claims.enumerated() {
      if task?.checkExpiration() == true {
        (unstarted, halt) = (Array(claims[position...]), .budget)
        break
      }
      if isStopRequested() {
        (unstarted, halt) = (Array(claims[position...]), .stopRequested)
        break
      }
      beforeEach()
      // A claim the user cancelled, or another firer took over past its lease while this one
      // was stopped, is no longer this firer's to hand over (`ClaimLease`). A store that
      // cannot be read does not hold the delivery back.
      if mustConfirm(claim), (try? store.keepClaim(claim, owner: identity, now: clock.now())) == false {
        prepared[ClaimKey(claim)] = nil
        logger.notice(
          "not handed over: the claim was cancelled or taken over by another firer",
          metadata: Firer.metadata(claim))
        continue
      }
      if prepared[ClaimKey(claim)] == nil { prepare([claim]) }
      guard let preparation = prepared[ClaimKey(claim)] else { continue }
      let outcome = deliver(claim, preparation)
      if case .notStarted(let why) = outcome {
        // Still prepared: it goes back with the rest.
        (unstarted, halt) = (Array(claims[position...]), why)
        break
      }
      prepared[ClaimKey(claim)] = nil
      if case .delivered(let delivery, let receipt) = outcome {
        let handOff = HandOff(claim: claim, delivery: delivery, receipt: receipt)
        if delivery.held {
          // Nothing was shown: no hand-off note. A crash before it is recorded leaves the
          // claim to be taken over and decided again.
          handed.append(handOff)
          report.held += 1
          continue
        }
        do {
          // One write(2): from here on a crash cannot show it again (SPEC.md §6).
          try store.noteHandedOver(handOff, owner: identity)
          handed.append(handOff)
        } catch {
          logger.warning("could not note a hand-off; recording it at once instead: \(error)")
          record([handOff])
        }
        report.delivered += 1
      } else {
        report.failed += 1
      }
    }
    // A reader woken by the sink (a pipe's reader, the notification server) is usually put
    // on this CPU, the kernel expecting the writer to sleep next; recording, logging and
    // re-arming would keep it waiting for about a millisecond. Yield once, after the whole
    // burst: when nothing else wants this CPU, it returns at once. (BENCHMARKS.md, Fire
    // latency: what the extra millisecond is.)
    if !handed.isEmpty { sched_yield() }
    record(handed)
    // Logged once the burst is handed over and recorded: a log line is no reason for the
    // next hand-off to wait.
    for handOff in handed {
      if handOff.delivery.held {
        logger.info("held for quiet hours", metadata: Firer.metadata(handOff.claim))
        continue
      }
      logger.info(
        "delivered\(handOff.delivery.late ? " late" : "")\(handOff.claim.coalesced > 0 ? " (standing for \(handOff.claim.coalesced + 1) occurrences)" : "")",
        metadata: Firer.metadata(handOff.claim))
    }
    return (report, unstarted, halt)
  }

  /// Gives claims back to the store, unstarted.
  private func release(_ claims: [Claim]) throws(NotifyError) {
    guard !claims.isEmpty else { return }
    for claim in claims { prepared[ClaimKey(claim)] = nil }
    try Firer.storeCall { try store.release(claims) }
  }

  /// What became of one claimed occurrence.
  private enum Outcome {
    /// Handed to the sink (or held for quiet hours), and what the sink answered.
    case delivered(Delivery, DeliveryReceipt = DeliveryReceipt())
    /// Refused on every attempt and recorded `failed`.
    case failed
    /// Not shown, and not the notification's fault: it goes back with the rest.
    case notStarted(Halt)
  }

  /// Hands one claimed occurrence to the sink, trying again on failure; a delivery that
  /// never gets through is recorded `failed`. A sink fault (`SinkFault`) or a stop request
  /// between attempts leaves it unstarted instead: nothing is recorded `failed` because a
  /// reader went away or the firer was stopped. Nothing but the delivery value is built
  /// before the sink call: that is the latency that counts.
  private func deliver(_ claim: Claim, _ preparation: Preparation) -> Outcome {
    var lastError = ""
    for attempt in 1...options.attempts {
      if attempt > 1, isStopRequested() { return .notStarted(.stopRequested) }
      let now = clock.now()
      var delivery = Delivery(
        notification: claim.notification, occurrence: claim.occurrence + 1, fireDate: claim.fireDate,
        deliveredAt: now,
        late: claim.late || now.timeIntervalSince(claim.fireDate) > Delivery.lateTolerance)
      delivery.apply(preparation.sound)
      delivery.replacing = claim.bubble
      if let reached = preparation.reachesApp {
        delivery.offersDefaultAction = ClickRoute.defaultActionReaches(
          claim.notification, appReached: reached)
      }
      if let presentation = options.presentation { delivery.presentation = presentation(claim.notification) }
      delivery.apply(preparation.settings)
      if preparation.held {
        delivery.held = true
        return .delivered(delivery)
      }
      let receipt: DeliveryReceipt
      do {
        receipt = try sink.deliver(delivery)
        delivery.note = receipt.note
      } catch let fault as SinkFault {
        return .notStarted(.sinkFault(fault))
      } catch let error as NotifyError where error.mayHaveBeenShown {
        // Not tried again: the server may show it (SPEC.md §6: never twice).
        delivery.note = error.description
        logger.warning("\(error)", metadata: Firer.metadata(claim))
        return .delivered(delivery)
      } catch {
        lastError = "\(error)"
        logger.warning(
          "the \(sink.name) sink refused a delivery (attempt \(attempt) of \(options.attempts)): \(lastError)",
          metadata: Firer.metadata(claim))
        continue
      }
      return .delivered(delivery, receipt)
    }
    do {
      try store.markFailed(claim, reason: "\(sink.name) sink: \(lastError)", at: clock.now())
    } catch {
      logger.error("could not record a failed delivery: \(error)", metadata: Firer.metadata(claim))
    }
    logger.error(
      "delivery failed after \(options.attempts) attempts: \(lastError)", metadata: Firer.metadata(claim))
    return .failed
  }

  private func record(_ handOffs: [HandOff]) {
    guard !handOffs.isEmpty else { return }
    do {
      keep(try store.markDelivered(handOffs, zones: clock.zones, app: options.app))
    } catch {
      // Shown but not yet recorded: keep them and try again before the next claim, so a
      // busy store cannot make a live firer's claims linger.
      unrecorded += handOffs
      logger.error("delivered \(handOffs.count) but could not record them yet: \(error)")
    }
  }

  private func recordUnrecorded() {
    let waiting = unrecorded
    unrecorded = []
    record(waiting)
  }

  /// Log fields naming an occurrence: id, app, occurrence; never the body or userInfo.
  static func metadata(_ claim: Claim) -> Logger.Metadata {
    [
      LogKey.id: "\(claim.notification.id)", LogKey.app: "\(claim.notification.app)",
      LogKey.occurrence: "\(claim.occurrence + 1)",
    ]
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
}

/// A claimed occurrence's identity.
private struct ClaimKey: Hashable {
  let rowID: Int64
  let occurrence: Int
  init(_ claim: Claim) {
    rowID = claim.rowID
    occurrence = claim.occurrence
  }
}

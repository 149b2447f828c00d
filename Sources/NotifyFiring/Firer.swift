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
  /// given back (`giveBack`). Given at init by a driver that runs the firer once
  /// (`notify fire-due`); a loop sets its own while it runs.
  public var isStopRequested: () -> Bool
  /// What this firer can do to wake the machine (`WakeAbility`), as its driver found it
  /// before making it: a delivery of a waking notification records it (`detail.wake`).
  /// An app's firer learns it when its firing service starts (`FiringEngine.app`).
  public var wakeAbility: WakeAbility
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

  /// The store's last answer, kept while nothing was committed since
  /// (`FiringStore.isUnchanged(since:)`) and the system zone is the one it was read in: a
  /// wake-up on the firer's own timer then claims or hands over without reading first.
  private var outlook: (FiringOutlook, zone: String)?
  /// Hand-offs recorded on their own because their note could not be written, left out of
  /// their burst's record.
  private var recordedEarly: Set<ClaimKey> = []
  /// Deliveries handed over but not yet recorded because the store was busy.
  private var unrecorded: [HandOff] = []
  /// The bubble each thread shows after this firer's last hand-off of it, and when that was
  /// recorded (nil: not yet). A claim read before that record (a burst's, one claimed ahead)
  /// replaces this bubble rather than the one it read (`ThreadSummary`). Recorded ones go
  /// once no claim is outstanding.
  private var threadBubbles: [ThreadKey: (bubble: ThreadBubble, recordedAt: Date?)] = [:]
  /// Held occurrences a release showed but could not record yet because the store was busy:
  /// still claimed by this firer, so no release takes them again (`Firer+QuietHours`).
  var unrecordedReleases: [ShownRelease] = []
  /// What the claims of this wake-up recorded missed, for the catch-up's summary
  /// (`MissedSummary`).
  private var missedInWake: [HistoryEvent] = []

  /// Creates a firer.
  public init(
    store: any FiringStore, sink: any DeliverySink, identity: FirerIdentity,
    clock: any NotifyClock = SystemClock(), sounds: any SoundResolving = LibrarySounds(),
    logger: Logger = Logger(label: "notify.firing"), wakeAbility: WakeAbility = .unknown,
    isStopRequested: @escaping () -> Bool = { false }, options: Options = Options()
  ) {
    self.wakeAbility = wakeAbility
    self.isStopRequested = isStopRequested
    self.store = store
    self.sink = sink
    self.identity = identity
    self.clock = clock
    self.sounds = sounds
    self.logger = logger
    self.options = options
    self.machine = FiringStateMachine(
      claimAhead: options.claimAhead, handOverLead: options.handOverLead,
      handsOverBursts: (sink as? any BurstSink)?.showsBursts == true,
      attempts: options.attempts, stalledRetry: Firer.stalledSinkRetry)
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
  ///
  /// The machine decides; this carries out its actions one by one and reports each
  /// result back, until it says to sleep.
  public func wake(task: BackgroundTask? = nil, beforeEach: () -> Void = {}) throws(NotifyError) -> Wake {
    var released = BatchReport()
    if isStopRequested() {
      released.interrupted = true
      return Wake(report: released, next: nil)
    }
    let stillHeld = releaseHeld(&released)
    do {
      var action = machine.wake(now: clock.now(), next: try nextDue())
      while true {
        switch action {
        case .claim(let dueBy):
          let claims = try claim(dueBy: dueBy)
          action = machine.claimed(claims, now: clock.now(), next: try nextDue())
        case .handOver(let claim, let attempt):
          if task?.checkExpiration() == true {
            action = machine.interrupted(.budget, now: clock.now())
          } else if isStopRequested() {
            action = machine.interrupted(.stop, now: clock.now())
          } else {
            if attempt == 1 { beforeEach() }
            action = machine.handedOver(handOver(claim, attempt: attempt), now: clock.now())
          }
        case .handOverBurst(let claims):
          if task?.checkExpiration() == true {
            action = machine.interrupted(.budget, now: clock.now())
          } else if isStopRequested() {
            action = machine.interrupted(.stop, now: clock.now())
          } else if let burstSink = sink as? any BurstSink {
            beforeEach()
            action = machine.handedOverBurst(handOverBurst(claims, to: burstSink), now: clock.now())
          } else {
            preconditionFailure("a burst for a sink that shows one delivery at a time")
          }
        case .markFailed(let claim, let reason):
          markFailed(claim, reason: reason)
          action = machine.markedFailed(now: clock.now())
        case .record(let handOffs):
          record(handOffs)
          action = machine.recorded(now: clock.now(), next: try nextDue())
        case .giveBack(let claims):
          try release(claims)
          action = machine.gaveBack(now: clock.now())
        case .sleep(let until):
          var report = machine.takeReport()
          report.add(released)
          if let fault = report.sinkFault {
            logger.warning("\(fault); gave back \(report.released) unstarted deliveries")
          }
          // A stopping firer's claims go back as the driver stops (`giveBack`).
          if report.interrupted {
            missedInWake = []
            return Wake(report: report, next: nil, holdsWork: holdsWork)
          }
          summarizeMissed()
          return finished(report, next: until, stillHeld: stillHeld)
        }
      }
    } catch {
      machine.failed()
      throw error
    }
  }

  /// A wake-up's result: the machine's `next` instant, or sooner when what quiet hours hold
  /// asks for a look when they end (held before and `stillHeld`, or held by this wake-up:
  /// the wake that holds the first one must arm the end of quiet too, or quiet hours that
  /// end by themselves would keep it held until something else woke the firer), or a
  /// release the store could not record yet asks to be recorded.
  private func finished(_ report: BatchReport, next: Date?, stillHeld: Bool) -> Wake {
    let release = releaseDeadline(holding: stillHeld || report.held > 0)
    let retry = unrecordedReleases.isEmpty ? nil : clock.now() + Firer.recordRetry
    return Wake(
      report: report, next: [next, release, retry].compactMap { $0 }.min(), wake: outlook?.0.wake,
      holdsWork: holdsWork)
  }

  /// Whether claims are in hand: claimed and not yet handed over, or handed over and not
  /// yet recorded.
  public var holdsWork: Bool {
    !machine.prepared.isEmpty || !unrecorded.isEmpty || !unrecordedReleases.isEmpty
  }

  /// Shows one summary per app of what this wake-up's claims recorded missed, when an app
  /// missed several (`MissedSummary`): after a sleep or a boot, the user hears once what
  /// went by, not once per notification. A summary the sink does not take is in history
  /// only (the missed events are there either way).
  private func summarizeMissed() {
    let missed = missedInWake
    missedInWake = []
    guard missed.count >= MissedSummary.threshold, !isStopRequested() else { return }
    let now = clock.now()
    for summary in MissedSummary.plan(
      missed, at: now,
      makeID: { _ in
        "missed-" + String(UInt64.random(in: 0..<(1 << 48)), radix: 16)
      })
    {
      do {
        _ = try present(summary)
        logger.info(
          "showed a summary of \(missed.filter { $0.app == summary.app }.count) missed notifications",
          metadata: [LogKey.app: "\(summary.app)", LogKey.id: "\(summary.id)"])
      } catch {
        logger.warning(
          "could not show the summary of missed notifications: \(error)",
          metadata: [LogKey.app: "\(summary.app)"])
      }
    }
  }

  /// Gives back every claim not handed over yet (on stop, or at the end of a run).
  /// Returns how many went back.
  @discardableResult
  public func giveBack() throws(NotifyError) -> Int {
    let claims = machine.stop()
    _ = machine.takeReport()
    try release(claims)
    // What is still unrecorded keeps its journal lines: the next firer records it.
    recordUnrecordedReleases()
    store.endHandOffs(owner: identity)
    return claims.count
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
    missedInWake += batch.missed
    carryClaims(to: batch.version)
    prepare(
      batch.claims, settings: batch.settings, quiet: batch.quiet, reach: batch.reach,
      categories: batch.categories, version: batch.version)
    return batch.claims
  }

  /// Works out how each claim will be handed over (`Preparation`), with the settings and
  /// quiet hours the claim read (or reading them when it did not).
  private func prepare(
    _ claims: [Claim], settings read: [String: NotificationSettings]? = nil,
    quiet readQuiet: QuietHours? = nil, reach: [String: AppReach]? = nil,
    categories readCategories: [String: [NotificationCategory]]? = nil, version: StoreVersion? = nil
  ) {
    guard !claims.isEmpty else { return }
    let now = clock.now()
    let quiet = isQuiet(readQuiet, at: now)
    var settings: [String: NotificationSettings] = read ?? [:]
    var looks: [String: AppLook] = [:]
    for app in Set(claims.map(\.notification.app)) {
      if settings[app] == nil { settings[app] = settingsInForce(app: app) }
      // Once per app per batch, off the hand-off: the sink only reads the answer.
      looks[app] = options.clickReach?.look(app: app, known: reach?[app])
    }
    let categories = categories(for: claims.map(\.notification), known: readCategories)
    for claim in claims {
      let app = claim.notification.app
      prepared[ClaimKey(claim)] = preparation(
        claim.notification, settings: settings[app] ?? .allowAll, quiet: quiet, at: now, version: version,
        look: looks[app], categories: categories[app] ?? [NotificationCategory]())
    }
  }

  /// After one of the firer's own commits (a claim, a record) left the store at `version`:
  /// claims prepared at the mark that commit started from are still known to be this
  /// firer's (nobody committed in between), so they need no confirmation before their
  /// hand-off for having been followed by the firer's own commit (else a burst of 1000
  /// claimed 64 at a time would confirm all but the last batch, one read each).
  private func carryClaims(to version: StoreVersion?) {
    guard let version, version.since != nil else { return }
    // The keys first: changing `prepared` while iterating it would copy all of it.
    for key in Array(prepared.keys) {
      if let earlier = prepared[key]?.version, let carried = version.carried(from: earlier) {
        prepared[key]?.version = carried
      }
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

  /// Hands one claimed occurrence to the sink (`attempt` of `Options.attempts`) and says
  /// what became of it. Nothing but the delivery value is built before the sink call: that
  /// is the latency that counts.
  private func handOver(_ claim: Claim, attempt: Int) -> FiringStateMachine.HandOffResult {
    withHandOffLock({ try store.beginHandOff([claim], owner: identity) }) {
      handOverLocked(claim, attempt: attempt)
    }
  }

  /// Runs `body`, a hand-off from its confirmation to its note, holding the store's
  /// hand-off lock `begin` takes: a cancel under way finishes first (and then shows in the
  /// confirmation); one arriving later leaves the occurrence to this firer
  /// (`FiringStore.beginHandOff`). A journal that cannot be opened does not hold the
  /// hand-off back.
  func withHandOffLock<T>(_ begin: () throws -> Void, _ body: () -> T) -> T {
    let locked = (try? begin()) != nil
    defer { if locked { store.finishHandOff(owner: identity) } }
    return body()
  }

  /// A claim about to be handed over, confirmed and built.
  private enum Staged {
    /// No longer this firer's: skipped.
    case lost
    /// Quiet hours hold it: nothing to show.
    case held(HandOff)
    /// To be shown, not before `gate`.
    case ready(Delivery, gate: DeliveryGate)
  }

  /// Confirms `claim` (unless nothing can have changed since it was claimed) and builds its
  /// delivery. A claim handed over ahead of its instant (`handOverLead`) is delivered at the
  /// instant: its gate opens then, and it says so.
  private func stage(_ claim: Claim) -> Staged {
    let key = ClaimKey(claim)
    // A claim the user cancelled, or another firer took over past its lease while this one
    // was stopped, is no longer this firer's to hand over (`ClaimLease`). Asked before every
    // attempt: a retry comes after the lock was given back. A store that cannot be read does
    // not hold the delivery back.
    if mustConfirm(claim),
      (try? store.keepClaim(claim, owner: identity, now: clock.now())) == false
    {
      prepared[key] = nil
      logger.notice(
        "not handed over: the claim was cancelled or taken over by another firer",
        metadata: Firer.metadata(claim))
      return .lost
    }
    if prepared[key] == nil { prepare([claim]) }
    let now = clock.now()
    let early = claim.fireDate > now
    let delivery = delivery(
      claim.notification, occurrence: claim.occurrence + 1, fireDate: claim.fireDate,
      late: claim.late || now.timeIntervalSince(claim.fireDate) > Delivery.lateTolerance,
      at: early ? claim.fireDate : now,
      replacing: claim.bubble, thread: threadBubble(ThreadKey(claim.notification), for: claim),
      prepared[key]
        ?? preparation(claim.notification, settings: .allowAll, quiet: false, at: now, version: nil))
    if delivery.held {
      // Nothing was shown: no hand-off note. A crash before it is recorded leaves the claim
      // to be taken over and decided again.
      prepared[key] = nil
      return .held(HandOff(claim: claim, delivery: delivery))
    }
    return .ready(delivery, gate: early ? DeliveryGate(claim.fireDate, clock: clock) : .open)
  }

  private func handOverLocked(_ claim: Claim, attempt: Int) -> FiringStateMachine.HandOffResult {
    let (delivery, gate): (Delivery, DeliveryGate)
    switch stage(claim) {
    case .lost: return .lost
    case .held(let handOff): return .held(handOff)
    case .ready(let staged, let stagedGate): (delivery, gate) = (staged, stagedGate)
    }
    let result = result(of: hand(delivery, after: gate), for: claim, attempt: attempt)
    if case .taken(let handOff) = result { note([handOff]) }
    return result
  }

  /// Hands a burst due at one instant to a sink that shows it with one call (`BurstSink`):
  /// every claim confirmed and built first, the burst handed over, what the sink took noted
  /// in one write. One result per claim, in order; fewer when the sink stopped at a fault.
  private func handOverBurst(_ claims: [Claim], to sink: any BurstSink) -> [FiringStateMachine.HandOffResult]
  {
    withHandOffLock({ try store.beginHandOff(claims, owner: identity) }) {
      var results: [FiringStateMachine.HandOffResult?] = []
      var shown: [(index: Int, delivery: Delivery)] = []
      for claim in claims {
        switch stage(claim) {
        case .lost: results.append(.lost)
        case .held(let handOff): results.append(.held(handOff))
        case .ready(let delivery, _):
          results.append(nil)
          shown.append((results.count - 1, delivery))
        }
      }
      let instant = claims.map(\.fireDate).max() ?? .distantPast
      let gate = instant > clock.now() ? DeliveryGate(instant, clock: clock) : .open
      let answers = sink.deliver(burst: shown.map(\.delivery), after: gate)
      var tried = claims.count
      for (position, (index, delivery)) in shown.enumerated() {
        guard position < answers.count else {
          // Stopped at a fault: the claims after it were not tried. A sink that answered
          // fewer without one is taken as having refused the rest.
          if case .failure(let error)? = answers.last, error is SinkFault {
            tried = index
            break
          }
          results[index] = .refused("\(sink.name) sink: it gave no answer")
          continue
        }
        results[index] = result(
          of: self.answer(answers[position], to: delivery), for: claims[index], attempt: 1)
      }
      note(results.compactMap { if case .taken(let handOff)? = $0 { handOff } else { nil } })
      return results.prefix(tried).map { $0 ?? .lost }
    }
  }

  /// What the sink's answer to `claim`'s delivery means for it.
  private func result(of answer: SinkAnswer, for claim: Claim, attempt: Int)
    -> FiringStateMachine.HandOffResult
  {
    switch answer {
    case .taken(let shown, _), .uncertain(let shown, _):
      options.handedOver?(shown)
      prepared[ClaimKey(claim)] = nil
      var receipt = DeliveryReceipt(note: shown.note)
      if case .taken(_, let taken) = answer { receipt = taken }
      if let thread = ThreadKey(claim.notification),
        let next = ThreadSummary.after(shown.thread, id: shown.notification.id, shownAs: receipt.bubble)
      {
        threadBubbles[thread] = (next, nil)
      }
      return .taken(HandOff(claim: claim, delivery: shown, receipt: receipt))
    case .fault(let fault):
      return .fault(fault)
    case .refused(let error):
      let reason = "\(error)"
      logger.warning(
        "the \(sink.name) sink refused a delivery (attempt \(attempt) of \(options.attempts)): \(reason)",
        metadata: Firer.metadata(claim))
      return .refused("\(sink.name) sink: \(reason)")
    }
  }

  /// Notes hand-offs in one write(2): from here on a crash cannot show them again (SPEC.md
  /// §6). Ones that cannot be noted are recorded at once instead.
  private func note(_ handOffs: [HandOff]) {
    guard !handOffs.isEmpty else { return }
    do {
      try store.noteHandedOver(handOffs, owner: identity)
    } catch {
      logger.warning("could not note a hand-off; recording it at once instead: \(error)")
      record(handOffs)
      for handOff in handOffs { recordedEarly.insert(ClaimKey(handOff.claim)) }
    }
  }

  /// Records a claim refused on every attempt as `failed`.
  private func markFailed(_ claim: Claim, reason: String) {
    prepared[ClaimKey(claim)] = nil
    do {
      try store.markFailed(claim, reason: reason, at: clock.now())
    } catch {
      logger.error("could not record a failed delivery: \(error)", metadata: Firer.metadata(claim))
    }
    logger.error(
      "delivery failed after \(options.attempts) attempts: \(reason)", metadata: Firer.metadata(claim))
  }

  /// Gives claims back to the store, unstarted.
  private func release(_ claims: [Claim]) throws(NotifyError) {
    guard !claims.isEmpty else { return }
    for claim in claims { prepared[ClaimKey(claim)] = nil }
    try Firer.storeCall { try store.release(claims) }
  }

  /// Records a burst in one transaction, then logs it. A reader woken by the sink (a pipe's
  /// reader, the notification server) is usually put on this CPU, the kernel expecting the
  /// writer to sleep next; recording, logging and re-arming would keep it waiting for about
  /// a millisecond. Yield once, after the whole burst: when nothing else wants this CPU, it
  /// returns at once.
  private func record(_ burst: [HandOff]) {
    var handOffs = burst
    if !recordedEarly.isEmpty {
      handOffs.removeAll { recordedEarly.remove(ClaimKey($0.claim)) != nil }
    }
    guard !handOffs.isEmpty else { return }
    if handOffs.contains(where: { !$0.delivery.held }) { sched_yield() }
    markDelivered(handOffs)
    // Logged once the burst is handed over and recorded: a log line is no reason for the
    // next hand-off to wait.
    for handOff in handOffs {
      if handOff.delivery.held {
        logger.info("held for quiet hours", metadata: Firer.metadata(handOff.claim))
        continue
      }
      logger.info(
        "delivered\(handOff.delivery.late ? " late" : "")\(handOff.claim.coalesced > 0 ? " (standing for \(handOff.claim.coalesced + 1) occurrences)" : "")",
        metadata: Firer.metadata(handOff.claim))
    }
  }

  private func recordUnrecorded() {
    let waiting = unrecorded
    unrecorded = []
    markDelivered(waiting)
  }

  /// Records hand-offs as delivered in one transaction and keeps the outlook it read. Shown
  /// but not yet recorded when the store refuses: kept and tried again before the next
  /// claim, so a busy store cannot make a live firer's claims linger.
  private func markDelivered(_ handOffs: [HandOff]) {
    guard !handOffs.isEmpty else { return }
    do {
      let read = try store.markDelivered(handOffs, zones: clock.zones, app: options.app)
      noteThreadsRecorded()
      keep(read)
      carryClaims(to: read?.version)
    } catch {
      unrecorded += handOffs
      logger.error("delivered \(handOffs.count) but could not record them yet: \(error)")
    }
  }

  /// The bubble `thread` shows as `claim` is handed over: this firer's last one of it,
  /// unless that was recorded before the claim read the store (then the claim's is as new).
  private func threadBubble(_ thread: ThreadKey?, for claim: Claim) -> ThreadBubble? {
    guard let thread, let (bubble, recordedAt) = threadBubbles[thread] else { return claim.thread }
    guard let recordedAt, let claimedAt = prepared[ClaimKey(claim)]?.claimedAt, recordedAt < claimedAt else {
      return bubble
    }
    return claim.thread
  }

  /// The threads' bubbles shown so far are recorded: claims read from now on know them.
  private func noteThreadsRecorded() {
    guard unrecorded.isEmpty else { return }
    let now = clock.now()
    if prepared.isEmpty { threadBubbles = threadBubbles.filter { $0.value.recordedAt == nil } }
    for key in threadBubbles.keys where threadBubbles[key]?.recordedAt == nil {
      threadBubbles[key]?.recordedAt = now
    }
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

/// An app's thread, whose bubble the firer follows across a burst (and a release across
/// its steps).
struct ThreadKey: Hashable {
  let app: String
  let thread: String

  /// The thread of `notification`, nil when it has none.
  init?(_ notification: LocalNotification) {
    guard let thread = notification.threadIdentifier else { return nil }
    app = notification.app
    self.thread = thread
  }
}

import CSystemd
import Foundation
import Glibc
import Logging
import NotifyCore
import NotifyZones
import Synchronization

/// The sd-event driver of the firing engine, run by `notify daemon` (every app) and by an
/// app's firing service (its own app, on a thread of its own): one loop with one
/// `CLOCK_REALTIME` timer armed for the instant the `Firer` asks for.
///
/// It sleeps otherwise: no polling, no wake-up while nothing is due. Every trigger calls
/// `Firer.wake` and re-arms: the timer; another process's commit to the store (inotify on
/// the store's folder, filtered by `PRAGMA data_version` so the loop's own commits do not
/// wake it); the wall clock being set or the machine resuming (a cancel-on-set timerfd);
/// the system time zone changing (`/etc/localtime`). Dead firers' claims are part of the
/// store's next instant, so they wake it too. Each wake-up's hand-overs run under a
/// `BackgroundTask` budget; the desktop sink's signals are dispatched on the same loop.
///
/// ```swift
/// let loop = FiringLoop(firer: firer, configuration: .init(storePath: path, handlesSignals: false))
/// try await loop.run()   // until the task is cancelled
/// ```
public final class FiringLoop: @unchecked Sendable {
  // Safe: the loop's own state is touched only on the loop's thread; what other threads
  // reach (`stop`, `nudge`, `isReady`) is in `control`, a `Mutex` inside.

  /// How the loop is set up.
  public struct Configuration: Sendable {
    /// The store file; its folder is watched for other processes' changes.
    public var storePath: String?
    /// The budget of each wake-up's hand-overs.
    public var batchBudget: TimeInterval
    /// Whether SIGTERM, SIGINT and SIGHUP stop the loop (`StopSignals`; a command does; an
    /// app embedding the loop keeps its own signal handling and calls `stop()`).
    public var handlesSignals: Bool
    /// How long to wait before trying again when the store cannot be read.
    public var retryDelay: TimeInterval
    /// Whether the loop fires at all (false: it only dispatches the desktop's signals).
    public var fires: Bool
    /// How long a sleep must be for the loop to count as going idle (`onIdle`).
    public var idleDelay: TimeInterval = 30
    /// The least time between two runs of `onIdle` (`IdlePacing`).
    public var idleSpacing: TimeInterval = 1

    /// Creates a configuration.
    public init(
      storePath: String?, batchBudget: TimeInterval = 10, handlesSignals: Bool = true,
      retryDelay: TimeInterval = 1, fires: Bool = true
    ) {
      self.storePath = storePath
      self.batchBudget = batchBudget
      self.handlesSignals = handlesSignals
      self.retryDelay = retryDelay
      self.fires = fires
    }
  }

  /// How long before its instant the loop's firer should claim an occurrence (its
  /// `Firer.Options.claimAhead`), so that at the instant only the hand-off is left.
  public static let claimAhead: TimeInterval = 0.01

  /// How long before its instant the loop's firer hands an occurrence to its sink
  /// (`Firer.Options.handOverLead`): the wake-up, the claim's confirmation and the line or
  /// message are done by the instant, and the sink waits for it (`DeliveryGate`), so that
  /// what is left at the instant is the one call that shows it. The loop's thread sleeps
  /// for what remains of it (under a millisecond) instead of waiting on its sources.
  public static let handOverLead: TimeInterval = 0.001

  /// True while a wake-up's `onWake` runs when another process committed to the store
  /// since the last wake-up (always on the first).
  var storeChangedByOthers = true

  /// What the assembly runs around the wake-ups (`FiringLoopHooks`), on the loop's thread.
  let hooks: FiringLoopHooks
  /// The companions that started.
  private var started: [any FiringLoopCompanion] = []
  /// What the firer did in the current wake-up, for `onWake`.
  private var lastReport: FiringReport?

  let firer: Firer
  let clock: any NotifyClock
  let configuration: Configuration
  let notifier: ServiceNotifier
  let logger: Logger
  let pendingCount: (() throws -> Int)?
  private let attached: (any LoopAttachable)?
  private let owner: SinkOwner?

  /// What other threads reach: stop, nudge, ready (a `Mutex` inside).
  public let control: FiringLoopControl
  /// Why the loop ended, when it was not a stop: the sink is gone for good.
  private var failure: NotifyError?
  /// The sink fault last logged, so that a stalled sink is logged once, not every retry.
  private var loggedFault: SinkFault?

  // Loop-thread state.
  var loop: EventLoop?
  private var timer: EventSource?
  private var wakeSource: EventSource?
  private var zoneDataWatch: ZoneDataWatch?
  /// The timer of an `onIdle` put off by `idlePacing`.
  private var idleTimer: EventSource?
  private var idlePacing: IdlePacing
  /// The instant the firer asked to wake at last, nil when nothing is due.
  private var nextInstant: Date?
  /// Set when the zones may have changed since wall-clock rows were computed; true at
  /// start, since the zone data may have changed while no firer ran.
  private var zonesMoved = true
  var lastStatus = ""
  var lastWatchdogPing = Date.distantPast
  let watchdogInterval: TimeInterval?

  /// Creates a loop around `firer`. `pendingCount` feeds the service status line.
  /// `attached` (the desktop sink) dispatches its own events on the loop, so that
  /// activations and dismissals arrive while it sleeps. `owner`, when other threads share
  /// the firer and the sinks (an app), is the executor they send their work to: the loop
  /// runs as its job, and runs the jobs sent meanwhile between two dispatches. `control` is
  /// how other threads stop and nudge it (made first when what is built before the loop
  /// needs to nudge it); `hooks` is what runs around its wake-ups.
  public init(
    firer: Firer, clock: any NotifyClock = SystemClock(), configuration: Configuration,
    notifier: ServiceNotifier = ServiceNotifier(), logger: Logger = Logger(label: "notify.daemon"),
    pendingCount: (() throws -> Int)? = nil, attached: (any LoopAttachable)? = nil,
    owner: SinkOwner? = nil, control: FiringLoopControl = FiringLoopControl(),
    hooks: FiringLoopHooks = .init()
  ) {
    self.control = control
    self.hooks = hooks
    self.attached = attached
    self.owner = owner
    self.firer = firer
    self.clock = clock
    self.configuration = configuration
    idlePacing = IdlePacing(spacing: configuration.idleSpacing)
    self.notifier = notifier
    self.logger = logger
    self.pendingCount = pendingCount
    self.watchdogInterval = notifier.watchdogInterval
  }

  /// Lets the firer see a stop between hand-offs, so that a stop does not wait for a whole
  /// burst: while the loop runs (the firer may outlive it, and an app's
  /// `deliverDueNotifications` uses it after the loop stopped).
  private func watchStopRequests() {
    let handlesSignals = configuration.handlesSignals
    firer.isStopRequested = { [weak self] in
      guard let self else { return false }
      return self.control.shared.withLock { $0.stopRequested }
        || (handlesSignals && StopSignals.pending() != nil)
    }
  }

  /// Runs the loop on the calling thread until SIGTERM/SIGINT (when handled) or `stop()`.
  /// With an owner, the calling thread must be the owner's (`run() async` sees to it).
  public func run() throws(NotifyError) {
    let loop = try EventLoop()
    self.loop = loop
    watchStopRequests()
    defer {
      firer.isStopRequested = { false }
      tearDown()
    }
    var sources: [AnyObject] = []
    // Re-arming runs after everything else pending, so a burst of changes costs one wake-up.
    wakeSource = try loop.addDeferred(priority: Int64(SD_EVENT_PRIORITY_IDLE)) { [unowned self] in
      self.wake()
    }
    // Another process's commit wakes the loop also when it does not fire: an app hears
    // of its notifications whoever showed them (`onWake`).
    if let path = configuration.storePath {
      sources += try watchStore(path, on: loop)
    }
    if configuration.fires {
      // The timer goes first when several sources are ready: its work is the one with a deadline.
      timer = try loop.addRealtimeTimer(priority: Int64(SD_EVENT_PRIORITY_IMPORTANT)) { [unowned self] in
        self.wake()
      }
      // Idle work goes after everything else that is ready.
      idleTimer = try loop.addRealtimeTimer(priority: Int64(SD_EVENT_PRIORITY_IDLE)) { [unowned self] in
        self.idleTimerFired()
      }
      sources.append(
        try ClockChangeWatch(loop: loop) { [unowned self] in
          self.logger.info("the wall clock was set; re-arming")
          self.requestWake()
        })
      sources.append(
        TimeZoneWatch(loop: loop) { [unowned self] in
          self.logger.info("the system time zone changed; re-arming")
          self.zonesChanged()
        })
      let dataWatch = ZoneDataWatch(loop: loop) { [unowned self] in
        self.logger.info("the zone data changed; recomputing wall-clock notifications")
        (self.clock.zones.database as? TZDatabase)?.reload()
        self.zonesChanged()
      }
      zoneDataWatch = dataWatch
      sources.append(dataWatch)
    }
    if configuration.handlesSignals {
      for signal in StopSignals.all {
        // Before the timer: a stop is dispatched ahead of a wake-up that is due as well.
        sources.append(
          try loop.addSignal(signal, priority: Int64(SD_EVENT_PRIORITY_IMPORTANT) - 1) { [unowned self] in
            self.logger.info("stopping on \(StopSignals.name(signal))")
            self.notifier.stopping()
            loop.exit(0)
          })
      }
    }
    let owner = self.owner
    let wakeup = try Wakeup(loop: loop) { [unowned self] in
      // Work other threads sent the owner runs here, between two dispatches.
      owner?.runPending()
      let (stop, wake) = self.control.shared.withLock { shared in
        defer { shared.wakeRequested = false }
        return (shared.stopRequested, shared.wakeRequested)
      }
      if stop { loop.exit(0) } else if wake { self.requestWake() }
    }
    let stopEarly = control.shared.withLock { shared in
      shared.wakeup = wakeup
      return shared.stopRequested
    }
    if stopEarly { return }
    owner?.attach(wakeup)
    // What is sent after the loop stopped runs on the owner's queue.
    defer { owner?.detach() }
    if notifier.isActive { loop.enableWatchdog() }
    if let attached {
      do {
        try attached.attach(to: loop.handle, priority: 0)
      } catch {
        logger.warning("desktop activations and dismissals will not be recorded: \(error)")
      }
    }
    defer { attached?.detach() }
    if configuration.fires { startCompanions(on: loop) }
    defer { stopCompanions() }

    wake()
    notifier.ready(status: statusLine())
    control.shared.withLock { $0.ready = true }
    logger.info("ready; watching \(configuration.storePath ?? "no store file")")
    _ = try loop.run()
    control.shared.withLock { $0.ready = false }
    notifier.stopping()
    giveBack()
    withExtendedLifetime(sources) {}
    if control.shared.withLock({ $0.storeWasReplaced }) {
      throw NotifyError(
        .temporary,
        "the store \(Escaper.visible(configuration.storePath ?? "")) was deleted or replaced while the loop ran",
        fix: "start it again (systemd restarts the daemon by itself): it opens the file now at the path")
    }
    if let failure { throw failure }
  }

  /// Blocks SIGTERM, SIGINT and SIGHUP (`StopSignals`) for the calling thread and every
  /// thread it starts later. A command calls this first thing, before any thread exists,
  /// so the signals wait for the loop's signalfd instead of killing the process from
  /// another thread.
  public static func blockTerminationSignals() {
    StopSignals.block()
  }

  /// True once the loop has delivered what was overdue and armed its timer (what
  /// READY=1 tells systemd), until it stops.
  public var isReady: Bool { control.isReady }

  /// Stops a running loop; safe from any thread, also before `run()` has started.
  public func stop() { control.stop() }

  /// Makes the loop wake the firer and look at its sources again now; safe from any thread
  /// (`FiringLoopControl.nudge()`).
  public func nudge() { control.nudge() }

  /// Runs the loop until the calling task is cancelled or `stop()`: on a thread of its own,
  /// or with an owner as the owner's job (the jobs sent to the owner meanwhile run on the
  /// loop's thread, between two dispatches). The calling task is suspended meanwhile.
  public func run() async throws(NotifyError) {
    if let owner {
      let result: Result<Void, NotifyError> = await withTaskCancellationHandler {
        await owner.run {
          _ = notify_name_thread("notify.firing")
          defer { _ = notify_name_thread("notify.owner") }
          return Result { () throws(NotifyError) in try self.run() }
        }
      } onCancel: {
        self.stop()
      }
      return try result.get()
    }
    let result: Result<Void, NotifyError> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let thread = Thread { [self] in
          // Named for `top -H` and /proc/PID/task/*/comm (Foundation does not name it on Linux).
          _ = notify_name_thread("notify.firing")
          do throws(NotifyError) {
            try self.run()
            continuation.resume(returning: .success(()))
          } catch {
            continuation.resume(returning: .failure(error))
          }
        }
        thread.start()
      }
    } onCancel: {
      self.stop()
    }
    try result.get()
  }

  // MARK: - Loop callbacks

  func requestWake() {
    try? wakeSource?.trigger()
  }

  /// The system zone or the zone data changed: forget cached zones and recompute
  /// wall-clock rows on the next wake-up.
  private func zonesChanged() {
    (clock as? ZoneCachingClock)?.zoneChanged()
    zonesMoved = true
    requestWake()
  }

  /// One wake-up of the firer under the batch budget; arms the timer for the instant it
  /// asks for, or disarms it. Updates the service status.
  private func wake() {
    // Whether the loop goes idle after this wake-up (`onIdle`).
    var goingIdle = false
    // A stopping loop does not start on the badges and bubbles either. Idle work (a
    // checkpoint and its syncs) comes after them: what `onWake` tells others (the D-Bus
    // service's signals) does not wait for it.
    defer {
      if !firer.isStopRequested() {
        hooks.onWake?(FiringLoopWake(storeChangedByOthers: storeChangedByOthers, report: lastReport))
      }
      storeChangedByOthers = false
      lastReport = nil
      if goingIdle { goIdle() }
    }
    guard let timer else { return }
    let task = BackgroundTask.begin(
      named: "delivery batch", budget: configuration.batchBudget, clock: clock, trigger: .checkpoints
    ) {}
    defer { task.end() }
    if zonesMoved {
      zonesMoved = false
      do {
        let moved = try firer.recomputeWallClock()
        if moved > 0 { logger.info("\(moved) wall-clock notification(s) moved with the zones") }
      } catch {
        logger.warning("could not recompute wall-clock notifications: \(error)")
      }
    }
    // A new folder of zones, or /etc/localtime leading elsewhere, joins the watch: after
    // the hand-offs, which it would delay by about 50 µs (it resolves /etc/localtime and
    // compares the watched folders).
    defer { zoneDataWatch?.update() }
    if !started.isEmpty {
      let now = clock.now()
      for companion in started { companion.firerWillWake(now: now) }
    }
    do {
      let wake = try firer.wake(task: task) { [unowned self] in self.pingWatchdog() }
      lastReport = wake.report
      if wake.report.stopped {
        logger.notice("batch budget spent; the rest continues on the next iteration")
      }
      if let next = wake.next { try timer.arm(at: next) } else { timer.disarm() }
      nextInstant = wake.next
      if !started.isEmpty {
        let now = clock.now()
        for companion in started { companion.firerWoke(wake, now: now) }
      }
      goingIdle = hooks.onIdle != nil && isGoingIdle
      noteSinkFault(wake.report)
      updateStatus()
    } catch let error where error.isCorruptStore {
      // A damaged file never heals by waiting: stop (74), as the open would have.
      failure = error
      loop?.exit(1)
    } catch {
      logger.error("could not read the store; trying again in \(Int(configuration.retryDelay)) s: \(error)")
      try? timer.arm(at: clock.now() + configuration.retryDelay)
    }
  }

  /// The loop goes idle: `onIdle` now, or once its spacing allows (`IdlePacing`).
  private func goIdle() {
    guard let onIdle = hooks.onIdle else { return }
    switch idlePacing.goingIdle(at: clock.now(), hasWork: { hooks.idleWorkPending?() ?? true }) {
    case .now: onIdle()
    case .at(let instant): try? idleTimer?.arm(at: instant)
    case .nothing: break
    }
  }

  /// Starts the companions; one that cannot start is left out, said once.
  private func startCompanions(on loop: EventLoop) {
    let handle = FiringLoopHandle(
      event: loop.handle, lookAgain: { [unowned self] in self.requestWake() }, loop: loop)
    for companion in hooks.companions {
      do {
        try companion.start(on: handle)
        started.append(companion)
      } catch {
        logger.info("\(error.problemText.rendered(\.apiName)); going on without it")
      }
    }
  }

  private func stopCompanions() {
    for companion in started.reversed() { companion.stop() }
    started = []
  }

  /// A stalled sink is logged when it stalls and when it works again; a sink gone for good
  /// ends the loop with an error (the command exits non-zero, and systemd restarts it with
  /// a working one).
  private func noteSinkFault(_ report: Firer.BatchReport) {
    guard let fault = report.sinkFault else {
      if let stalled = loggedFault, report.delivered > 0 {
        logger.notice("the \(stalled.sink) sink takes deliveries again")
        loggedFault = nil
      }
      return
    }
    switch fault.kind {
    case .stalled:
      if loggedFault == nil {
        logger.warning(
          "\(fault); \(Self.count(report.released, "delivery", "deliveries")) went back to pending, trying again every \(Int(Firer.stalledSinkRetry)) s"
        )
      }
      loggedFault = fault
    case .gone:
      failure = NotifyError(
        .unavailable, ErrorText("\(fault); nothing more can be delivered through it"),
        fix:
          "\(Self.count(report.released, "delivery", "deliveries")) went back to pending for the next start: run notify again with a reader on its output (systemd restarts the unit), or use \(term: .desktopSink)"
      )
      loop?.exit(1)
    }
  }

  /// `1 delivery`, `3 deliveries`.
  static func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }

  /// On the way out, claims not yet handed over go back to pending for the next firer.
  private func giveBack() {
    do {
      try firer.giveBack()
    } catch {
      logger.error("could not give back claimed deliveries; the next firer takes them over: \(error)")
    }
  }

  /// Whether nothing is due for `Configuration.idleDelay`.
  private var isGoingIdle: Bool {
    nextInstant.map { $0.timeIntervalSince(clock.now()) >= configuration.idleDelay } ?? true
  }

  /// The put-off `onIdle`: run when the loop still sleeps long; else the next wake-up
  /// going idle runs it.
  private func idleTimerFired() {
    guard let onIdle = hooks.onIdle, isGoingIdle else { return }
    idlePacing.ran(at: clock.now())
    onIdle()
  }

  private func tearDown() {
    timer = nil
    idleTimer = nil
    wakeSource = nil
    control.shared.withLock { $0.wakeup = nil }
    loop = nil
  }
}

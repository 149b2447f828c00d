import CSystemd
import Foundation
import Glibc
import Logging
import NotifyCore
import NotifyDesktop

/// The resident firer (`notify daemon`, SPEC.md §6): one sd-event loop with one
/// `CLOCK_REALTIME` timer armed for the earliest next fire instant over all apps.
///
/// It sleeps otherwise: no polling, no wake-up while nothing is due. It re-arms when
/// another process changes the store (inotify on the store's folder: every commit
/// touches the database or its `-wal`), when the wall clock is set or the machine
/// resumes (a cancel-on-set timerfd), and when the system time zone changes
/// (`/etc/localtime`). It claims each occurrence `claimAhead` (10 ms) before its instant,
/// so that at the instant only the hand-off to the sink is left. Each wake-up runs one delivery batch under a `BackgroundTask`
/// budget, then re-arms.
///
/// ```swift
/// let daemon = FiringDaemon(firer: firer, configuration: .init(storePath: path, handlesSignals: false))
/// try await daemon.run()   // until the task is cancelled
/// ```
public final class FiringDaemon: @unchecked Sendable {
  /// How the daemon is set up.
  public struct Configuration: Sendable {
    /// The store file; its folder is watched for other processes' changes.
    public var storePath: String?
    /// The budget of each delivery batch.
    public var batchBudget: TimeInterval
    /// Whether SIGTERM and SIGINT stop the loop (a command does; an app embedding the
    /// daemon keeps its own signal handling and calls `stop()`).
    public var handlesSignals: Bool
    /// How long to wait before trying again when the store cannot be read.
    public var retryDelay: TimeInterval
    /// How long before its due instant an occurrence is claimed, so that at the instant
    /// only the hand-off to the sink remains (0: claim when due).
    public var claimAhead: TimeInterval

    /// Creates a configuration.
    public init(
      storePath: String?, batchBudget: TimeInterval = 10, handlesSignals: Bool = true,
      retryDelay: TimeInterval = 1, claimAhead: TimeInterval = 0.01
    ) {
      self.storePath = storePath
      self.batchBudget = batchBudget
      self.handlesSignals = handlesSignals
      self.retryDelay = retryDelay
      self.claimAhead = max(0, claimAhead)
    }
  }

  /// Called on the loop's thread after every re-arm: at start, and after the store, the
  /// clock or the zone changed (the daemon uses it to keep launcher badges in step).
  public var onRearm: (() -> Void)?

  let firer: Firer
  let clock: any NotifyClock
  let configuration: Configuration
  let notifier: ServiceNotifier
  let logger: Logger
  let pendingCount: (() throws -> Int)?
  private let desktop: DesktopSink?
  private var ready = false

  private let lock = NSLock()
  private var stopRequested = false
  private var wakeup: Wakeup?

  // Loop-thread state.
  private var loop: EventLoop?
  private var timer: EventSource?
  private var rearmSource: EventSource?
  /// Occurrences this daemon has claimed and will hand over at their instants, soonest first.
  private var prepared: [Firer.Prepared] = []
  var lastStatus = ""
  var lastWatchdogPing = Date.distantPast
  let watchdogInterval: TimeInterval?

  /// Creates a daemon around `firer`. `pendingCount` feeds the service status line. A
  /// `desktop` sink is attached to the loop, so that its activations and dismissals
  /// (its `onEvent`) arrive while the daemon sleeps.
  public init(
    firer: Firer, clock: any NotifyClock = SystemClock(), configuration: Configuration,
    notifier: ServiceNotifier = ServiceNotifier(), logger: Logger = Logger(label: "notify.daemon"),
    pendingCount: (() throws -> Int)? = nil, desktop: DesktopSink? = nil
  ) {
    self.desktop = desktop
    self.firer = firer
    self.clock = clock
    self.configuration = configuration
    self.notifier = notifier
    self.logger = logger
    self.pendingCount = pendingCount
    self.watchdogInterval = notifier.watchdogInterval
  }

  /// Runs the loop on the calling thread until SIGTERM/SIGINT (when handled) or `stop()`.
  public func run() throws(NotifyError) {
    let loop = try EventLoop()
    self.loop = loop
    defer { tearDown() }
    // The timer goes first when several sources are ready: its work is the one with a deadline.
    timer = try loop.addRealtimeTimer(priority: Int64(SD_EVENT_PRIORITY_IMPORTANT)) { [unowned self] in
      self.fire()
    }
    // Re-arming runs after everything else pending, so a burst of store changes costs one query.
    rearmSource = try loop.addDeferred(priority: Int64(SD_EVENT_PRIORITY_IDLE)) { [unowned self] in
      self.rearm()
    }
    var sources: [AnyObject] = []
    sources.append(
      try ClockChangeWatch(loop: loop) { [unowned self] in
        self.logger.info("the wall clock was set; re-arming")
        self.requestRearm()
      })
    if let path = configuration.storePath {
      sources.append(try watchStore(path, on: loop))
    }
    sources.append(
      TimeZoneWatch(loop: loop) { [unowned self] in
        self.logger.info("the system time zone changed; re-arming")
        (self.clock as? ZoneCachingClock)?.zoneChanged()
        self.requestRearm()
      })
    if configuration.handlesSignals {
      for signal in [SIGTERM, SIGINT] {
        sources.append(
          try loop.addSignal(signal) { [unowned self] in
            self.logger.info("stopping on signal \(signal)")
            self.notifier.stopping()
            loop.exit(0)
          })
      }
    }
    let wakeup = try Wakeup(loop: loop) { [unowned self] in
      if self.lock.withLock({ self.stopRequested }) { loop.exit(0) }
    }
    let stopEarly = lock.withLock {
      self.wakeup = wakeup
      return stopRequested
    }
    if stopEarly { return }
    loop.enableWatchdog()
    if let desktop {
      do {
        try desktop.attach(to: loop.handle)
      } catch {
        logger.warning("desktop activations and dismissals will not be recorded: \(error)")
      }
    }
    defer { desktop?.detach() }

    rearm()
    notifier.ready(status: statusLine())
    lock.withLock { ready = true }
    logger.info("ready; watching \(configuration.storePath ?? "no store file")")
    _ = try loop.run()
    lock.withLock { ready = false }
    notifier.stopping()
    giveBackPrepared()
    withExtendedLifetime(sources) {}
  }

  /// Blocks SIGTERM and SIGINT for the calling thread and every thread it starts later.
  /// A command calls this first thing, before any thread exists, so the signals wait
  /// for the loop's signalfd instead of killing the process from another thread.
  public static func blockTerminationSignals() {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGTERM)
    sigaddset(&set, SIGINT)
    pthread_sigmask(SIG_BLOCK, &set, nil)
  }

  /// True once the loop has delivered what was overdue and armed its timer (what
  /// READY=1 tells systemd), until it stops.
  public var isReady: Bool { lock.withLock { ready } }

  /// Stops a running loop; safe from any thread, also before `run()` has started.
  public func stop() {
    let wakeup = lock.withLock {
      stopRequested = true
      return self.wakeup
    }
    wakeup?.signal()
  }

  /// Runs the loop on a thread of its own until the calling task is cancelled or `stop()`.
  public func run() async throws(NotifyError) {
    let result: Result<Void, NotifyError> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let thread = Thread { [self] in
          do throws(NotifyError) {
            try self.run()
            continuation.resume(returning: .success(()))
          } catch {
            continuation.resume(returning: .failure(error))
          }
        }
        thread.name = "notify.daemon"
        thread.start()
      }
    } onCancel: {
      self.stop()
    }
    try result.get()
  }

  // MARK: - Loop callbacks

  /// Timer wake-up: hand over what has come due, then claim and arm for what is next.
  private func fire() {
    let now = clock.now()
    let ready = prepared.prefix { $0.fireDate <= now }
    if !ready.isEmpty {
      prepared.removeFirst(ready.count)
      let task = BackgroundTask.begin(
        named: "delivery batch", budget: configuration.batchBudget, clock: clock, trigger: .checkpoints
      ) {}
      let (report, unstarted) = firer.deliver(Array(ready), task: task) { [unowned self] in
        self.pingWatchdog()
      }
      task.end()
      if report.stopped {
        // Still claimed by this daemon: delivered on the next iteration, after other events.
        prepared.insert(contentsOf: unstarted, at: 0)
        logger.notice("batch budget spent; \(unstarted.count) deliveries continue on the next iteration")
      }
    }
    rearm()
  }

  func requestRearm() {
    try? rearmSource?.trigger()
  }

  /// Claims what falls due within `claimAhead` (anything overdue included), then arms the
  /// timer for the earliest claimed instant, or for `claimAhead` before the next pending
  /// one; disarms it when nothing is pending. Updates the service status.
  private func rearm() {
    guard let timer else { return }
    do {
      var next = try firer.store.nextFireDate(localZone: clock.localZone)
      var rounds = 0
      var nothingClaimable = false
      while let due = next, due <= clock.now() + configuration.claimAhead, rounds < 16 {
        rounds += 1
        let claimed = try firer.claim(dueBy: clock.now() + configuration.claimAhead)
        prepared = (prepared + claimed).sorted { $0.fireDate < $1.fireDate }
        next = try firer.store.nextFireDate(localZone: clock.localZone)
        nothingClaimable = claimed.isEmpty
        if nothingClaimable { break }
      }
      var wake = [prepared.first?.fireDate, next.map { $0 - configuration.claimAhead }].compactMap { $0 }
        .min()
      if nothingClaimable, let soon = wake, prepared.first.map({ $0.fireDate > soon }) ?? true {
        // The store said something is due but nothing could be claimed (an instant a
        // fraction of a millisecond ahead of its stored millisecond): look again shortly
        // instead of spinning.
        wake = max(soon, clock.now() + 0.001)
      }
      if let wake { try timer.arm(at: wake) } else { timer.disarm() }
      updateStatus()
      onRearm?()
    } catch {
      logger.error("could not read the store; trying again in \(Int(configuration.retryDelay)) s: \(error)")
      try? timer.arm(at: clock.now() + configuration.retryDelay)
    }
  }

  /// On the way out, claims not yet handed over go back to pending for the next firer.
  private func giveBackPrepared() {
    guard !prepared.isEmpty else { return }
    do {
      try firer.release(prepared)
      prepared = []
    } catch {
      logger.error(
        "could not give back \(prepared.count) claimed deliveries; the next firer takes them over: \(error)")
    }
  }

  private func tearDown() {
    timer = nil
    rearmSource = nil
    lock.withLock { wakeup = nil }
    loop = nil
  }
}

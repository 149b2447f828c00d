import NotifyCore

/// What an assembly runs on the firing loop's thread around its wake-ups, given to the
/// loop at construction (`FiringLoop.init(... hooks:)`): the daemon checkpoints and sweeps
/// there, keeps launcher badges and calendars in step, and tells the D-Bus service that
/// history grew; an app's center relays what others recorded of its notifications.
public struct FiringLoopHooks {
  /// Called after every wake-up: at start, at each timer, whenever another process changed
  /// the store or the loop was nudged, also in a loop that does not fire.
  public var onWake: ((FiringLoopWake) -> Void)?
  /// Called at the end of a wake-up after which the loop sleeps for at least
  /// `FiringLoop.Configuration.idleDelay` (nothing due sooner), at most once per
  /// `Configuration.idleSpacing`: a wake-up that comes sooner puts it off to a timer, once,
  /// at the end of that spacing (`IdlePacing`). An idle loop never wakes for it. The
  /// daemon checkpoints the store's WAL there, which short-lived processes leave to it.
  public var onIdle: (() -> Void)?
  /// Whether `onIdle` has anything to do (the daemon: the WAL was written since its last
  /// checkpoint); asked only before putting it off. Nil: always.
  public var idleWorkPending: (() -> Bool)?
  /// Where deliveries go now (`desktop`, `stdout`), for the status line. `nudge()` the
  /// loop after it changed.
  public var deliveringTo: (() -> String)?
  /// What follows the loop's wake-ups on its thread (`FiringLoopCompanion`): the power
  /// companions (the wake-capable timer, logind's sleep and shutdown). A loop that does not
  /// fire starts none.
  public var companions: [any FiringLoopCompanion]

  /// Hooks; none by default.
  public init(
    onWake: ((FiringLoopWake) -> Void)? = nil, onIdle: (() -> Void)? = nil,
    idleWorkPending: (() -> Bool)? = nil, deliveringTo: (() -> String)? = nil,
    companions: [any FiringLoopCompanion] = []
  ) {
    self.onWake = onWake
    self.onIdle = onIdle
    self.idleWorkPending = idleWorkPending
    self.deliveringTo = deliveringTo
    self.companions = companions
  }
}

/// What one wake-up of the firing loop found and did, for `FiringLoopHooks.onWake`.
public struct FiringLoopWake: Sendable {
  /// True when another process committed to the store since the last wake-up (always on
  /// the first): what only others write (a badge set by `notify badge`, bubbles a stopped
  /// process left) needs reading then, not on the loop's own timer.
  public var storeChangedByOthers: Bool
  /// What the firer did in this wake-up; nil in a loop that does not fire, or when the
  /// store could not be read.
  public var report: FiringReport?

  /// A wake-up's facts.
  public init(storeChangedByOthers: Bool, report: FiringReport?) {
    self.storeChangedByOthers = storeChangedByOthers
    self.report = report
  }
}

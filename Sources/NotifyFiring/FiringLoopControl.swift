import Synchronization

/// What other threads may do to a firing loop: stop it, make it look again (`nudge`), ask
/// whether it is ready. Made before the loop, so that what the loop's assembly builds
/// first (the sinks, the calendars, the D-Bus service) is given its `nudge` at
/// construction instead of being handed the loop afterwards.
///
/// ```swift
/// let control = FiringLoopControl()
/// let sinks = try SinkChoice.auto.assemble(store: store, observers: .init(pendingChanged: control.nudge))
/// let loop = FiringLoop(firer: firer, configuration: .init(storePath: store.path), control: control)
/// ```
public final class FiringLoopControl: Sendable {
  /// What other threads read or change.
  struct Shared {
    var ready = false
    var stopRequested = false
    /// Set by `nudge()`: the next wake of the pipe wakes the firer too.
    var wakeRequested = false
    var wakeup: Wakeup?
    /// Set by the store watch when the store file went away under the loop.
    var storeWasReplaced = false
  }
  let shared = Mutex(Shared())

  /// A control for one loop.
  public init() {}

  /// Stops the running loop; safe from any thread, also before `run()` has started.
  public func stop() {
    let wakeup = shared.withLock { shared in
      shared.stopRequested = true
      return shared.wakeup
    }
    wakeup?.signal()
  }

  /// Makes the loop wake the firer and look at its sources again now; safe from any
  /// thread. For a change this process made to the store (its own commits do not wake the
  /// loop), and after another thread used the shared sink (it may have read bus messages
  /// that no longer make the descriptor readable).
  @Sendable public func nudge() {
    let wakeup = shared.withLock { shared in
      shared.wakeRequested = true
      return shared.wakeup
    }
    wakeup?.signal()
  }

  /// True once the loop has delivered what was overdue and armed its timer (what
  /// READY=1 tells systemd), until it stops.
  public var isReady: Bool { shared.withLock { $0.ready } }
}

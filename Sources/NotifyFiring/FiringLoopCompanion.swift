import Foundation
import NotifyCore

/// Something that follows the firing loop on the loop's thread: started with the loop,
/// told after each wake-up of the firer what it did and wants next, stopped with the loop.
/// The power companions are such (`WakeAlarmKeeper`: the wake-capable timer; logind's
/// sleep and shutdown in the library): the assembly makes them and hands them to the loop
/// (`FiringLoop.companions`), which knows nothing of what they do.
public protocol FiringLoopCompanion: AnyObject {
  /// Starts on `loop`'s thread, before its first wake-up.
  func start(on loop: FiringLoopHandle) throws(NotifyError)
  /// Before a wake-up of the firer.
  func firerWillWake(now: Date)
  /// After a wake-up of the firer, with what it returned.
  func firerWoke(_ wake: Firer.Wake, now: Date)
  /// The loop is stopping (its thread, after its last wake-up).
  func stop()
}

extension FiringLoopCompanion {
  public func firerWillWake(now: Date) {}
}

/// What a companion gets of the loop: its sd-event loop for sources of its own, and a way
/// to wake the firer.
public struct FiringLoopHandle {
  /// The loop's `sd_event *` (for a bus connection of the companion's own,
  /// `sd_bus_attach_event`).
  public let event: OpaquePointer
  /// Wakes the firer at once (after what else is pending: a burst of triggers is one wake-up).
  public let lookAgain: () -> Void
  let loop: EventLoop
}

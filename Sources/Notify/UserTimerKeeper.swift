import Foundation
import Logging
import NotifyCore
import NotifyDesktop
import NotifyFiring

/// Keeps a waking timer of the user's systemd manager armed for the earliest waking
/// notification less the lead (`WakePlanner`), for a firer that may not hold one itself
/// but whose manager may (`WakeRoute.userTimer`): the loop's companion in that case, and
/// what `notify fire-due` runs once before it exits. The timer starts `notify fire-due`
/// (`UserTimers`), so a machine woken for it delivers even where no daemon runs.
package final class UserTimerKeeper: FiringLoopCompanion {
  private let timers: UserTimers
  private let command: [String]
  private let logger: Logger
  /// The instant armed last (`.some(nil)`: disarmed), nil before the first.
  private var armed: Date??
  private var refused = false

  /// A keeper for the store at `storePath`, whose timers run `notify fire-due` on it.
  package init(storePath: String, logger: Logger) {
    timers = UserTimers(storePath: storePath)
    command = Self.fireDue(storePath: storePath)
    self.logger = logger
  }

  /// `notify fire-due --db PATH`, this program's path first.
  static func fireDue(storePath: String) -> [String] {
    let program = WakeProbe.link("/proc/self/exe") ?? "notify"
    return [program, "fire-due", "--db", storePath]
  }

  package func start(on loop: FiringLoopHandle) throws(NotifyError) {}

  package func firerWoke(_ wake: Firer.Wake, now: Date) {
    arm(WakePlanner.alarm(for: wake.wake, now: now))
  }

  package func stop() {}

  /// Arms the manager's timer for `instant` (nil: none), unless it is so already.
  package func arm(_ instant: Date?) {
    if let armed, armed == instant { return }
    do {
      try timers.arm(at: instant, command: command)
      armed = .some(instant)
      refused = false
    } catch {
      if !refused { logger.warning("\(error); waking notifications fire when the machine is awake") }
      refused = true
    }
  }
}

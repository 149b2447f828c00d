import Foundation
import Logging
import NotifyCore

/// Keeps the firer's wake-capable timer armed for the earliest pending notification that
/// wakes the machine, a wake lead ahead of it (`WakePlanner`): the loop's companion for the
/// `alarm-timer` route (`WakeAlarm`, a `CLOCK_REALTIME_ALARM` timerfd of its own). After
/// every wake-up it arms, moves or disarms the timer; with nothing waking pending it holds
/// no timer at all. Where arming is refused (the capability went away) it says so once and
/// goes on without: the notification still fires when the machine is awake.
public final class WakeAlarmKeeper: FiringLoopCompanion {
  private let logger: Logger
  private var alarm: WakeAlarm?
  private var refused = false

  /// A keeper that logs with `logger`.
  public init(logger: Logger = Logger(label: "notify.wake")) {
    self.logger = logger
  }

  public func start(on loop: FiringLoopHandle) throws(NotifyError) {
    let lookAgain = loop.lookAgain
    alarm = WakeAlarm(loop: loop.loop) { lookAgain() }
  }

  public func firerWoke(_ wake: Firer.Wake, now: Date) {
    guard let alarm else { return }
    guard let at = WakePlanner.alarm(for: wake.wake, now: now) else {
      alarm.disarm()
      return
    }
    guard alarm.armedAt != at else { return }
    do {
      try alarm.arm(at: at)
      refused = false
    } catch {
      if !refused {
        logger.warning(
          "cannot arm the wake alarm (\(error == .denied ? "no CAP_WAKE_ALARM" : "no wake alarm here")); waking notifications fire when the machine is awake"
        )
      }
      refused = true
    }
  }

  public func stop() {
    alarm?.disarm()
    alarm = nil
  }
}

extension WakeAlarmKeeper {
  /// Whether this process can create an alarm timer (`WakeFacts.alarmClock`).
  public static func probe() -> WakeFacts.AlarmClock { WakeAlarm.probe() }

  /// Whether the machine has a wake alarm (`WakeFacts.wakeClock`).
  public static func wakeClockPresent() -> Bool { WakeAlarm.wakeClockPresent() }
}

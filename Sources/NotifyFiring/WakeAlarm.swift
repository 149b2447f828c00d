import CSystemd
import Foundation
import Glibc
import NotifyCore

/// A wake-capable timer of the process's own: a `timerfd` on `CLOCK_REALTIME_ALARM`, armed
/// for an absolute instant, which the kernel wakes a suspended machine for (the real-time
/// clock's alarm). Creating one needs `CAP_WAKE_ALARM` (`EPERM` without it).
///
/// The descriptor exists only while armed: disarming closes it, so `/proc/PID/fdinfo` shows
/// a timer with `clockid: 8` exactly while a waking notification is pending. When it fires
/// (the machine woke for it, or the instant came while awake) `onFire` runs on the loop.
final class WakeAlarm {
  /// Why an alarm timer cannot be armed.
  enum Refusal: Error, Hashable {
    /// `EPERM`: no `CAP_WAKE_ALARM`.
    case denied
    /// The kernel has no wake alarm here (`EINVAL`, `EOPNOTSUPP`, `ENODEV`), or another
    /// failure, with its errno.
    case unsupported(Int32)
  }

  private let loop: EventLoop
  private let onFire: () -> Void
  private var fd: Int32 = -1
  private var source: EventSource?
  /// The instant it is armed for, nil when disarmed.
  private(set) var armedAt: Date?

  /// An alarm on `loop`, disarmed; `onFire` runs when it expires.
  init(loop: EventLoop, onFire: @escaping () -> Void) {
    self.loop = loop
    self.onFire = onFire
  }

  deinit { disarm() }

  /// Arms the alarm for `date` (at once when it has passed), opening the timer when it is
  /// not open.
  func arm(at date: Date) throws(Refusal) {
    if fd < 0 {
      let created = timerfd_create(CLOCK_REALTIME_ALARM, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
      guard created >= 0 else { throw Self.refusal(errno) }
      fd = created
      do {
        source = try loop.addReadable(fd: created, priority: Int64(SD_EVENT_PRIORITY_IMPORTANT)) {
          [unowned self] in self.fired()
        }
      } catch {
        close(created)
        fd = -1
        throw .unsupported(EIO)
      }
    }
    var spec = itimerspec()
    let seconds = max(0, date.timeIntervalSince1970)
    spec.it_value.tv_sec = time_t(seconds.rounded(.down))
    spec.it_value.tv_nsec = Int((seconds - seconds.rounded(.down)) * 1_000_000_000)
    // 0 would disarm: the epoch itself is "at once" anyway.
    if spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0 { spec.it_value.tv_nsec = 1 }
    guard timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil) == 0 else {
      let code = errno
      disarm()
      throw Self.refusal(code)
    }
    armedAt = date
  }

  /// Disarms the alarm and closes its timer.
  func disarm() {
    source = nil
    if fd >= 0 { close(fd) }
    fd = -1
    armedAt = nil
  }

  private func fired() {
    var expirations: UInt64 = 0
    _ = read(fd, &expirations, MemoryLayout<UInt64>.size)
    armedAt = nil
    onFire()
  }

  /// Whether this process can create an alarm timer (`WakeFacts.alarmClock`): one is
  /// created and closed at once.
  static func probe() -> WakeFacts.AlarmClock {
    let fd = timerfd_create(CLOCK_REALTIME_ALARM, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
    guard fd >= 0 else { return refusal(errno) == .denied ? .denied : .unsupported }
    close(fd)
    return .works
  }

  /// Whether the machine has a wake alarm: `clock_gettime(CLOCK_REALTIME_ALARM)` answers
  /// `EINVAL` without a real-time clock with an alarm (the kernel's `alarmtimer` has no RTC
  /// device: most virtual machines). A timerfd on the clock is made all the same there,
  /// and runs as an ordinary timer.
  static func wakeClockPresent() -> Bool {
    var now = timespec()
    return clock_gettime(CLOCK_REALTIME_ALARM, &now) == 0
  }

  private static func refusal(_ code: Int32) -> Refusal {
    code == EPERM || code == EACCES ? .denied : .unsupported(code)
  }
}

import CSystemd
import Glibc
import NotifyCore

/// Tells the loop when the wall clock is set (by hand, by NTP stepping it, or on resume
/// from suspend): a `CLOCK_REALTIME` timerfd armed for the end of time with
/// `TFD_TIMER_CANCEL_ON_SET` becomes readable with `ECANCELED` whenever the clock jumps.
/// This libsystemd (252) has no `sd_event_add_time_change`; this is what it does inside.
final class ClockChangeWatch {
  private let fd: Int32
  private var source: EventSource?

  /// Watches for clock changes on `loop`, calling `onChange` each time.
  init(loop: EventLoop, onChange: @escaping () -> Void) throws(NotifyError) {
    fd = try SystemdCall.checkLibc(
      timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC)), "timerfd_create")
    do {
      try ClockChangeWatch.arm(fd)
      source = try loop.addReadable(fd: fd, priority: -10) { [fd] in
        // The read fails with ECANCELED after a change; re-arm so the next change is seen.
        var expirations: UInt64 = 0
        _ = read(fd, &expirations, MemoryLayout<UInt64>.size)
        try? ClockChangeWatch.arm(fd)
        onChange()
      }
    } catch {
      close(fd)
      throw error
    }
  }

  deinit {
    source = nil
    close(fd)
  }

  private static func arm(_ fd: Int32) throws(NotifyError) {
    var spec = itimerspec()
    spec.it_value.tv_sec = time_t.max
    try SystemdCall.checkLibc(
      timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET), &spec, nil),
      "timerfd_settime")
  }
}

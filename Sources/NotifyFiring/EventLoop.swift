import CSystemd
import Foundation
import Glibc
import NotifyCore

/// A thin Swift face on an sd-event loop: timers, file descriptors, inotify watches and
/// signals call Swift closures on the loop's thread. One loop per thread; nothing here
/// is thread-safe except `Wakeup`.
final class EventLoop {
  let handle: OpaquePointer
  private var exitRequested = false

  /// Creates a loop.
  init() throws(NotifyError) {
    var event: OpaquePointer?
    try SystemdCall.check(sd_event_new(&event), "sd_event_new")
    handle = event!
  }

  deinit { sd_event_unref(handle) }

  /// Runs until `exit()`; returns the code given to it.
  func run() throws(NotifyError) -> Int32 {
    try SystemdCall.check(sd_event_loop(handle), "sd_event_loop")
  }

  /// Makes `run()` return `code` after the current callback.
  func exit(_ code: Int32 = 0) {
    exitRequested = true
    sd_event_exit(handle, code)
  }

  /// Pings the service manager's watchdog automatically while the loop runs, when
  /// `WATCHDOG_USEC` asks for it. Returns whether it is on.
  @discardableResult
  func enableWatchdog() -> Bool {
    sd_event_set_watchdog(handle, 1) > 0
  }

  /// A timer on `CLOCK_REALTIME`, created disabled; arm it with `EventSource.arm(at:)`.
  func addRealtimeTimer(priority: Int64 = 0, _ body: @escaping () -> Void) throws(NotifyError) -> EventSource
  {
    let box = EventSource.Box(body)
    var source: OpaquePointer?
    try SystemdCall.check(
      sd_event_add_time(
        handle, &source, CLOCK_REALTIME, UInt64.max, 1,
        { _, _, userdata in
          EventSource.Box.from(userdata).fire()
          return 0
        }, box.userdata),
      "sd_event_add_time")
    let wrapped = EventSource(source!, box)
    try wrapped.setEnabled(Int32(SD_EVENT_OFF))
    try wrapped.setPriority(priority)
    return wrapped
  }

  /// Calls `body` whenever `fd` is readable.
  func addReadable(fd: Int32, priority: Int64 = 0, _ body: @escaping () -> Void) throws(NotifyError)
    -> EventSource
  {
    let box = EventSource.Box(body)
    var source: OpaquePointer?
    try SystemdCall.check(
      sd_event_add_io(
        handle, &source, fd, UInt32(EPOLLIN.rawValue),
        { _, _, _, userdata in
          EventSource.Box.from(userdata).fire()
          return 0
        }, box.userdata),
      "sd_event_add_io")
    let wrapped = EventSource(source!, box)
    try wrapped.setPriority(priority)
    return wrapped
  }

  /// Calls `body` with the file name of each inotify event in the folder `path`.
  func addInotify(path: String, mask: UInt32, priority: Int64 = 0, _ body: @escaping (String) -> Void)
    throws(NotifyError) -> EventSource
  {
    let box = EventSource.Box(named: body)
    var source: OpaquePointer?
    try SystemdCall.check(
      sd_event_add_inotify(
        handle, &source, path, mask,
        { _, event, userdata in
          var name = ""
          if let event, event.pointee.len > 0 {
            let raw = UnsafeRawPointer(event) + MemoryLayout<inotify_event>.size
            name = String(cString: raw.assumingMemoryBound(to: CChar.self))
          }
          EventSource.Box.from(userdata).fire(name)
          return 0
        }, box.userdata),
      "sd_event_add_inotify(\(path))")
    let wrapped = EventSource(source!, box)
    try wrapped.setPriority(priority)
    return wrapped
  }

  /// Handles `signal` on the loop: it is blocked for this thread and read from a signalfd.
  func addSignal(_ signal: Int32, priority: Int64 = 0, _ body: @escaping () -> Void) throws(NotifyError)
    -> EventSource
  {
    let box = EventSource.Box(body)
    var source: OpaquePointer?
    try SystemdCall.check(
      sd_event_add_signal(
        handle, &source, signal | SD_EVENT_SIGNAL_PROCMASK,
        { _, _, userdata in
          EventSource.Box.from(userdata).fire()
          return 0
        }, box.userdata),
      "sd_event_add_signal")
    let wrapped = EventSource(source!, box)
    try wrapped.setPriority(priority)
    return wrapped
  }

  /// A source that runs `body` once per `EventSource.trigger()`, after everything of
  /// higher priority that is pending: used to coalesce bursts of events into one re-arm.
  func addDeferred(priority: Int64, _ body: @escaping () -> Void) throws(NotifyError) -> EventSource {
    let box = EventSource.Box(body)
    var source: OpaquePointer?
    try SystemdCall.check(
      sd_event_add_defer(
        handle, &source,
        { _, userdata in
          EventSource.Box.from(userdata).fire()
          return 0
        }, box.userdata),
      "sd_event_add_defer")
    let wrapped = EventSource(source!, box)
    try wrapped.setEnabled(Int32(SD_EVENT_OFF))
    try wrapped.setPriority(priority)
    return wrapped
  }
}

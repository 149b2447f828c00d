import CSystemd
import Foundation
import NotifyCore

/// One registered event source; removed from its loop when released.
final class EventSource {
  /// Keeps the Swift callback alive for as long as the source exists.
  final class Box {
    private let body: (String) -> Void
    init(_ body: @escaping () -> Void) { self.body = { _ in body() } }
    init(named body: @escaping (String) -> Void) { self.body = body }
    func fire(_ name: String = "") { body(name) }

    /// The pointer sd-event hands back to the C callback: unretained, since the
    /// `EventSource` keeps the box alive for as long as the source exists.
    var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The box behind a callback's `userdata`.
    static func from(_ userdata: UnsafeMutableRawPointer?) -> Box {
      Unmanaged<Box>.fromOpaque(userdata!).takeUnretainedValue()
    }
  }

  private let source: OpaquePointer
  private let box: Box

  init(_ source: OpaquePointer, _ box: Box) {
    self.source = source
    self.box = box
  }

  deinit { sd_event_source_disable_unref(source) }

  /// Arms a timer source to fire once at `date` (immediately when it is in the past).
  func arm(at date: Date) throws(NotifyError) {
    try SystemdCall.check(sd_event_source_set_time(source, EventSource.microseconds(date)), "set timer")
    try setEnabled(Int32(SD_EVENT_ONESHOT))
  }

  /// Runs a deferred source once on the next loop iteration.
  func trigger() throws(NotifyError) {
    try setEnabled(Int32(SD_EVENT_ONESHOT))
  }

  /// Disables the source until armed or triggered again.
  func disarm() {
    sd_event_source_set_enabled(source, Int32(SD_EVENT_OFF))
  }

  func setEnabled(_ mode: Int32) throws(NotifyError) {
    try SystemdCall.check(sd_event_source_set_enabled(source, mode), "sd_event_source_set_enabled")
  }

  func setPriority(_ priority: Int64) throws(NotifyError) {
    try SystemdCall.check(sd_event_source_set_priority(source, priority), "sd_event_source_set_priority")
  }

  /// Microseconds since the epoch, as sd-event counts `CLOCK_REALTIME`; never 0 (which
  /// sd-event reads as "fire now" but also as "unset" in places) and never in the far
  /// future beyond what it accepts.
  static func microseconds(_ date: Date) -> UInt64 {
    let value = (date.timeIntervalSince1970 * 1_000_000).rounded(.up)
    if value < 1 { return 1 }
    if value >= 9.0e18 { return UInt64.max - 1 }
    return UInt64(value)
  }
}

import Foundation

/// Whether and how a firer can wake the machine from suspend for a waking notification.
///
/// Waking needs `CAP_WAKE_ALARM`: a process that has it arms a timer on
/// `CLOCK_REALTIME_ALARM` of its own (`alarmTimer`); a user manager that has it (systemd
/// 254 and later give it to a local user's session) holds a timer with `WakeSystem=true`
/// for a firer that has not (`userTimer`). `WakeDiagnosis` decides which from the facts a
/// probe gathered (`WakeFacts`).
public enum WakeRoute: String, Hashable, Sendable, CaseIterable {
  /// A `timerfd` on `CLOCK_REALTIME_ALARM` held by the firer itself.
  case alarmTimer = "alarm-timer"
  /// A transient user timer with `WakeSystem=true` held by the user's systemd manager.
  case userTimer = "user-timer"
}

/// What a firer can do to wake the machine, as history's `detail.wake` and `notify status`
/// name it: a route, or `none` with why.
public struct WakeAbility: Hashable, Sendable {
  /// How it wakes the machine; nil when it cannot.
  public var route: WakeRoute?
  /// Why it cannot (or, with a route, what would be better), in words; nil when nothing
  /// stands in the way.
  public var reason: String?

  /// Creates an ability.
  public init(route: WakeRoute?, reason: String? = nil) {
    self.route = route
    self.reason = reason
  }

  /// Nothing known yet (a firer that has not looked).
  public static let unknown = WakeAbility(route: nil, reason: "not looked at")

  /// Whether the machine can be woken at all.
  public var canWake: Bool { route != nil }

  /// History's `detail.wake`: `alarm-timer`, `user-timer` or `none`.
  public var historyName: String { route?.rawValue ?? "none" }
}

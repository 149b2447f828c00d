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
  /// How it is allowed to hold a waking timer; nil when it is not.
  public var route: WakeRoute?
  /// Whether the machine has a wake alarm (a real-time clock with an alarm): without one,
  /// an allowed timer runs as an ordinary one and wakes nothing (most virtual machines).
  public var wakeClock: Bool
  /// Why it cannot (or, with a route, what would be better), in words; nil when nothing
  /// stands in the way.
  public var reason: String?

  /// Creates an ability.
  public init(route: WakeRoute?, wakeClock: Bool = true, reason: String? = nil) {
    self.route = route
    self.wakeClock = wakeClock
    self.reason = reason
  }

  /// Nothing known yet (a firer that has not looked).
  public static let unknown = WakeAbility(route: nil, reason: "not looked at")

  /// Whether the machine can be woken: a route, and a wake alarm to wake it.
  public var canWake: Bool { route != nil && wakeClock }

  /// History's `detail.wake`: `alarm-timer`, `user-timer` or `none`.
  public var historyName: String { canWake ? route!.rawValue : "none" }
}

import Foundation

/// Whether a firer can wake the machine, and where it cannot, why and the one command that
/// allows it (what `notify status` prints and `notify schedule --wake` warns with).
///
/// Pure: a probe gathers the facts of the process (`WakeFacts`), this decides.
public enum WakeDiagnosis {
  /// What the facts mean.
  public struct Verdict: Hashable, Sendable {
    /// What the firer can do.
    public var ability: WakeAbility
    /// The one command that allows it (or allows a better route), nil when nothing can or
    /// need be done.
    public var fix: String?
  }

  /// The command that gives notify what waking needs, whichever way fits (it asks before
  /// anything runs with sudo).
  public static let allowCommand = "scripts/install.sh --allow-wake"

  /// Why an allowed timer wakes nothing here.
  static let noWakeClock =
    "this machine has no wake alarm (no real-time clock with an alarm: /sys/class/rtc, as in most virtual machines), so no timer can wake it"

  /// The verdict for `facts`: the route the firer may hold a waking timer by (or why it
  /// may not, and the one command that allows it), and whether the machine has a wake alarm
  /// to be woken by it.
  public static func verdict(_ facts: WakeFacts) -> Verdict {
    var verdict = permission(facts)
    if verdict.ability.route != nil, facts.wakeClock == false {
      verdict.ability.wakeClock = false
      verdict.ability.reason = noWakeClock
      verdict.fix = nil
    }
    return verdict
  }

  /// The route by permission alone.
  static func permission(_ facts: WakeFacts) -> Verdict {
    switch facts.alarmClock {
    case .works:
      return Verdict(ability: WakeAbility(route: .alarmTimer), fix: nil)
    case .unsupported:
      return Verdict(
        ability: WakeAbility(
          route: nil,
          reason:
            "this machine has no wake alarm: the kernel offers no CLOCK_REALTIME_ALARM (no real-time clock with an alarm)"
        ), fix: nil)
    case .denied, .unknown, .exits:
      break
    }
    if facts.managerHasCapability == true {
      // The user manager holds a waking timer for the daemon; a timer of its own saves
      // the round trip and keeps working while the manager restarts.
      return Verdict(
        ability: WakeAbility(
          route: .userTimer,
          reason: facts.unit == nil
            ? nil
            : "through your user manager's timers; \(facts.unit!) lacks CAP_WAKE_ALARM for a timer of its own"
        ),
        fix: facts.unit == nil
          ? nil : "\(allowCommand) (adds AmbientCapabilities=CAP_WAKE_ALARM to \(facts.unit!))")
    }
    let program = facts.program
    if facts.alarmClock == .exits {
      return Verdict(
        ability: WakeAbility(
          route: nil,
          reason:
            "fire-due exits after its run, so only your user manager's timers could wake the machine for it, and no user manager with CAP_WAKE_ALARM was found"
        ),
        fix:
          "systemctl --user enable --now notify.service (the daemon holds the timer), then \(allowCommand)")
    }
    if let unit = facts.unit {
      let manager =
        facts.managerHasCapability == false
        ? "your user manager has none to pass on (systemd 254 and later give it to a local user's session; systemd before 254, as Debian 12's 252, does not)"
        : "no user manager with it was found"
      return Verdict(
        ability: WakeAbility(route: nil, reason: "\(unit) lacks CAP_WAKE_ALARM and \(manager)"),
        fix:
          "\(allowCommand) (with sudo: AmbientCapabilities=CAP_WAKE_ALARM for user@.service, as systemd 254 does; in effect from your next login)"
      )
    }
    if facts.noNewPrivileges {
      return Verdict(
        ability: WakeAbility(
          route: nil,
          reason:
            "\(program) lacks CAP_WAKE_ALARM and runs with no_new_privs, which keeps a file capability from taking effect"
        ),
        fix: "run notify daemon as notify.service and \(allowCommand)")
    }
    let reason =
      facts.programHasFileCapability
      ? "\(program) carries cap_wake_alarm but did not get it (a file system mounted nosuid?)"
      : "\(program) lacks CAP_WAKE_ALARM"
    return Verdict(
      ability: WakeAbility(route: nil, reason: reason),
      fix: "sudo setcap cap_wake_alarm+ep \(program) (\(allowCommand) asks, then does it)")
  }
}

extension WakeDiagnosis {
  /// What `notify schedule --wake` says on stderr when the notification `id` of `app` will
  /// not wake the machine (it is stored all the same, and fires when the machine is
  /// awake); nil when it will. `settings` are the app's in force; `firer` the facts of the
  /// firer that would keep its alarm (the running daemon's, else the last fire-due run's),
  /// nil when none runs.
  public static func scheduleWarning(
    id: String, app: String, settings: NotificationSettings, firer: WakeFacts?
  ) -> String? {
    guard settings.wake else {
      return
        "app '\(app)' may not wake the machine: '\(id)' fires when the machine is awake (notify settings --app \(app) --wake on)"
    }
    guard let firer else {
      return
        "no notify daemon runs to keep a wake alarm: '\(id)' fires when the machine is awake (systemctl --user enable --now notify.service)"
    }
    let verdict = verdict(firer)
    guard !verdict.ability.canWake else { return nil }
    let fix = verdict.fix.map { "; to allow it: \($0)" } ?? ""
    return
      "nothing here can wake the machine (\(verdict.ability.reason ?? "no CAP_WAKE_ALARM")): '\(id)' fires when the machine is awake\(fix)"
  }
}

import Foundation

/// What a probe found out about one process's chance to wake the machine (`WakeDiagnosis`
/// decides from it): whether it could create an alarm timer, its capabilities, whether it
/// runs under systemd, and whether its user manager has `CAP_WAKE_ALARM` to hold a waking
/// timer for it. Kept by the daemon in the store for `notify status`, as JSON.
public struct WakeFacts: Hashable, Sendable {
  /// What `timerfd_create(CLOCK_REALTIME_ALARM)` answered.
  public enum AlarmClock: String, Hashable, Sendable {
    /// It made one: this process can wake the machine.
    case works
    /// `EPERM`: the process lacks `CAP_WAKE_ALARM`.
    case denied
    /// `EINVAL`, `EOPNOTSUPP`, `ENODEV`: the kernel has no wake alarm here (no RTC alarm).
    case unsupported
    /// It made one, but the firer exits after its run (`notify fire-due`): a timer of its
    /// own would close with it.
    case exits
    /// Not tried.
    case unknown
  }

  /// The alarm clock's answer.
  public var alarmClock: AlarmClock
  /// Whether the machine has a wake alarm: `clock_gettime(CLOCK_REALTIME_ALARM)` answers
  /// only where a real-time clock with an alarm is (`/sys/class/rtc`); nil when unknown.
  public var wakeClock: Bool?
  /// Whether `CAP_WAKE_ALARM` is in the process's effective set.
  public var hasCapability: Bool
  /// Whether `no_new_privs` is set (systemd sets it for a user unit's hardening): a file
  /// capability cannot raise anything then.
  public var noNewPrivileges: Bool
  /// The unit the process runs in under the user's systemd manager (`notify.service`), nil
  /// when not under one.
  public var unit: String?
  /// Whether the user's systemd manager has `CAP_WAKE_ALARM` (its permitted set); nil when
  /// unknown (no manager found).
  public var managerHasCapability: Bool?
  /// The program's path (`/proc/self/exe`).
  public var program: String
  /// Whether the program file carries `cap_wake_alarm` as a file capability.
  public var programHasFileCapability: Bool

  /// Creates the facts.
  public init(
    alarmClock: AlarmClock, wakeClock: Bool? = true, hasCapability: Bool = false,
    noNewPrivileges: Bool = false, unit: String? = nil,
    managerHasCapability: Bool? = nil, program: String = "notify", programHasFileCapability: Bool = false
  ) {
    self.alarmClock = alarmClock
    self.wakeClock = wakeClock
    self.hasCapability = hasCapability
    self.noNewPrivileges = noNewPrivileges
    self.unit = unit
    self.managerHasCapability = managerHasCapability
    self.program = program
    self.programHasFileCapability = programHasFileCapability
  }

  /// The facts as the store keeps them.
  public var jsonValue: JSONValue {
    var members: [String: JSONValue] = [
      "alarmClock": .string(alarmClock.rawValue), "hasCapability": .bool(hasCapability),
      "noNewPrivileges": .bool(noNewPrivileges), "program": .string(program),
      "programHasFileCapability": .bool(programHasFileCapability),
    ]
    members["unit"] = unit.map(JSONValue.string) ?? .null
    members["wakeClock"] = wakeClock.map(JSONValue.bool) ?? .null
    members["managerHasCapability"] = managerHasCapability.map(JSONValue.bool) ?? .null
    return .object(members)
  }

  /// Reads `jsonValue` back; nil for what this version cannot read.
  public init?(json: JSONValue?) {
    guard case .object(let members)? = json, case .string(let clock)? = members["alarmClock"],
      let alarmClock = AlarmClock(rawValue: clock)
    else { return nil }
    func flag(_ key: String) -> Bool? {
      if case .bool(let value)? = members[key] { return value }
      return nil
    }
    var program = "notify"
    if case .string(let path)? = members["program"] { program = path }
    var unit: String?
    if case .string(let name)? = members["unit"] { unit = name }
    self.init(
      alarmClock: alarmClock, wakeClock: flag("wakeClock"), hasCapability: flag("hasCapability") ?? false,
      noNewPrivileges: flag("noNewPrivileges") ?? false, unit: unit,
      managerHasCapability: flag("managerHasCapability"), program: program,
      programHasFileCapability: flag("programHasFileCapability") ?? false)
  }
}

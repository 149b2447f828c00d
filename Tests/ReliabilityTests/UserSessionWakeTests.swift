import Foundation
import Glibc
import NotifyCore
import NotifyTestSupport
import Testing

/// Waking the machine in a real login session, under a real `systemd --user` as the
/// unprivileged test user (`UserManager`), whose manager lacks CAP_WAKE_ALARM as on Debian
/// 12 (systemd 252): `notify status` says the daemon cannot wake the machine, why, and the
/// one command that allows it; after the documented step it can.
@Suite("A real session: whether notify may wake the machine", .needsUserManager, .ownThreads)
struct UserSessionWakeTests {
  /// `notify status`'s `wake: …` line, and its exit status.
  static func statusLine(_ manager: UserManager) throws -> (line: String, status: Int32) {
    let result = try manager.notify("status")
    let line = result.stdout.split(separator: "\n").first { $0.hasPrefix("wake: ") }.map(String.init) ?? ""
    return (line, result.status)
  }

  /// The pid of `notify daemon` in notify.service, once it runs and has told the store.
  static func daemon(_ manager: UserManager) throws -> pid_t? {
    var pid: pid_t?
    _ = try waitUntil(timeout: 60, interval: 0.1) {
      guard try manager.property("ActiveState", of: "notify.service") == "active",
        let main = pid_t(try manager.property("MainPID", of: "notify.service")), main > 0,
        try manager.notify("status").stdout.contains("daemon: running (pid \(main)")
      else { return false }
      pid = main
      return true
    }
    return pid
  }

  @Test(
    "status says the daemon cannot wake the machine and why; after --allow-wake (and the login it needs) it may"
  )
  func statusAndAllowStep() throws {
    // Given notify installed and its daemon running under a user manager without
    // CAP_WAKE_ALARM, and a notification that asks to wake the machine in an hour
    let (manager, _) = try UserManagerTests.installed()
    #expect(try manager.systemctl("enable", "--now", "notify.service").status == 0)
    let first = try #require(try Self.daemon(manager))
    let scheduled = try manager.notify(
      "schedule", "--in", "1h", "--wake", "--id", "alarm", "--title", "Wake up")
    // Then schedule stores it and says on stderr that it fires when the machine is awake
    #expect(scheduled.status == 0, "\(scheduled.stderr)")
    #expect(
      scheduled.stderr.contains("fires when the machine is awake")
        && scheduled.stderr.contains("scripts/install.sh --allow-wake"), "\(scheduled.stderr)")
    // And status says this daemon cannot wake it, why, and the one command that allows it,
    // and exits 1 (a waking notification is pending)
    let before = try Self.statusLine(manager)
    #expect(before.status == 1)
    #expect(before.line.contains("this daemon cannot wake the machine"), "\(before.line)")
    #expect(before.line.contains("notify.service lacks CAP_WAKE_ALARM"), "\(before.line)")
    #expect(before.line.contains("systemd before 254"), "\(before.line)")
    #expect(before.line.contains("to allow it: scripts/install.sh --allow-wake"), "\(before.line)")
    // And the daemon holds no alarm timer
    #expect(TimerDescriptor.of(first).allSatisfy { !$0.isAlarm })
    // When the documented step is taken: the root part (AmbientCapabilities=CAP_WAKE_ALARM
    // for user@.service, in effect from the next login: here the fixture's grant and a new
    // login), then the user's own `scripts/install.sh --allow-wake`
    try manager.grant("wake_alarm")
    try manager.relogin()
    let allowed = try manager.run(["bash", "\(manager.home)/src/scripts/install.sh", "--allow-wake", "--yes"])
    #expect(allowed.status == 0, "\(allowed.stdout) \(allowed.stderr)")
    #expect(allowed.stdout.contains("notify.service.d/wake.conf"), "\(allowed.stdout)")
    // Then the daemon (restarted) may wake the machine with an alarm timer of its own, and
    // holds one armed for the waking notification less the lead
    let second = try #require(try Self.daemon(manager))
    #expect(second != first)
    let after = try Self.statusLine(manager)
    #expect(
      after.line.contains("wake the machine (an alarm timer of its own, CAP_WAKE_ALARM)"), "\(after.line)")
    #expect(!after.line.contains("cannot"), "\(after.line)")
    #expect(
      waitUntil(timeout: 30, interval: 0.1) {
        TimerDescriptor.armedAlarms(of: second).contains { abs($0.remaining - (3600 - 60)) < 30 }
      }, "\(TimerDescriptor.of(second))")
    print("user session wake: before: \(before.line)\nuser session wake: after: \(after.line)")
  }
}

/// Whether the machine has a wake alarm (a real-time clock with an alarm): systemd refuses
/// a `WakeSystem=` timer without one (`Failed to enter waiting state: Operation not
/// supported`), as in most virtual machines.
let wakeClockUnavailable: String? =
  FileManager.default.fileExists(atPath: "/sys/class/rtc/rtc0/wakealarm")
  ? nil
  : "no real-time clock with an alarm here (/sys/class/rtc/rtc0/wakealarm): systemd refuses WakeSystem= timers (EOPNOTSUPP), so the user-timer route cannot be seen armed"

@Suite(
  "A real session: fire-due's waking timer in the user manager", .needsUserManager, .ownThreads,
  .enabled(if: wakeClockUnavailable == nil, Comment(rawValue: wakeClockUnavailable ?? "")))
struct UserTimerWakeTests {
  @Test(
    "fire-due leaves a WakeSystem timer in the user manager armed for the earliest waking notification less the lead"
  )
  func fireDueArmsTheManager() throws {
    // Given a user manager with CAP_WAKE_ALARM (systemd 254 and later), notify installed,
    // no daemon, and a notification that asks to wake the machine in an hour
    let (manager, folder) = try UserManagerTests.installed()
    try manager.grant("wake_alarm")
    try manager.relogin()
    #expect(
      try manager.notify("schedule", "--in", "1h", "--wake", "--id", "alarm", "--title", "x").status == 0)
    // When the fire-due timer's run ends
    #expect(try manager.systemctl("start", "notify-fire.service").status == 0)
    // Then the manager holds a waking timer for it, one lead ahead, that runs fire-due
    let managerPID = try #require(
      pid_t(
        try String(contentsOfFile: folder.file("user-manager/manager.pid"), encoding: .utf8)
          .trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(
      waitUntil(timeout: 30, interval: 0.1) {
        TimerDescriptor.armedAlarms(of: managerPID).contains { abs($0.remaining - (3600 - 60)) < 30 }
      }, "\(TimerDescriptor.of(managerPID))")
    let timers = try manager.systemctl("list-timers", "--all", "--no-legend")
    #expect(timers.stdout.contains("notify-wake-"), "\(timers.stdout)")
    // And status says the last fire-due run can wake the machine through the manager's timers
    let status = try manager.notify("status")
    #expect(
      status.stdout.contains("can wake the machine (through your user manager's timers)"), "\(status.stdout)")
    // When the notification is cancelled and fire-due runs again, the timer goes
    #expect(try manager.notify("cancel", "alarm").status == 0)
    #expect(try manager.systemctl("start", "notify-fire.service").status == 0)
    #expect(waitUntil(timeout: 30, interval: 0.1) { TimerDescriptor.armedAlarms(of: managerPID).isEmpty })
  }
}

@Suite("A real session: the waking timer fire-due asks the user manager for", .needsUserManager, .ownThreads)
struct UserTimerUnitTests {
  @Test(
    "a transient WakeSystem timer for the earliest waking notification less the lead, running fire-due; gone when none is left"
  )
  func transientTimer() throws {
    // Given a user manager with CAP_WAKE_ALARM (systemd 254 and later; here the fixture's
    // grant and a new login), notify installed, no daemon, and a waking notification in an
    // hour. Without a real-time clock alarm systemd cannot arm the timer, so the test takes
    // one as there (NOTIFY_WAKE_CLOCK) to see the unit fire-due asks for.
    let (manager, _) = try UserManagerTests.installed()
    try manager.grant("wake_alarm")
    try manager.relogin()
    #expect(try manager.systemctl("set-environment", "NOTIFY_WAKE_CLOCK=present").status == 0)
    let due = Date() + 3600
    let at = RFC3339.string(from: Date(timeIntervalSince1970: due.timeIntervalSince1970.rounded(.down)))
    #expect(try manager.notify("schedule", "--at", at, "--wake", "--id", "alarm", "--title", "x").status == 0)
    // When the fire-due timer's run ends
    #expect(try manager.systemctl("start", "notify-fire.service").status == 0)
    // Then the manager has a transient timer that wakes the system a lead ahead, and runs
    // fire-due on the same store
    let units = try manager.systemctl("list-units", "--all", "--plain", "--no-legend", "notify-wake-*.timer")
    let name = try #require(
      units.stdout.split(whereSeparator: \.isWhitespace).first { $0.hasSuffix(".timer") }.map(String.init),
      "\(units.stdout)")
    let timer = try manager.properties(["WakeSystem", "TimersCalendar", "Triggers"], of: name)
    #expect(timer["WakeSystem"] == "yes", "\(timer)")
    let wakeAt = Date(timeIntervalSince1970: due.timeIntervalSince1970.rounded(.down) - 60)
    let calendar = RFC3339.string(from: wakeAt).replacingOccurrences(of: "T", with: " ")
      .replacingOccurrences(of: "Z", with: "")
    #expect(timer["TimersCalendar"]?.contains(calendar) == true, "\(timer) \(calendar)")
    let service = try #require(timer["Triggers"])
    let exec = try manager.property("ExecStart", of: service)
    #expect(exec.contains("fire-due") && exec.contains(".local/state/notify/notify.db"), "\(exec)")
    // When the notification is cancelled and fire-due runs again
    #expect(try manager.notify("cancel", "alarm").status == 0)
    #expect(try manager.systemctl("start", "notify-fire.service").status == 0)
    // Then the timer is gone
    let left = try manager.systemctl("list-units", "--all", "--plain", "--no-legend", "notify-wake-*.timer")
    #expect(!left.stdout.contains("notify-wake-"), "\(left.stdout)")
  }
}

import Foundation
import Glibc
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// The wake-capable timer of a firer that stays (`notify daemon`, an app firing in
/// process): as `/proc/PID/fdinfo` shows it, a `timerfd` on `CLOCK_REALTIME_ALARM`
/// (`clockid: 8`) armed for the earliest waking notification minus the wake lead, and none
/// at all while no pending notification wakes the machine. No machine here can suspend:
/// what the kernel would wake it for is what is checked.
@Suite("waking the machine: the alarm timer", .serialized, .ownThreads, .needsWakeAlarm)
struct WakeAlarmFiringTests {
  /// Schedules `id` of app `test` at `date` through the CLI, waking the machine or not.
  func schedule(_ id: String, at date: Date, wake: Bool, db: String) throws {
    let result = try notify(
      ["schedule", "--app", "test", "--id", id, "--at", rfc3339(date), "--title", id]
        + (wake ? ["--wake"] : []),
      db: db)
    #expect(result.status == 0, "\(result.stderr)")
  }

  /// Waits until `pid` holds exactly one armed alarm timer expiring `expected` seconds from
  /// now (within a second), or none when `expected` is nil; the timers last seen.
  func waitAlarm(_ pid: pid_t, expiringAt expected: Date?) -> [TimerDescriptor] {
    var seen: [TimerDescriptor] = []
    _ = waitUntil(timeout: 30, interval: 0.05) {
      seen = TimerDescriptor.armedAlarms(of: pid)
      guard let expected else { return seen.isEmpty }
      return seen.count == 1 && abs(seen[0].remaining - expected.timeIntervalSinceNow) < 1
    }
    return seen
  }

  @Test(
    "armed for the earliest waking notification minus the lead; moved with the lead; none when none wakes",
    arguments: FiringDriver.allCases)
  func armedForEarliest(driver: FiringDriver) throws {
    // Given a plain notification in 20 minutes and two waking ones, in 1 h and 2 h
    let f = try FiringFixture()
    let now = Date()
    try schedule("plain", at: now + 1200, wake: false, db: f.path)
    try schedule("wake1", at: now + 3600, wake: true, db: f.path)
    try schedule("wake2", at: now + 7200, wake: true, db: f.path)
    // When a firer runs
    let firer = try ChildProcess.firer(driver, db: f.path, folder: f.folder, name: "d")
    #expect(firer.waitReady(), "\(firer.stderr)")
    // Then it holds one alarm timer, armed for the earliest waking one less the default
    // lead (60 s), not for the plain one due sooner
    var alarms = waitAlarm(firer.pid, expiringAt: now + 3600 - 60)
    #expect(alarms.count == 1 && alarms.first?.clockID == 8, "\(alarms) \(firer.stderr)")
    // When the user sets the lead to 5 minutes
    #expect(try notify(["settings", "--wake-lead", "5m"], db: f.path).status == 0)
    // Then the timer moves to 5 minutes ahead
    alarms = waitAlarm(firer.pid, expiringAt: now + 3600 - 300)
    #expect(alarms.count == 1, "\(alarms)")
    // When the user does not let the app wake the machine
    #expect(try notify(["settings", "--app", "test", "--wake", "off"], db: f.path).status == 0)
    // Then there is no alarm timer at all
    alarms = waitAlarm(firer.pid, expiringAt: nil)
    #expect(alarms.isEmpty, "\(alarms)")
    #expect(TimerDescriptor.of(firer.pid).allSatisfy { !$0.isAlarm }, "the alarm timer was not closed")
    // When it is let again, and the earliest waking one is cancelled
    #expect(try notify(["settings", "--app", "test", "--wake", "on"], db: f.path).status == 0)
    #expect(try notify(["cancel", "--app", "test", "wake1"], db: f.path).status == 0)
    // Then it is armed for the next waking one
    alarms = waitAlarm(firer.pid, expiringAt: now + 7200 - 300)
    #expect(alarms.count == 1, "\(alarms)")
    // When the last waking one is cancelled, only the plain one left
    #expect(try notify(["cancel", "--app", "test", "wake2"], db: f.path).status == 0)
    // Then no alarm timer is left
    alarms = waitAlarm(firer.pid, expiringAt: nil)
    #expect(alarms.isEmpty, "\(alarms)")
    firer.send(SIGTERM)
    #expect(firer.waitExit() == 0, "\(firer.stderr)")
  }

  @Test("no alarm timer when nothing pending wakes the machine", arguments: FiringDriver.allCases)
  func noneWithoutWaking(driver: FiringDriver) throws {
    // Given only plain notifications
    let f = try FiringFixture()
    try schedule("plain", at: Date() + 600, wake: false, db: f.path)
    // When a firer runs and has armed its timer (READY=1 comes after its first wake-up)
    let firer = try ChildProcess.firer(driver, db: f.path, folder: f.folder, name: "d")
    #expect(firer.waitReady(), "\(firer.stderr)")
    // Then it holds a realtime timer for the plain one and no alarm timer
    let timers = TimerDescriptor.of(firer.pid)
    #expect(timers.contains { $0.clockID == 0 && $0.isArmed }, "\(timers)")
    #expect(!timers.contains { $0.isAlarm }, "\(timers)")
    firer.send(SIGTERM)
    #expect(firer.waitExit() == 0, "\(firer.stderr)")
  }

  @Test("a waking notification's delivery records what could wake the machine (detail.wake)")
  func historyRecordsWake() throws {
    // Given a waking notification due in 2 s and a daemon that can hold an alarm timer
    let f = try FiringFixture()
    try schedule("soon", at: Date() + 2, wake: true, db: f.path)
    let firer = try ChildProcess.firer(.daemon, db: f.path, folder: f.folder, name: "d")
    #expect(firer.waitReady(), "\(firer.stderr)")
    // (what it found it can do, as status shows it: a machine without a real-time clock
    // with an alarm cannot be woken even by an allowed timer)
    let status = try notify(["status", "--json"], db: f.path)
    let wake = try #require(
      (try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])?["wake"]
        as? [String: Any], "\(status.stdout)")
    #expect(wake["allowed"] as? Bool == true && wake["route"] as? String == "alarm-timer", "\(wake)")
    let expected = wake["canWake"] as? Bool == true ? "alarm-timer" : "none"
    // When it is delivered
    #expect(waitUntil(timeout: 20) { !firer.deliveries.isEmpty }, "\(firer.stderr)")
    #expect(f.waitSettled())
    firer.send(SIGTERM)
    #expect(firer.waitExit() == 0)
    // Then history says what could wake the machine for it: an alarm timer of its own,
    // where the machine has a wake alarm
    let delivered = try #require(try f.events(.delivered).first)
    #expect(delivered.detail["wake"] == .string(expected), "\(delivered.detail)")
  }
}

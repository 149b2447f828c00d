import Foundation
import Glibc
import NotifyTestSupport
import Testing

/// notify's units under a real `systemd --user` (`UserManager`, one per test, in a mount
/// namespace of its own), installed the way a user installs them: `scripts/install.sh
/// --binary` as the test user into the user's ~/.local. What only the real manager does:
/// `Type=notify` readiness and `STATUS=`, the watchdog, the stop timeout, restarts, the
/// timer, `[Install]` at login, the journal.
///
/// No notification server is on the user's bus (the fixture's headless login), so the
/// daemon delivers to stdout, that is to the journal.
@Suite("Reliability: notify's units under systemd --user", .needsUserManager, .ownThreads)
struct UserManagerTests {
  /// A user manager with notify installed by install.sh, not enabled: nothing runs yet.
  static func installed() throws -> (UserManager, TemporaryFolder) {
    let folder = TemporaryFolder(prefix: "notify-um")
    let manager = try UserManager(in: folder)
    let installed = try manager.installNotify(enable: false)
    try #require(installed.status == 0, "install.sh: \(installed.stdout) \(installed.stderr)")
    return (manager, folder)
  }

  /// `notify history --json` of `app`, as the user: the events as objects.
  static func history(_ manager: UserManager, app: String) throws -> [[String: Any]] {
    let result = try manager.notify("history", "--json", "--app", app)
    try #require(result.status == 0, "notify history: \(result.stderr)")
    return (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]) ?? []
  }

  /// True when history has `event` for `id` of `app`.
  static func recorded(_ manager: UserManager, _ event: String, id: String, app: String) throws -> Bool {
    try history(manager, app: app).contains { $0["event"] as? String == event && $0["id"] as? String == id }
  }

  /// Waits until history says `id` of `app` was delivered, then for the journal's records
  /// of it from `unit` (`deliveryRecords`), which it returns.
  static func delivered(_ manager: UserManager, unit: String, id: String, app: String) throws
    -> [[String: String]]
  {
    #expect(
      try waitUntil(timeout: 30, interval: 0.1) { try recorded(manager, "delivered", id: id, app: app) })
    var records: [[String: String]] = []
    _ = try waitUntil(timeout: 10, interval: 0.1) {
      records = try deliveryRecords(manager, unit: unit, id: id, app: app)
      return !records.isEmpty
    }
    return records
  }

  /// The journal entries of `unit` that record a delivery of `id` of `app` (the
  /// `delivered` or `delivered late` record with `NOTIFY_ID`/`NOTIFY_APP`).
  static func deliveryRecords(_ manager: UserManager, unit: String, id: String, app: String) throws
    -> [[String: String]]
  {
    try manager.journal(unit: unit).filter {
      $0["MESSAGE"]?.hasPrefix("delivered") == true && $0["NOTIFY_ID"] == id && $0["NOTIFY_APP"] == app
    }
  }

  @Test(
    "Type=notify: start returns once the daemon is ready, with its STATUS= and watchdog, in its own cgroup")
  func readiness() throws {
    // Given notify installed for the user, the daemon not started
    let (manager, _) = try Self.installed()
    #expect(try manager.property("ActiveState", of: "notify.service") == "inactive")

    // When the user starts it
    let started = try manager.systemctl("start", "notify.service")

    // Then start returned once the daemon was ready: active, running, with the status
    // text only sd_notify sets, the unit's watchdog armed, in its own cgroup under app.slice
    #expect(started.status == 0, "\(started.stderr)")
    let unit = try manager.properties(
      ["Type", "ActiveState", "SubState", "StatusText", "MainPID", "WatchdogUSec", "NotifyAccess"],
      of: "notify.service")
    #expect(unit["Type"] == "notify")
    #expect(unit["ActiveState"] == "active")
    #expect(unit["SubState"] == "running")
    #expect(unit["StatusText"] == "0 pending, nothing scheduled; delivering to stdout")
    #expect(unit["WatchdogUSec"] == "2min")
    #expect(unit["NotifyAccess"] == "main")
    let pid = try #require(pid_t(unit["MainPID"] ?? ""))
    #expect(manager.unit(ofProcess: pid) == "notify.service", "\(manager.cgroup(ofProcess: pid) ?? "gone")")
    #expect(try manager.processes(ofUnit: "notify.service") == [pid])
    #expect(
      manager.cgroup(ofProcess: pid)?.hasSuffix("/user@\(manager.uid).service/app.slice/notify.service")
        == true)

    // And when two notifications are scheduled, STATUS= follows the store
    for (id, delay) in [("later", "1h"), ("sooner", "30m")] {
      let scheduled = try manager.notify("schedule", "--in", delay, "--id", id, "--app", "um", "--title", id)
      #expect(scheduled.status == 0, "\(scheduled.stderr)")
    }
    let status = try manager.waitFor("StatusText", of: "notify.service") {
      $0.hasPrefix("2 pending, next at ")
    }
    #expect(status.hasPrefix("2 pending, next at "), "StatusText=\(status)")
  }

  @Test(
    "A scheduled notification is delivered by the daemon and recorded in the journal once, with id and app")
  func delivery() throws {
    // Given the daemon running under the manager
    let (manager, _) = try Self.installed()
    let started = try manager.systemctl("start", "notify.service")
    try #require(started.status == 0, "\(started.stderr)")

    // When the user schedules a notification a second ahead
    let body = "the body \(UUID().uuidString)"
    let scheduled = try manager.notify(
      "schedule", "--in", "1s", "--id", "um-delivery", "--app", "um", "--title", "Hello", "--body", body)
    try #require(scheduled.status == 0, "\(scheduled.stderr)")

    // Then the daemon delivers it (history says so), and its journal holds one record
    // of that delivery, with the id and app as fields
    let records = try Self.delivered(manager, unit: "notify.service", id: "um-delivery", app: "um")
    #expect(records.count == 1, "\(records)")
    #expect(records.first?["_SYSTEMD_USER_UNIT"] == "notify.service")
    #expect(records.first?["NOTIFY_OCCURRENCE"] == "1")

    // And nothing private reached the journal: with no notification server the daemon
    // delivers to stdout, which is the journal, and the stdout sink writes no content there
    let messages = try manager.journalMessages(unit: "notify.service")
    #expect(!messages.contains { $0.contains(body) || $0.contains("Hello") }, "\(messages)")
    #expect(try Self.history(manager, app: "um").contains { $0["body"] as? String == body })
  }

  @Test("The watchdog: a daemon that pings stays up past WatchdogSec, a stopped one is killed and restarted")
  func watchdog() throws {
    // Given the daemon with a two-second watchdog (the unit's 2 min, shortened by a
    // drop-in: sd-event pings about every second), a quick restart and a short abort
    // timeout
    let (manager, _) = try Self.installed()
    try manager.addDropIn(
      "notify.service", "[Service]\nWatchdogSec=2s\nRestartSec=100ms\nTimeoutAbortSec=1s\n")
    let started = try manager.systemctl("start", "notify.service")
    try #require(started.status == 0, "\(started.stderr)")
    #expect(try manager.property("WatchdogUSec", of: "notify.service") == "2s")
    let pid = try manager.property("MainPID", of: "notify.service")

    // When it runs for more than a watchdog interval
    // Then its pings keep coming (each moves WatchdogTimestamp, in microseconds), spanning
    // more than WatchdogSec, and it stays the same process
    var pings: Set<Int> = []
    let span = { (pings.max() ?? 0) - (pings.min() ?? 0) }
    _ = try waitUntil(timeout: 20, interval: 0.1) {
      if let ping = Int(try manager.property("WatchdogTimestampMonotonic", of: "notify.service")) {
        pings.insert(ping)
      }
      return pings.count >= 3 && span() > 2_000_000
    }
    #expect(pings.count >= 3 && span() > 2_000_000, "watchdog timestamps seen: \(pings.sorted())")
    let running = try manager.properties(["ActiveState", "MainPID", "NRestarts"], of: "notify.service")
    #expect(running == ["ActiveState": "active", "MainPID": pid, "NRestarts": "0"])

    // When it stops pinging (SIGSTOP)
    let stopped = try manager.run(["kill", "-STOP", pid])
    try #require(stopped.status == 0, "\(stopped.stderr)")

    // Then the manager kills it on the watchdog timeout and restarts it (Restart=on-failure)
    let restarts = try manager.waitFor("NRestarts", of: "notify.service") { $0 != "0" }
    #expect(restarts == "1")
    let state = try manager.waitFor("ActiveState", of: "notify.service") { $0 == "active" }
    #expect(state == "active")
    #expect(try manager.property("MainPID", of: "notify.service") != pid)
    #expect(try manager.journalMessages(unit: "notify.service").contains { $0.contains("Watchdog timeout") })
  }

  @Test("restart gives a new ready daemon; stop ends it on SIGTERM within TimeoutStopSec")
  func restartAndStop() throws {
    // Given the daemon enabled (so that the manager keeps the unit, and its exit status,
    // loaded once it is stopped) and running
    let (manager, _) = try Self.installed()
    let started = try manager.systemctl("enable", "--now", "notify.service")
    try #require(started.status == 0, "\(started.stderr)")
    let first = try manager.property("MainPID", of: "notify.service")

    // When the user restarts it
    let restarted = try manager.systemctl("restart", "notify.service")

    // Then a new process is running and ready when restart returns
    #expect(restarted.status == 0, "\(restarted.stderr)")
    let after = try manager.properties(["ActiveState", "MainPID", "StatusText"], of: "notify.service")
    #expect(after["ActiveState"] == "active")
    #expect(after["MainPID"] != first && after["MainPID"] != "0")
    #expect(after["StatusText"] == "0 pending, nothing scheduled; delivering to stdout")

    // When the user stops it
    #expect(try manager.property("TimeoutStopUSec", of: "notify.service") == "10s")
    let stopped = try manager.systemctl("stop", "notify.service")

    // Then it exited by itself on SIGTERM with status 0 (past TimeoutStopSec the manager
    // would have killed it: Result=timeout, a signal for ExecMainCode, "timed out" logged)
    #expect(stopped.status == 0, "\(stopped.stderr)")
    let end = try manager.properties(
      ["ActiveState", "Result", "ExecMainCode", "ExecMainStatus"], of: "notify.service")
    #expect(
      end == ["ActiveState": "inactive", "Result": "success", "ExecMainCode": "1", "ExecMainStatus": "0"])
    let messages = try manager.journalMessages(unit: "notify.service")
    #expect(messages.contains("stopping on SIGTERM"))
    #expect(messages.contains { $0.hasPrefix("Stopped notify.service") }, "\(messages)")
    #expect(!messages.contains { $0.contains("timed out") }, "\(messages)")
  }

  @Test("notify-fire.timer: minutely, runs notify-fire.service, whose fire-due delivers what is due")
  func timer() throws {
    // Given notify installed, the daemon not running, and a notification due now
    let (manager, _) = try Self.installed()
    let scheduled = try manager.notify(
      "schedule", "--at", rfc3339(Date() - 1), "--id", "by-hand", "--app", "um", "--title", "due")
    try #require(scheduled.status == 0, "\(scheduled.stderr)")

    // When the user enables the timer
    let enabled = try manager.systemctl("enable", "--now", "notify-fire.timer")

    // Then it waits for the next whole minute
    #expect(enabled.status == 0, "\(enabled.stderr)")
    let timers = try manager.systemctl("list-timers", "--all", "--output=json")
    let listed = try JSONSerialization.jsonObject(with: Data(timers.stdout.utf8)) as? [[String: Any]] ?? []
    let microseconds = try #require(
      listed.first { $0["unit"] as? String == "notify-fire.timer" }?["next"] as? Int, "\(timers.stdout)")
    let elapse = microseconds / 1_000_000
    let now = Int(Date().timeIntervalSince1970)
    #expect(microseconds % 60_000_000 == 0, "next elapse at @\(elapse)")
    #expect(elapse > now - 2 && elapse <= now + 61, "next elapse at @\(elapse), now @\(now)")

    // When its service is started as the timer starts it
    let fired = try manager.systemctl("start", "notify-fire.service", timeout: 60)

    // Then the one-shot fire-due run delivered the due notification and exited 0
    #expect(fired.status == 0, "\(fired.stderr)")
    let run = try manager.properties(["Result", "ExecMainCode", "ExecMainStatus"], of: "notify-fire.service")
    #expect(run == ["Result": "success", "ExecMainCode": "1", "ExecMainStatus": "0"])
    #expect(try Self.recorded(manager, "delivered", id: "by-hand", app: "um"))
    // (the journal indexes the run's record a moment later: waited for, then counted)
    #expect(try Self.delivered(manager, unit: "notify-fire.service", id: "by-hand", app: "um").count == 1)

    // When the timer fires every two seconds instead (a drop-in) and another one falls due
    try manager.addDropIn("notify-fire.timer", "[Timer]\nOnCalendar=\nOnCalendar=*:*:0/2\n")
    let again = try manager.notify(
      "schedule", "--at", rfc3339(Date() - 1), "--id", "by-timer", "--app", "um", "--title", "due")
    try #require(again.status == 0, "\(again.stderr)")

    // Then the timer starts notify-fire.service, which delivers it
    let records = try Self.delivered(manager, unit: "notify-fire.service", id: "by-timer", app: "um")
    #expect(records.count == 1, "\(records)")
    #expect(try manager.property("LastTriggerUSecMonotonic", of: "notify-fire.timer") != "0")
    let result = try manager.waitFor("Result", of: "notify-fire.service") { $0 == "success" }
    #expect(result == "success")
  }

  @Test(
    "install.sh enables the daemon: it runs at once, and again at the next login (WantedBy=default.target)")
  func enabledAtLogin() throws {
    // Given notify installed by install.sh with enabling (its default)
    let folder = TemporaryFolder(prefix: "notify-um")
    let manager = try UserManager(in: folder)
    let installed = try manager.installNotify(enable: true)
    try #require(installed.status == 0, "install.sh: \(installed.stdout) \(installed.stderr)")

    // Then the daemon is enabled and running
    let now = try manager.properties(["UnitFileState", "ActiveState", "MainPID"], of: "notify.service")
    #expect(now["UnitFileState"] == "enabled")
    #expect(now["ActiveState"] == "active")

    // When the user logs out and in again
    try manager.relogin()

    // Then the manager started it at login, a new process, with nothing asked
    let after = try manager.properties(["ActiveState", "MainPID", "StatusText"], of: "notify.service")
    #expect(after["ActiveState"] == "active")
    #expect(after["MainPID"] != now["MainPID"] && after["MainPID"] != "0")
    #expect(after["StatusText"] == "0 pending, nothing scheduled; delivering to stdout")
  }
}

import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// Quiet hours in the one firing engine, whoever fires: held durably while quiet, shown when
/// quiet ends, critical ones and apps let through shown anyway.
@Suite(.ownThreads)
struct QuietHoursFiringTests {
  func history(_ f: FiringFixture, _ kind: HistoryEvent.Kind) -> [String] {
    ((try? f.events(kind)) ?? []).map(\.notificationID)
  }

  func quiet(_ f: FiringFixture, _ arguments: String...) throws {
    let result = try notify(["quiet"] + arguments, db: f.path)
    #expect(result.status == 0, "\(result.stderr)")
  }

  @Test(
    "quiet: held and not shown, critical shown; quiet off: each held one shown once, late",
    arguments: StdoutFirer.allCases)
  func holdsAndReleases(firer: StdoutFirer) throws {
    // Given quiet hours on, and a firer
    let f = try FiringFixture()
    try quiet(f, "on")
    let firing = try StdoutFiring(f, firer)
    // When two notifications and a critical one fall due
    let due = Date() + (firer == .fireDue ? 0 : 0.3)
    try f.schedule("one", at: due)
    try f.schedule("two", at: due)
    _ = try f.store.schedule(
      LocalNotification(
        id: "urgent", app: "test", schedule: Schedule(fireDate: .instant(due)), title: "urgent",
        urgency: .critical,
        createdAt: due), zones: .utc)
    try firing.act()
    // Then the two are held, in history and the store, and only the critical one is shown
    #expect(
      waitUntil(timeout: 10) { Set(history(f, .held)) == ["one", "two"] },
      "\(firing.resident?.stderr ?? "")")
    #expect(waitUntil(timeout: 10) { firing.printed.map(\.id) == ["urgent"] })
    #expect(try f.store.heldCount(app: "test") == 2)
    // When quiet is turned off
    try quiet(f, "off")
    try firing.act()
    // Then each held one is shown once, late, and recorded delivered
    #expect(waitUntil(timeout: 10) { firing.printed.count == 3 }, "\(firing.resident?.stderr ?? "")")
    let shown = firing.printed
    #expect(shown.map(\.id) == ["urgent", "one", "two"])
    #expect(shown.dropFirst().allSatisfy { $0.late })
    #expect(waitUntil(timeout: 5) { Set(history(f, .delivered)) == ["urgent", "one", "two"] })
    #expect(try f.store.heldCount(app: nil) == 0)
    // And nothing more comes (a second look finds nothing held; counted once the store has
    // settled and the firer has stopped)
    try firing.act()
    firing.settle()
    #expect(firing.printed.count == 3)
  }

  @Test(
    "time-sensitive ones are shown during quiet unless the user turned them off for the app",
    arguments: StdoutFirer.allCases)
  func timeSensitive(firer: StdoutFirer) throws {
    // Given quiet hours on, and a firer
    let f = try FiringFixture()
    try quiet(f, "on")
    let firing = try StdoutFiring(f, firer)
    func schedule(_ id: String, _ level: InterruptionLevel) throws {
      let due = Date() + (firer == .fireDue ? 0 : 0.3)
      _ = try f.store.schedule(
        LocalNotification(
          id: id, app: "test", schedule: Schedule(fireDate: .instant(due)), title: id,
          interruptionLevel: level,
          createdAt: due), zones: .utc)
    }
    // When a time-sensitive and an active notification fall due
    try schedule("soon", .timeSensitive)
    try schedule("plain", .active)
    try firing.act()
    // Then the time-sensitive one is shown, the active one held
    #expect(waitUntil(timeout: 10) { history(f, .held) == ["plain"] }, "\(firing.resident?.stderr ?? "")")
    #expect(waitUntil(timeout: 10) { firing.printed.map(\.id) == ["soon"] })
    // When the user turns the app's time-sensitive notifications off, and another falls due
    let off = try notify(["settings", "--app", "test", "--time-sensitive", "off"], db: f.path)
    #expect(off.stdout.contains("time-sensitive off (set)"), "\(off.stdout)\(off.stderr)")
    try schedule("later", .timeSensitive)
    try firing.act()
    // Then it is held too, and nothing more is shown
    #expect(
      waitUntil(timeout: 10) { Set(history(f, .held)) == ["plain", "later"] },
      "\(firing.resident?.stderr ?? "")")
    firing.settle()
    #expect(firing.printed.map(\.id) == ["soon"])
  }

  @Test("more than three held for an app come out as one summary; an app let through is shown during quiet")
  func summaryAndBreakThrough() throws {
    // Given quiet hours on, app "loud" allowed to break through, and a daemon
    let f = try FiringFixture()
    try quiet(f, "on")
    #expect(try notify(["settings", "--app", "loud", "--break-quiet", "on"], db: f.path).status == 0)
    let firing = try StdoutFiring(f, .daemon)
    // When five of app test's fall due, and one of loud's
    let due = Date() + 0.3
    for i in 1...5 { try f.schedule("n\(i)", at: due + Double(i) * 0.01) }
    try f.schedule("through", at: due, app: "loud")
    // Then loud's is shown and the five are held
    #expect(waitUntil(timeout: 10) { history(f, .held).count == 5 }, "\(firing.resident?.stderr ?? "")")
    #expect(waitUntil(timeout: 10) { firing.printed.map(\.id) == ["through"] })
    // When quiet ends
    try quiet(f, "off")
    // Then one summary bubble says five were held, newest first, and each is in history
    #expect(waitUntil(timeout: 10) { firing.printed.count == 2 })
    let summary = try #require(firing.printed.last)
    #expect(summary.app == "test" && summary.id.hasPrefix("quiet-"))
    #expect(summary.line.contains("\"title\":\"5 notifications during quiet hours\""), "\(summary.line)")
    #expect(
      summary.line.contains(#""body":"title n5\ntitle n4\ntitle n3\ntitle n2\ntitle n1""#), "\(summary.line)")
    #expect(
      waitUntil(timeout: 5) {
        (try? f.events(.delivered).filter { $0.reason == "quiet-hours-summary" }.count) == 5
      })
    firing.stop()
  }

  @Test(
    "kill -9 during quiet hours loses nothing and shows nothing twice; a firer started after quiet ended shows what was held"
  )
  func survivesACrash() throws {
    // Given quiet hours on, and a daemon that held two notifications
    let f = try FiringFixture()
    try quiet(f, "on")
    let first = try StdoutFiring(f, .daemon, name: "first")
    let due = Date() + 0.3
    try f.schedule("a", at: due)
    try f.schedule("b", at: due)
    #expect(waitUntil(timeout: 10) { history(f, .held).count == 2 }, "\(first.log)")
    // When it is killed with SIGKILL, and a daemon starts while it is still quiet
    first.resident!.send(SIGKILL)
    _ = first.resident!.waitExit()
    let second = try StdoutFiring(f, .daemon, name: "second")
    // Then nothing is shown (a daemon is ready once its first look is done), all stays held
    #expect(first.printed.isEmpty && second.printed.isEmpty)
    #expect(try f.store.heldCount(app: nil) == 2)
    // When quiet hours end while no firer runs
    second.stop()
    try quiet(f, "off")
    // Then a daemon started afterwards shows each held one, once
    let third = try StdoutFiring(f, .daemon, name: "third")
    #expect(waitUntil(timeout: 10) { third.printed.count == 2 }, "\(third.log)")
    #expect(Set(third.printed.map(\.id)) == ["a", "b"])
    #expect(waitUntil(timeout: 5) { history(f, .delivered).count == 2 })
    #expect(history(f, .held).count == 2)
    #expect(second.printed.isEmpty)
    third.stop()
  }

  @Test("a weekly schedule in force holds; removing it releases")
  func scheduledQuiet() throws {
    // Given a schedule from a minute ago to two minutes ahead, in UTC
    let f = try FiringFixture()
    let utc = ["TZ": "UTC"]
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    func hhmm(_ date: Date) -> String {
      let parts = calendar.dateComponents([.hour, .minute], from: date)
      return String(format: "%02d:%02d", parts.hour!, parts.minute!)
    }
    let now = Date()
    let set = try CommandRunner(environment: utc).run([
      "quiet", "--from", hhmm(now - 60), "--to", hhmm(now + 120), "--db", f.path,
    ])
    #expect(set.status == 0, "\(set.stderr)")
    #expect(set.stdout.hasPrefix("quiet hours: on until "), "\(set.stdout)")
    let firing = try StdoutFiring(f, .daemon, environment: utc)
    // When a notification falls due
    try f.schedule("night", at: Date() + 0.3)
    // Then it is held
    #expect(waitUntil(timeout: 10) { history(f, .held) == ["night"] }, "\(firing.resident?.stderr ?? "")")
    // When the schedule is removed, it is shown
    #expect(try CommandRunner(environment: utc).run(["quiet", "--no-schedule", "--db", f.path]).status == 0)
    #expect(waitUntil(timeout: 10) { firing.printed.map(\.id) == ["night"] })
    firing.stop()
  }
}

/// Quiet hours on a real desktop: dunst on Xvfb and a session bus.
@Suite(
  .serialized, .needsHeadlessDesktop, .ownThreads)
struct QuietHoursDesktopTests {
  @Test("while quiet dunst shows only the critical one; when quiet ends it shows what was held")
  func dunstShowsNothingWhileQuiet() throws {
    // Given a desktop, quiet hours on, and a daemon
    let desktop = try HeadlessDesktop()
    let f = try FiringFixture()
    #expect(try notify(["quiet", "on"], db: f.path).status == 0)
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "desktop"], db: f.path, folder: f.folder, name: "d",
      environment: desktop.environment)
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    // When one notification and a critical one fall due
    try f.schedule("hushed", at: Date() + 0.2)
    _ = try f.store.schedule(
      LocalNotification(
        id: "alarm", app: "test", schedule: Schedule(fireDate: .instant(Date() + 0.2)), title: "title alarm",
        urgency: .critical, createdAt: Date()), zones: .utc)
    // Then the one is held and dunst shows the critical one only
    #expect(waitUntil(timeout: 10) { (try? f.events(.held).count) == 1 }, "\(daemon.stderr)")
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).map(\.notificationID)) == ["alarm"] })
    #expect(waitUntil(timeout: 10) { (try? desktop.dunstctl("count", "displayed"))?.hasPrefix("1") == true })
    // When quiet hours end
    #expect(try notify(["quiet", "off"], db: f.path).status == 0)
    // Then the held one appears too
    #expect(waitUntil(timeout: 10) { (try? desktop.dunstctl("count", "displayed"))?.hasPrefix("2") == true })
    #expect(
      waitUntil(timeout: 5) {
        (try? f.events(.delivered).map(\.notificationID).sorted()) == ["alarm", "hushed"]
      })
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }
}

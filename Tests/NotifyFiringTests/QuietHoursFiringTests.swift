import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// Quiet hours in the one firing engine, whoever fires: held durably while quiet, shown when
/// quiet ends, critical ones and apps let through shown anyway.
@Suite(.ownThreads)
struct QuietHoursFiringTests {
  enum Firer: String, CaseIterable, CustomTestStringConvertible {
    case daemon, app
    case fireDue = "fire-due"
    var testDescription: String { rawValue }
  }

  /// A firer on the stdout sink: a resident one, or `fire-due` runs.
  final class Firing {
    let f: FiringFixture
    var resident: NotifyProcess?
    private var runs: [String] = []

    init(_ f: FiringFixture, _ firer: Firer, name: String = "d", environment: [String: String] = [:]) throws {
      self.f = f
      switch firer {
      case .daemon, .app:
        let process = try NotifyProcess.firer(
          firer == .daemon ? .daemon : .app, db: f.path, folder: f.folder, name: name,
          environment: environment)
        #expect(process.waitReady(), "\(process.errorText)")
        resident = process
      case .fireDue: resident = nil
      }
    }

    /// Lets the firer act: a resident one acts by itself; `fire-due` is run once.
    func act() throws {
      guard resident == nil else { return }
      let run = try notify(["fire-due", "--sink", "stdout"], db: f.path)
      #expect(run.status == 0, "\(run.stderr)")
      runs += run.stdout.split(separator: "\n").map(String.init)
    }

    var printed: [Delivered] {
      resident.map(\.deliveries) ?? runs.compactMap { Delivered(line: $0) }
    }

    func stop() {
      guard let resident else { return }
      resident.send(SIGTERM)
      #expect(resident.waitExit() == 0)
    }
  }

  func history(_ f: FiringFixture, _ kind: HistoryEvent.Kind) -> [String] {
    ((try? f.events(kind)) ?? []).map(\.notificationID)
  }

  func quiet(_ f: FiringFixture, _ arguments: String...) throws {
    let result = try notify(["quiet"] + arguments, db: f.path)
    #expect(result.status == 0, "\(result.stderr)")
  }

  @Test(
    "quiet: held and not shown, critical shown; quiet off: each held one shown once, late",
    arguments: Firer.allCases)
  func holdsAndReleases(firer: Firer) throws {
    // Given quiet hours on, and a firer
    let f = try FiringFixture()
    try quiet(f, "on")
    let firing = try Firing(f, firer)
    // When two notifications and a critical one fall due
    let due = Date() + (firer == .fireDue ? 0 : 0.3)
    try f.schedule("one", at: due)
    try f.schedule("two", at: due)
    _ = try f.store.schedule(
      LocalNotification(
        id: "urgent", app: "test", schedule: Schedule(fireDate: .instant(due)), title: "urgent",
        urgency: .critical,
        createdAt: due), localZone: .gmt)
    try firing.act()
    // Then the two are held, in history and the store, and only the critical one is shown
    #expect(
      waitUntil(timeout: 10) { Set(history(f, .held)) == ["one", "two"] },
      "\(firing.resident?.errorText ?? "")")
    #expect(waitUntil(timeout: 10) { firing.printed.map(\.id) == ["urgent"] })
    #expect(try f.store.heldCount(app: "test") == 2)
    // When quiet is turned off
    try quiet(f, "off")
    try firing.act()
    // Then each held one is shown once, late, and recorded delivered
    #expect(waitUntil(timeout: 10) { firing.printed.count == 3 }, "\(firing.resident?.errorText ?? "")")
    let shown = firing.printed
    #expect(shown.map(\.id) == ["urgent", "one", "two"])
    #expect(shown.dropFirst().allSatisfy { $0.late })
    #expect(waitUntil(timeout: 5) { Set(history(f, .delivered)) == ["urgent", "one", "two"] })
    #expect(try f.store.heldCount(app: nil) == 0)
    // And nothing more comes (a second look finds nothing held)
    try firing.act()
    #expect(firing.printed.count == 3)
    firing.stop()
  }

  @Test("more than three held for an app come out as one summary; an app let through is shown during quiet")
  func summaryAndBreakThrough() throws {
    // Given quiet hours on, app "loud" allowed to break through, and a daemon
    let f = try FiringFixture()
    try quiet(f, "on")
    #expect(try notify(["settings", "--app", "loud", "--break-quiet", "on"], db: f.path).status == 0)
    let firing = try Firing(f, .daemon)
    // When five of app test's fall due, and one of loud's
    let due = Date() + 0.3
    for i in 1...5 { try f.schedule("n\(i)", at: due + Double(i) * 0.01) }
    try f.schedule("through", at: due, app: "loud")
    // Then loud's is shown and the five are held
    #expect(waitUntil(timeout: 10) { history(f, .held).count == 5 }, "\(firing.resident?.errorText ?? "")")
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
    // Given quiet hours for a short while, and a daemon that held two notifications
    let f = try FiringFixture()
    try quiet(f, "on", "--for", "3s")
    let first = try Firing(f, .daemon, name: "first")
    let due = Date() + 0.3
    try f.schedule("a", at: due)
    try f.schedule("b", at: due)
    #expect(waitUntil(timeout: 10) { history(f, .held).count == 2 })
    // When it is killed with SIGKILL, and quiet hours end while no firer runs
    first.resident!.send(SIGKILL)
    _ = first.resident!.waitExit()
    #expect(
      waitUntil(timeout: 10) {
        (try? notify(["quiet"], db: f.path).stdout.hasPrefix("quiet hours: off")) == true
      })
    #expect(first.printed.isEmpty)
    // Then a daemon started afterwards shows each held one, once
    let second = try Firing(f, .daemon, name: "second")
    #expect(waitUntil(timeout: 10) { second.printed.count == 2 }, "\(second.resident?.errorText ?? "")")
    #expect(Set(second.printed.map(\.id)) == ["a", "b"])
    #expect(waitUntil(timeout: 5) { history(f, .delivered).count == 2 })
    #expect(history(f, .held).count == 2)
    second.stop()
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
    let firing = try Firing(f, .daemon, environment: utc)
    // When a notification falls due
    try f.schedule("night", at: Date() + 0.3)
    // Then it is held
    #expect(waitUntil(timeout: 10) { history(f, .held) == ["night"] }, "\(firing.resident?.errorText ?? "")")
    // When the schedule is removed, it is shown
    #expect(try CommandRunner(environment: utc).run(["quiet", "--no-schedule", "--db", f.path]).status == 0)
    #expect(waitUntil(timeout: 10) { firing.printed.map(\.id) == ["night"] })
    firing.stop()
  }
}

import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// Calendar rules in a zone only the system's tz database knows, whoever fires: the daemon,
/// an app firing its own in process, and `fire-due` deliver the same occurrence at the same
/// instant and leave the same next one pending.
@Suite(
  .ownThreads, .enabled(if: ZoneCompiler.isUsable, "needs /usr/sbin/zic (libc-bin) and /usr/bin/python3"))
struct CalendarRuleFiringTests {
  func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

  @Test(
    "a rule started 66 minutes ago in a zic-compiled zone: its latest occurrence delivered once, late; the next pending",
    arguments: StdoutFirer.allCases)
  func ruleInCompiledZone(firer: StdoutFirer) throws {
    // Given Atlantis (+02:30 until 2030, a zone ICU cannot know) compiled into a scratch
    // TZDIR, and a firer that reads it
    let f = try FiringFixture()
    let tzdir = f.folder.file("zoneinfo")
    try ZoneCompiler.compile(ZoneCompiler.atlantis, into: tzdir, bloat: "slim", scratch: f.folder)
    let environment = ["TZDIR": tzdir, "TZ": "UTC", "NOTIFY_APP": "test"]
    let firing = try StdoutFiring(f, firer, environment: environment)
    // When every 7 minutes from an Atlantis wall-clock time 3990 s ago is scheduled: 9 whole
    // intervals and half of one have passed, so occurrence 10 (1-based, SPEC §5) is the
    // latest due, and the next is 210 s away (far beyond the time the test takes)
    let now = Date().timeIntervalSince1970.rounded(.down)
    let anchor = Date(timeIntervalSince1970: now - 3990)
    let wall = try ZoneCompiler.zoneinfoWallClock(zone: "Atlantis/Capital", tzdir: tzdir, instant: anchor)
    let scheduled = try notify(
      [
        "schedule", "--id", "rule", "--at", wall, "--time-zone", "Atlantis/Capital",
        "--rrule", "FREQ=MINUTELY;INTERVAL=7", "--title", "every 7 minutes",
      ], db: f.path, environment: environment)
    #expect(scheduled.status == 0, "\(scheduled.stderr)")
    try firing.act()
    // Then the firer delivers occurrence 10 once, late, at the instant zoneinfo gives
    #expect(waitUntil(timeout: 10) { !firing.printed.isEmpty }, "\(firing.log)")
    let delivered = firing.printed
    #expect(delivered.map(\.id) == ["rule"])
    #expect(delivered.first?.occurrence == 10)
    #expect(delivered.first?.late == true)
    let walls = try (9...11).map { k in
      try ZoneCompiler.zoneinfoWallClock(
        zone: "Atlantis/Capital", tzdir: tzdir, instant: anchor + TimeInterval(k * 420))
    }
    let instants = try ZoneCompiler.zoneinfoInstants(zone: "Atlantis/Capital", tzdir: tzdir, walls: walls)
    let first = try #require(delivered.first)
    let line = try #require(try json(first.line) as? [String: Any])
    #expect(line["fireDate"] as? String == instants[0])
    // And the next occurrence is what list and show --upcoming say is pending
    let show = try notify(
      ["show", "rule", "--upcoming", "2", "--json"], db: f.path, environment: environment)
    let item = try #require(try json(show.stdout) as? [String: Any], "\(show.stderr)")
    #expect(item["fireDate"] as? String == instants[1])
    #expect(item["upcoming"] as? [String] == Array(instants[1...2]))
    // And a second look delivers nothing more (counted once the store has settled and the
    // firer has stopped)
    try firing.act()
    firing.settle()
    #expect(firing.printed.count == 1)
    #expect(try f.events(.delivered).map(\.notificationID) == ["rule"])
  }
}

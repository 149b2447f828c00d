import Foundation
import NotifyTestSupport
import Testing

/// Zones from the system's tz database, end to end: zones compiled with `zic` into a
/// scratch `TZDIR` (which ICU cannot know), every form of `TZ`, `list` after the system
/// zone moved, and a running daemon that notices the zone data change under it.
@Suite(
  "Reliability: zones from TZDIR, compiled with zic", .ownThreads,
  .enabled(if: ZoneCompiler.isUsable, "needs /usr/sbin/zic (libc-bin) and /usr/bin/python3"))
struct ZoneDatabaseTests {
  let folder = TemporaryFolder(prefix: "notify-zones")
  var db: String { folder.file("notify.db") }
  var tzdir: String { folder.file("zoneinfo") }

  /// Atlantis (`ZoneCompiler.atlantis`): +02:30, DST from 2030.
  static let atlantis = ZoneCompiler.atlantis
  /// Its government moves the clocks: +04:30 since 2000, no DST.
  static let atlantisMoved = """
    Zone\tAtlantis/Capital\t1:00\t-\tATT\t2000 Jan 1
    \t\t\t4:30\t-\tAYT
    """

  func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

  @Test(
    "schedule --time-zone with a zic-compiled zone, slim and fat: instants as zoneinfo reads them, and a firer delivers",
    arguments: ["slim", "fat"])
  func compiledZone(bloat: String) throws {
    // Given Atlantis compiled into a scratch TZDIR
    try ZoneCompiler.compile(Self.atlantis, into: tzdir, bloat: bloat, scratch: folder)
    let env = ["TZDIR": tzdir, "TZ": "UTC", "NOTIFY_APP": "zones"]
    // When a daily 09:00 in Atlantis is scheduled across its first DST change
    let scheduled = try notify(
      [
        "schedule", "--id", "atl", "--at", "2030-04-05T09:00", "--time-zone", "Atlantis/Capital", "--repeat",
        "day", "x",
      ],
      db: db, environment: env)
    #expect(scheduled.status == 0, "\(scheduled.stderr)")
    // Then its upcoming instants are the ones Python's zoneinfo gives for the same files
    let show = try notify(["show", "atl", "--upcoming", "4", "--json"], db: db, environment: env)
    let item = try #require(try json(show.stdout) as? [String: Any], "\(show.stderr)")
    let upcoming = try #require(item["upcoming"] as? [String])
    let expected = try ZoneCompiler.zoneinfoInstants(
      zone: "Atlantis/Capital", tzdir: tzdir,
      walls: ["2030-04-05T09:00:00", "2030-04-06T09:00:00", "2030-04-07T09:00:00", "2030-04-08T09:00:00"])
    #expect(upcoming == expected)
    #expect(upcoming.first == "2030-04-05T06:30:00Z" && upcoming.last == "2030-04-08T05:30:00Z")
    // And a firer delivers a past wall-clock time in Atlantis at its instant there
    #expect(
      try notify(
        ["schedule", "--id", "past", "--at", "2026-01-01T00:00", "--time-zone", "Atlantis/Capital", "y"],
        db: db, environment: env
      ).status == 0)
    let fired = try notify(["fire-due", "--sink", "stdout"], db: db, environment: env)
    #expect(fired.status == 0, "\(fired.stderr)")
    let line = try #require(fired.stdout.split(separator: "\n").first.map(String.init))
    let delivery = try #require(try json(line) as? [String: Any])
    #expect(delivery["id"] as? String == "past")
    #expect(delivery["fireDate"] as? String == "2025-12-31T21:30:00Z")
  }

  @Test(
    "an unknown zone names the folder searched and the fix; names that leave the folder are refused; the store stays untouched"
  )
  func unknownZones() throws {
    try ZoneCompiler.compile(Self.atlantis, into: tzdir, bloat: "slim", scratch: folder)
    let env = ["TZDIR": tzdir, "NOTIFY_APP": "zones"]
    for (name, says) in [
      ("Europe/Berlin", "no such zone file in \(tzdir)"), ("../zoneinfo/Atlantis/Capital", "'..' component"),
      ("/etc/localtime", "absolute path"), ("Atlantis", "no such zone file"),
    ] {
      let result = try notify(
        ["schedule", "--at", "09:00", "--time-zone", name, "x"], db: db, environment: env)
      #expect(result.status == 65, "\(name): \(result.stderr)")
      #expect(result.stderr.contains(says), "\(name): \(result.stderr)")
      #expect(result.stderr.contains("TZDIR") || result.stderr.contains("relative to the zone folder"))
    }
    let list = try notify(["list", "--json"], db: db, environment: env)
    #expect(list.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    // And a link inside the folder that leads outside it is refused too
    try FileManager.default.createSymbolicLink(
      atPath: tzdir + "/Outside", withDestinationPath: "/usr/share/zoneinfo/UTC")
    let outside = try notify(
      ["schedule", "--at", "09:00", "--time-zone", "Outside", "x"], db: db, environment: env)
    #expect(outside.status == 65 && outside.stderr.contains("leads outside"), "\(outside.stderr)")
  }

  @Test("every form of TZ gives the local zone: a name, :name, a path, a POSIX string; empty is UTC")
  func tzForms() throws {
    try ZoneCompiler.compile(Self.atlantis, into: tzdir, bloat: "slim", scratch: folder)
    let cases = [
      ("Atlantis/Capital", "2030-01-15T06:30:00Z"), (":Atlantis/Capital", "2030-01-15T06:30:00Z"),
      (tzdir + "/Atlantis/Capital", "2030-01-15T06:30:00Z"),
      (":" + tzdir + "/Atlantis/Capital", "2030-01-15T06:30:00Z"),
      ("<+0230>-2:30", "2030-01-15T06:30:00Z"), ("CET-1CEST,M3.5.0,M10.5.0/3", "2030-01-15T08:00:00Z"),
      ("", "2030-01-15T09:00:00Z"),
    ]
    for (index, (tz, expected)) in cases.enumerated() {
      let env = ["TZDIR": tzdir, "TZ": tz, "NOTIFY_APP": "zones"]
      let result = try notify(
        ["schedule", "--id", "t\(index)", "--at", "2030-01-15T09:00", "--json", "x"], db: db, environment: env
      )
      #expect(result.status == 0, "TZ=\(tz): \(result.stderr)")
      let item = try #require(try json(result.stdout) as? [String: Any])
      #expect(item["fireDate"] as? String == expected, "TZ=\(tz)")
      #expect(item["timeZone"] as? String == "local")
    }
  }

  @Test("list and show tell the instant that will fire after the system zone moved, before any firer ran")
  func listAfterZoneMove() throws {
    // Given a local 09:00 scheduled in UTC
    let utc = ["TZ": "UTC", "NOTIFY_APP": "zones"]
    #expect(
      try notify(["schedule", "--id", "nine", "--at", "2030-01-15T09:00", "x"], db: db, environment: utc)
        .status == 0)
    // When the system zone is Tokyo and nothing has fired
    let tokyo = ["TZ": "Asia/Tokyo", "NOTIFY_APP": "zones"]
    let list = try notify(["list", "--json"], db: db, environment: tokyo)
    let items = try #require(try json(list.stdout) as? [[String: Any]])
    // Then list, list --json and show all say 09:00 Tokyo time
    #expect(items.first?["fireDate"] as? String == "2030-01-15T00:00:00Z")
    let show = try notify(["show", "nine", "--json"], db: db, environment: tokyo)
    #expect((try json(show.stdout) as? [String: Any])?["fireDate"] as? String == "2030-01-15T00:00:00Z")
    let readable = try notify(["list"], db: db, environment: tokyo)
    #expect(readable.stdout.hasPrefix("2030-01-15 09:00:00 JST"), "\(readable.stdout)")
  }

  @Test("a running daemon notices the zone data change (zic again) and fires at the new instant")
  func daemonFollowsZoneData() throws {
    // Given Atlantis at +02:30 and a notification at its wall-clock time an hour from now
    try ZoneCompiler.compile(Self.atlantis, into: tzdir, bloat: "slim", scratch: folder)
    let env = ["TZDIR": tzdir, "TZ": "UTC", "NOTIFY_APP": "zones"]
    let daemon = try ChildProcess.notify(
      ["daemon", "--sink", "stdout"], db: db, folder: folder, name: "daemon", environment: env)
    defer { daemon.stop() }
    try #require(waitUntil(timeout: 20) { daemon.stderr.contains("ready;") }, "\(daemon.stderr)")
    let wall = try ZoneCompiler.zoneinfoWallClock(
      zone: "Atlantis/Capital", tzdir: tzdir, instant: Date() + 3600)
    let scheduled = try notify(
      ["schedule", "--id", "moved", "--at", wall, "--time-zone", "Atlantis/Capital", "x"], db: db,
      environment: env)
    #expect(scheduled.status == 0, "\(scheduled.stderr)")
    // When the government moves the clocks two hours forward and tzdata is updated
    Thread.sleep(forTimeInterval: 0.2)  // not for correctness: lets the daemon re-arm for the hour first
    #expect(daemon.deliveries.isEmpty)
    try ZoneCompiler.compile(Self.atlantisMoved, into: tzdir, bloat: "slim", scratch: folder)
    // Then the daemon delivers it now (its wall-clock time has passed under the new rules)
    #expect(waitUntil(timeout: 20) { daemon.deliveries.contains { $0.id == "moved" } }, "\(daemon.stderr)")
    #expect(daemon.stderr.contains("the zone data changed"))
  }
}

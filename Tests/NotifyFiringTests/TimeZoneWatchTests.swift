import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

@testable import NotifyFiring

@Suite("TimeZoneWatch: following /etc/localtime as tools replace it", .ownThreads)
struct TimeZoneWatchTests {
  @Test("a replaced link is noticed, and so is the next replacement")
  func followsReplacements() throws {
    // Given a localtime link in a folder and a loop watching it
    let folder = TemporaryFolder(prefix: "notify-zone")
    let link = folder.file("localtime")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/usr/share/zoneinfo/UTC")
    let loop = try EventLoop()
    var changes = 0
    let watch = TimeZoneWatch(loop: loop, path: link) {
      changes += 1
      if changes == 2 { loop.exit(0) }
    }
    // When the link is replaced twice the way timedatectl does it (a new link renamed over it)
    func replace(with zone: String) {
      let fresh = folder.file("localtime.new")
      try? FileManager.default.createSymbolicLink(
        atPath: fresh, withDestinationPath: "/usr/share/zoneinfo/" + zone)
      rename(fresh, link)
    }
    let first = try loop.addRealtimeTimer { replace(with: "Europe/Berlin") }
    try first.arm(at: Date() + 0.05)
    let second = try loop.addRealtimeTimer { replace(with: "Asia/Tokyo") }
    try second.arm(at: Date() + 0.3)
    let deadline = try loop.addRealtimeTimer { loop.exit(1) }
    try deadline.arm(at: Date() + 10)
    let code = try loop.run()
    // Then both replacements were seen before the deadline
    #expect(code == 0)
    #expect(changes >= 2)
    withExtendedLifetime((watch, first, second, deadline)) {}
  }

  @Test("a missing link is picked up when it appears")
  func appears() throws {
    let folder = TemporaryFolder(prefix: "notify-zone")
    let link = folder.file("localtime")
    let loop = try EventLoop()
    var changes = 0
    let watch = TimeZoneWatch(loop: loop, path: link) {
      changes += 1
      loop.exit(0)
    }
    let create = try loop.addRealtimeTimer {
      try? FileManager.default.createSymbolicLink(
        atPath: link, withDestinationPath: "/usr/share/zoneinfo/UTC")
    }
    try create.arm(at: Date() + 0.05)
    let deadline = try loop.addRealtimeTimer { loop.exit(1) }
    try deadline.arm(at: Date() + 10)
    #expect(try loop.run() == 0)
    #expect(changes == 1)
    withExtendedLifetime((watch, create, deadline)) {}
  }
}

@Suite("JournalLogHandler: fields and destination")
struct JournalLogHandlerTests {
  @Test(
    "metadata keys become journal field names",
    arguments: [
      ("notify_id", "NOTIFY_ID"), ("notify_app", "NOTIFY_APP"), ("_private", "PRIVATE"),
      ("9lives", "F9LIVES"), ("a.b-c", "A_B_C"),
    ])
  func fieldNames(key: String, field: String) {
    #expect(JournalLogHandler.fieldName(key) == field)
  }

  @Test("levels map to syslog priorities")
  func priorities() {
    #expect(JournalLogHandler.priority(.debug) == 7)
    #expect(JournalLogHandler.priority(.info) == 6)
    #expect(JournalLogHandler.priority(.warning) == 4)
    #expect(JournalLogHandler.priority(.error) == 3)
    #expect(JournalLogHandler.priority(.critical) == 2)
  }

  @Test("a systemd unit (INVOCATION_ID) logs to the journal; a terminal to stderr")
  func destination() {
    #expect(JournalLogHandler.runsUnderSystemd(environment: ["INVOCATION_ID": "abc"]))
    #expect(!JournalLogHandler.runsUnderSystemd(environment: [:]))
    #expect(!JournalLogHandler.runsUnderSystemd(environment: ["JOURNAL_STREAM": "1:2"]))
  }
}

@Suite("ZoneCachingClock")
struct ZoneCachingClockTests {
  @Test("keeps the zone until told it changed")
  func caches() {
    // Given a clock in Berlin, read once through the cache
    let base = ManualClock(
      now: Date(timeIntervalSince1970: 0), localZone: testZone("Europe/Berlin"), database: testZoneDatabase)
    let clock = ZoneCachingClock(base)
    #expect(clock.zones.local.identifier == "Europe/Berlin")
    // When the system zone moves
    base.setLocalZone(testZone("Asia/Tokyo"))
    // Then the cache still says Berlin until it is told, then Tokyo
    #expect(clock.zones.local.identifier == "Europe/Berlin")
    clock.zoneChanged()
    #expect(clock.zones.local.identifier == "Asia/Tokyo")
    base.advance(by: 5)
    #expect(clock.now() == Date(timeIntervalSince1970: 5))
  }
}

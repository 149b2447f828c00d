import Foundation
import Glibc
import NotifyTestSupport
import Testing

/// Zone files that cost too much or lie: one app's zone must not
/// stop another app's notifications, and a file out of RFC 8536's bounds is refused (65)
/// naming the file, quickly.
@Suite(
  "Reliability: zone files that cost too much or lie", .ownThreads,
  .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
struct ZoneFileFaultTests {
  let folder = TemporaryFolder(prefix: "notify-zonefile")
  var db: String { folder.file("notify.db") }
  var tzdir: String { folder.file("zoneinfo") }

  /// Writes a version-2 TZif file (RFC 8536 §3) with Python's `struct`: `count` transitions
  /// a minute apart from an hour from now that change nothing (types 0 and 1 are both
  /// +01:00), then one to +02:00 in 2033; types' offsets as given.
  func writeZone(_ name: String, count: Int, offsets: [Int] = [3600, 3600, 7200], padTo: Int = 0) throws {
    let script = """
      import struct, sys, os
      path, count, offsets, pad = sys.argv[1], int(sys.argv[2]), [int(x) for x in sys.argv[3].split(',')], int(sys.argv[4])
      start = int(sys.argv[5])
      times = [start + 60 * i for i in range(count)] + [2_000_000_000]
      idx = [i % 2 for i in range(count)] + [2]
      chars = b"AAA\\0BBB\\0"
      def block(wide):
          out = b"TZif2" + bytes(15) + struct.pack(">6l", 0, 0, 0, len(times), len(offsets), len(chars))
          out += b"".join(struct.pack(">q" if wide else ">l", t) for t in times)
          out += bytes(idx)
          out += b"".join(struct.pack(">lBB", o, 0, 0 if k < 2 else 4) for k, o in enumerate(offsets))
          return out + chars
      data = block(False) + block(True) + b"\\n<+02>-2\\n"
      data += bytes(max(0, pad - len(data)))  # (a file past the size bound)
      os.makedirs(os.path.dirname(path), exist_ok=True)
      open(path, "wb").write(data)
      """
    let result = try CommandRunner(executable: "/usr/bin/python3").run([
      "-c", script, tzdir + "/" + name, String(count), offsets.map(String.init).joined(separator: ","),
      String(padTo), String(Int(Date().timeIntervalSince1970) + 3600),
    ])
    try #require(result.status == 0, "\(result.stderr)")
  }

  @Test(
    "a zone replaced by one of 30,000 transitions that change nothing: every firer still delivers another app's notification",
    arguments: ["daemon", "fire-due"])
  func flatZoneDoesNotStopOthers(firer: String) throws {
    // Given a daily wall-clock notification in Test/Flat, scheduled while its file was small
    try writeZone("Test/Flat", count: 10)
    let env = ["TZDIR": tzdir, "TZ": "UTC"]
    let wall = try notify(
      ["schedule", "--app", "flat", "--at", "09:00", "--time-zone", "Test/Flat", "--repeat", "day", "x"],
      db: db, environment: env)
    try #require(wall.status == 0, "\(wall.stderr)")
    // When the file is replaced by one of 30,000 unchanged transitions (420 KB, as a tzdata
    // update replaces it), and another app has one due in 2 s
    try writeZone("Test/Flat", count: 30_000)
    let due = Date() + 2
    #expect(
      try notify(["schedule", "--app", "other", "--id", "soon", "--at", rfc3339(due), "y"], db: db).status
        == 0)
    // Then the firer delivers it once, and `show` of the flat zone's rule still answers
    switch firer {
    case "daemon":
      let daemon = try ChildProcess.notify(
        ["daemon", "--sink", "stdout"], db: db, folder: folder, name: "daemon", environment: env)
      defer {
        daemon.send(SIGTERM)
        _ = daemon.waitExit()
      }
      #expect(waitUntil(timeout: 20) { daemon.deliveries.contains { $0.id == "soon" } }, "\(daemon.stderr)")
      #expect(daemon.isRunning, "\(daemon.stderr)")
    default:
      Thread.sleep(until: due)
      let run = try notify(["fire-due", "--sink", "stdout"], db: db, environment: env)
      #expect(run.status == 0, "\(run.stderr)")
      #expect(run.stdout.contains("\"soon\""), "\(run.stdout)")
    }
    let show = try notify(["list", "--app", "flat", "--json"], db: db, environment: env)
    #expect(show.status == 0, "\(show.stderr)")
  }

  @Test(
    "UT offsets outside RFC 8536's range are refused with 65 naming the file, at once",
    arguments: [Int(Int32.max), -1_000_000_000, 93_600])
  func offsetOutOfRange(offset: Int) throws {
    // Given a zone whose last type claims an offset RFC 8536 does not allow
    try writeZone("Test/Liar", count: 2, offsets: [3600, 3600, offset])
    // When an hourly rule is scheduled in it
    let result = try notify(
      ["schedule", "--at", "09:00", "--time-zone", "Test/Liar", "--repeat", "hour", "x"], db: db,
      environment: ["TZDIR": tzdir])
    // Then it is refused as invalid TZif, naming the zone and the offset, and nothing is stored
    #expect(result.status == 65, "\(result.stderr)")
    #expect(result.stderr.contains("Test/Liar"), "\(result.stderr)")
    #expect(result.stderr.contains("UT offset of \(offset) s is outside"), "\(result.stderr)")
    #expect(try notify(["list", "--json"], db: db).stdout.contains("[]") == true)
  }

  @Test("a zone file over 1 MiB is reported as too large, not as missing")
  func tooLarge() throws {
    try writeZone("Test/Huge", count: 2, padTo: (1 << 20) + 1)
    let result = try notify(
      ["schedule", "--at", "09:00", "--time-zone", "Test/Huge", "x"], db: db, environment: ["TZDIR": tzdir])
    #expect(result.status == 65, "\(result.stderr)")
    #expect(result.stderr.contains("more than the 1 MiB a zone file may have"), "\(result.stderr)")
    #expect(!result.stderr.contains("no such zone file"), "\(result.stderr)")
  }
}

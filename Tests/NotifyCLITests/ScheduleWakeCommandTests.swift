import Foundation
import NotifyTestSupport
import Testing

/// `notify schedule --wake` and `--expire-late`: stored, shown by list and show, in the JSON;
/// bad durations refused with 65 and the store untouched.
@Suite("schedule --wake and --expire-late", .ownThreads)
struct ScheduleWakeCommandTests {
  @Test("stored and shown: JSON wake and expireLate, list's marks, show's fields; warned when nothing wakes")
  func storedAndShown() throws {
    let folder = TemporaryFolder()
    let notify = CommandRunner(environment: ["NOTIFY_DB": folder.file("n.db"), "NOTIFY_APP": "a"])
    // When a notification that wakes the machine and may be 30 minutes late is scheduled
    let result = try notify.run(
      [
        "schedule", "--in", "1h", "--id", "alarm", "--title", "Wake up", "--wake", "--expire-late", "30m",
        "--json",
      ])
    #expect(result.status == 0, "\(result.stderr)")
    let stored = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(stored["wake"] as? Bool == true && stored["expireLate"] as? Int == 1800)
    // Then, with no daemon running, it says on stderr that it fires when the machine is awake
    #expect(
      result.stderr.contains(
        "no notify daemon runs to keep a wake alarm: 'alarm' fires when the machine is awake"))
    // And list marks it, show has the fields, a plain one has wake false and no limit
    let line = try notify.run(["list"]).stdout
    #expect(line.contains("wakes the machine") && line.contains("missed if 30 min late"), "\(line)")
    #expect(try notify.run(["show", "alarm"]).stdout.contains("expireLate      1800"))
    let plain = try notify.run(["schedule", "--in", "1h", "--id", "p", "x", "--json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])
    #expect(object["wake"] as? Bool == false && object["expireLate"] is NSNull)
    #expect(!plain.stderr.contains("wake"))
  }

  @Test(
    "a bad --expire-late is refused with 65 naming the flag, the store untouched",
    arguments: ["0s", "-5m", "400d", "soon"])
  func badExpireLate(value: String) throws {
    let folder = TemporaryFolder()
    let db = folder.file("n.db")
    let notify = CommandRunner(environment: ["NOTIFY_DB": db, "NOTIFY_APP": "a"])
    #expect(try notify.run(["schedule", "--in", "1h", "--id", "keep", "x"]).status == 0)
    let before = fileBytes(db)
    let result = try notify.run(["schedule", "--in", "1h", "--id", "bad", "--expire-late", value, "x"])
    #expect(result.status == 65, "\(value): \(result.stderr)")
    #expect(result.stderr.contains("--expire-late"), "\(result.stderr)")
    #expect(fileBytes(db) == before)
  }
}

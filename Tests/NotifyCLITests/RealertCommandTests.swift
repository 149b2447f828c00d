import Foundation
import NotifyTestSupport
import Testing

/// Alarms through the command line: `--realert-every`, `--realert-times`, their
/// exit codes, the JSON key and the `list` line of a re-alert.
@Suite("alarms: --realert-every, --realert-times, end to end", .ownThreads)
struct RealertCommandTests {
  let folder = TemporaryFolder()
  var notify: CommandRunner {
    CommandRunner(environment: ["NOTIFY_DB": folder.file("notify.db"), "NOTIFY_APP": "test"])
  }

  @Test("schedule stores the alarm, JSON shows it; now stores re-alert 1 and list names it")
  func stored() throws {
    // Given an alarm scheduled every 5 minutes, 2 times
    let scheduled = try notify.run([
      "schedule", "--id", "a1", "--in", "1h", "--realert-every", "5m", "--realert-times", "2", "--json",
      "wake",
    ])
    #expect(scheduled.status == 0, "\(scheduled.stderr)")
    #expect(scheduled.stdout.contains(#""realert": {"every":300,"times":2}"#), "\(scheduled.stdout)")
    // When one is shown now on the stdout sink, with the default count
    let now = try notify.run(["now", "--id", "a2", "--sink", "stdout", "--realert-every", "1m", "oven"])
    #expect(now.status == 0, "\(now.stderr)")
    #expect(now.stdout.contains(#""realert":{"every":60,"times":3}"#), "\(now.stdout)")
    // Then its re-alert 1 is pending a minute later, and list says so
    let list = try notify.run(["list"])
    #expect(list.stdout.contains("a2  re-alert 1 of 3 (occurrence 1)"), "\(list.stdout)")
    #expect(list.stdout.contains("a1  alarm (every 5 min, 2 times)"), "\(list.stdout)")
    let json = try notify.run(["list", "--json"])
    #expect(json.stdout.contains(#""realertNumber":1,"realertOccurrence":1"#), "\(json.stdout)")
    // And cancel of the id removes it
    #expect(try notify.run(["cancel", "a2"]).status == 0)
    #expect(try !notify.run(["list"]).stdout.contains("a2"))
  }

  @Test(
    "bad alarms exit 65 (out of range) or 64 (times alone), naming the flag; nothing stored",
    arguments: [
      (["--realert-every", "30s"], 65, "--realert-every"),
      (["--realert-every", "2d"], 65, "--realert-every"),
      (["--realert-every", "-5m"], 65, "--realert-every"),
      (["--realert-every", "5m", "--realert-times", "11"], 65, "--realert-times"),
      (["--realert-every", "5m", "--realert-times", "x"], 65, "--realert-times"),
      (["--realert-times", "2"], 64, "--realert-every"),
    ])
  func refused(flags: [String], status: Int32, named: String) throws {
    let run = try notify.run(["schedule", "--in", "1h"] + flags + ["wake"])
    #expect(run.status == status, "\(run.stderr)")
    #expect(run.stderr.contains(named), "\(run.stderr)")
    #expect(try notify.run(["list"]).stdout.isEmpty)
  }
}

import Foundation
import NotifyTestSupport
import Testing

/// Help, usage errors and completion scripts name the full `notify SUBCOMMAND`, whichever
/// way `CLIEntry.parse` took (a subcommand parses on its own; anything else goes through
/// the whole tree).
@Suite("help, usage and completions, end to end", .ownThreads)
struct HelpAndUsageTests {
  let folder = TemporaryFolder()
  var notify: CommandRunner { CommandRunner(environment: ["NOTIFY_DB": folder.file("notify.db")]) }

  @Test(
    "a subcommand's help shows its full usage line",
    arguments: [
      (["schedule", "--help"], "USAGE: notify schedule"),
      (["help", "schedule"], "USAGE: notify schedule"),
      (["badge", "-h"], "USAGE: notify badge"),
      (["sound", "check", "--help"], "USAGE: notify sound check"),
      (["--help"], "SUBCOMMANDS:"),
    ])
  func help(arguments: [String], says: String) throws {
    let result = try notify.run(arguments)
    #expect(result.status == 0)
    #expect(result.stdout.contains(says), "\(result.stdout)")
  }

  @Test("status --help names every field of status --json")
  func statusHelpListsTheJSONFields() throws {
    // Given what `notify status --json` prints (exit 1 here: no daemon, no server, maybe)
    let status = try notify.run(["status", "--json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any], "\(status.stdout)")
    // When the help is asked for
    let help = try notify.run(["status", "--help"])
    // Then it names each top-level field, and where the daemon delivers
    #expect(help.status == 0)
    for key in object.keys.sorted() + ["deliveringTo"] {
      #expect(help.stdout.contains("\"\(key)\""), "\(key) missing from: \(help.stdout)")
    }
  }

  @Test("a usage error names the subcommand, exits 64 and leaves no store behind")
  func usageError() throws {
    let result = try notify.run(["schedule", "--in", "10m", "--bogus"])
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("notify: error: "))
    #expect(result.stderr.contains("Usage: notify schedule"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("notify.db")))
  }

  @Test("the completion script covers every subcommand")
  func completionScript() throws {
    let result = try notify.run(["--generate-completion-script", "bash"])
    #expect(result.status == 0)
    for name in ["schedule", "cancel", "list", "daemon", "fire-due", "sound"] {
      #expect(result.stdout.contains(name), "missing \(name)")
    }
  }
}

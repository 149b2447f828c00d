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

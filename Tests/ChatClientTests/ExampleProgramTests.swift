import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyTestSupport
import NotifyZones
import Testing

/// The small examples, run as a user would: the shell script and the minimal program.
@Suite(.ownThreads)
struct ExampleProgramTests {
  let folder = TemporaryFolder(prefix: "notify-examples")
  static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("examples")

  @Test func remindScriptSchedulesListsAndCancels() throws {
    // Given the script, pointed at the built notify and a fresh store
    let script = CommandRunner(
      executable: "/bin/bash",
      environment: ["NOTIFY": CommandRunner.product("notify"), "NOTIFY_DB": folder.file("notify.db")])
    let path = Self.examples.appendingPathComponent("remind.sh").path

    // When a reminder is set
    let scheduled = try script.run([path, "10m", "Tea is ready"])
    // Then it prints the id and the reminder is pending for the app "remind"
    #expect(scheduled.status == 0, "\(scheduled.stderr)")
    let id = scheduled.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(!id.isEmpty)
    let listed = try script.run([path, "list"])
    #expect(listed.stdout.contains(id))
    let store = try SQLiteStore(path: folder.file("notify.db"))
    let pending = try store.pending(app: "remind")
    #expect(pending.map(\.notification.body) == ["Tea is ready"])
    #expect(pending.first?.notification.title == "Reminder")

    // When it is cancelled, twice
    let cancelled = try script.run([path, "cancel", id])
    let again = try script.run([path, "cancel", id])
    // Then the first takes effect and the second says it was not pending (exit 1)
    #expect(cancelled.status == 0)
    #expect(again.status == 1)
    #expect(try store.pending(app: "remind").isEmpty)

    // And a bad duration is refused with the data error, usage with 64
    #expect(try script.run([path, "10x", "nope"]).status == 65)
    #expect(try script.run([path]).status == 64)
  }

  @Test func helloNotifyPresentsSchedulesAndFiresInProcess() throws {
    // Given the minimal program on a fresh store, with the stdout sink
    let hello = CommandRunner(
      executable: CommandRunner.product("hello-notify"), environment: ["NOTIFY_DB": folder.file("notify.db")])
    // When it runs
    let result = try hello.run(["--sink-stdout"], timeout: 30)
    // Then it exits 0 after two deliveries: the payload at once, the reminder three seconds later
    #expect(result.status == 0, "\(result.stderr)")
    let bodies = result.stdout.split(separator: "\n").compactMap { line -> String? in
      guard case .object(let members)? = try? JSONValue.parse(String(line)),
        case .string(let body)? = members["body"]
      else { return nil }
      return body
    }
    #expect(bodies == ["SteveJ: Hello, world!", "Three seconds later"])
    #expect(result.stderr.contains("delivered, userInfo"))
  }

  @Test func helloNotifyHearsOfItsReminderWhileADaemonRuns() throws {
    // Given a daemon firing every app on the same store
    let db = folder.file("notify.db")
    let daemonOut = folder.file("daemon.out")
    let daemon = try ChildProcess(
      CommandRunner.product("notify"), ["daemon", "--sink", "stdout", "--db", db], stdout: .file(daemonOut),
      stderr: .file("/dev/null"))
    defer { daemon.terminate(timeout: 60) }
    // (the daemon made the store and let go of it: the program's subject is who delivers,
    // not the 5 s a store being created on a loaded machine may take)
    let settled = waitUntil(timeout: 60) {
      FileManager.default.fileExists(atPath: db)
        && (try? CommandRunner(environment: ["NOTIFY_BUSY_TIMEOUT": "60"]).run(["list", "--db", db]))?.status
          == 0
    }
    #expect(settled)
    // When the minimal program runs (it fires its own, and the daemon may get there first)
    let hello = CommandRunner(
      executable: CommandRunner.product("hello-notify"), environment: ["NOTIFY_DB": db])
    let result = try hello.run(["--sink-stdout"], timeout: 30)
    // Then it hears of its reminder's delivery whoever delivered it, and exits 0
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("hello-notify: delivered"), "\(result.stderr)")
  }
}

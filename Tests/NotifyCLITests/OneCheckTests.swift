import Foundation
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

@testable import NotifyCLI

/// `notify schedule` checks a notification once on its way to its row: the codec checks
/// it, and the store takes the checked value as it is.
struct OneCheckTests {
  let folder = TemporaryFolder()

  @Test(
    "one check per notify schedule",
    arguments: [
      ["--in", "10m", "Stand up"],
      ["--at", "09:00", "--repeat", "day", "--title", "Standup", "--user-info", "{\"room\":\"4B\"}", "x"],
      ["--on", "mon,wed", "--at", "09:00", "--wake", "--expire-late", "5m", "--badge", "3", "x"],
    ])
  func oneCheckPerSchedule(flags: [String]) throws {
    // Given a schedule command on a fresh store
    let command = try ScheduleCommand.parse(["--db", folder.file("notify.db"), "--app", "tests"] + flags)
    // When it runs, its checks counted
    let count = Locked(0)
    try Validator.$checkCount.withValue(count) { try command.run() }
    // Then the notification was checked once, and stored
    #expect(count.value == 1)
    #expect(try SQLiteStore(path: folder.file("notify.db")).pending(app: "tests").count == 1)
  }
}

import Foundation
import NotifyTestSupport
import Testing

/// An idle daemon wakes for nothing (0 wake-ups a minute). On Linux the first dispatch
/// worker thread starts libdispatch's workqueue monitor, a 1 s timer that never stops, so
/// the daemon must start none, also when it had to create its store.
@Suite(.ownThreads)
struct IdleThreadsTests {
  @Test("a daemon that created its store runs no dispatch worker thread once ready")
  func noDispatchWorker() throws {
    // Given no store yet
    let f = FiringFixtureWithoutStore()
    // When the daemon starts, creates the store, and is ready
    let daemon = try ChildProcess.daemon(db: f.path, folder: f.folder, name: "d")
    #expect(daemon.waitReady(), "\(daemon.stderr)")
    // Then none of its threads is a dispatch worker (they are named after their root queue)
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/task")) ?? []).map
    {
      ((try? String(contentsOfFile: "/proc/\(daemon.pid)/task/\($0)/comm", encoding: .utf8)) ?? "")
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
    #expect(!names.isEmpty)
    #expect(!names.contains { $0.contains("qos") }, "\(names)")
    daemon.send(SIGTERM)
    #expect(daemon.waitExit() == 0)
  }
}

/// A folder for a store that does not exist yet.
struct FiringFixtureWithoutStore {
  let folder = TemporaryFolder(prefix: "notify-idle")
  var path: String { folder.file("notify.db") }
}

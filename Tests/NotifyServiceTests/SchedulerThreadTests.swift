import Foundation
import NotifyTestSupport
import Testing

/// The scheduler answers on a thread of its own, so that no call holds a hand-off of the
/// firing loop (other apps' fire latency unchanged while a client floods the service), and
/// `Present` still shows through the loop's firer, on the loop's thread.
@Suite(.needsSchedulerBus)
struct SchedulerThreadTests {
  @Test func theServiceRunsOnItsOwnThreadAndPresentsThroughTheLoop() throws {
    let bus = try SchedulerBus()
    try bus.startDaemon()
    let pid = try #require(bus.daemonPID)
    // Then the daemon has a thread named for the service besides its main thread
    #expect(threadNames(pid).contains("notify.service"), "\(threadNames(pid))")
    // And a notification presented over the bus is delivered by the loop's sink
    let presented = try bus.gdbus("Present", "org.example.T", "{'id': <'p1'>, 'title': <'Now'>}")
    #expect(presented.status == 0, "\(presented.stderr)")
    let shown = waitUntil(timeout: 30) { text(bus.folder.file("daemon.out")).contains("\"p1\"") }
    #expect(shown, "\(text(bus.folder.file("daemon.err")))")
    // And the daemon stops with its service thread on SIGTERM
    kill(pid, SIGTERM)
    let exited = waitUntil(timeout: 30) { CommandRunner.hasExited(pid) }
    #expect(exited)
  }

  private func threadNames(_ pid: pid_t) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).map {
      ((try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8)) ?? "")
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }
}

/// A large `Schedule`'s transaction runs off the service's thread: another caller's read is
/// answered while it waits for the store.
@Suite(.needsSchedulerBus)
struct SchedulerBatchTests {
  @Test("a read sent after a large batch is answered while the batch waits for the store's write lock")
  func readBesideBatch() throws {
    // Given a daemon with its scheduler, and the store's write lock held by another process
    let bus = try SchedulerBus()
    try bus.startDaemon()
    // When a batch of 64 is sent, and after it another connection's ListPending
    let answers = try bus.python("batch-beside-read", "org.example.Batch", "64", bus.folder.file("notify.db"))
    // Then the read is answered first, while the batch still waits for the lock
    #expect((answers["read"] as? [String: Any])?["result"] != nil, "\(answers)")
    #expect(answers["readFirst"] as? Bool == true, "\(answers)")
    // And the batch is stored once the lock is released, all 64 of it
    let batch = try #require((answers["batch"] as? [String: Any])?["result"] as? [Any], "\(answers)")
    #expect((batch.first as? [String])?.count == 64, "\(answers)")
    #expect(try bus.pendingIDs(app: "org.example.Batch").count == 64)
  }
}

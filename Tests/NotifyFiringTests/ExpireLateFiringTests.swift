import Foundation
import Glibc
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// What fell due while no firer ran (the machine slept, or was off): shown late as before,
/// unless later than its `--expire-late`, then recorded missed with how late; an app that
/// missed several hears it once, in one summary.
@Suite("expire-late and the summary of what was missed", .serialized, .ownThreads)
struct ExpireLateFiringTests {
  enum Run: String, CaseIterable, Sendable { case daemon, fireDue = "fire-due" }

  @Test(
    "past its limit recorded missed (with how late), within it delivered late, one summary per app that missed several",
    arguments: Run.allCases)
  func catchUp(run: Run) throws {
    // Given, while no firer runs, three of app test due in 1-2 s that may be 1 s late,
    // one that may be an hour late, and one of app other that may be 1 s late
    let f = try FiringFixture()
    let start = Date()
    func schedule(_ id: String, app: String = "test", in seconds: Double, expire: String) throws {
      let result = try notify(
        [
          "schedule", "--app", app, "--id", id, "--at", rfc3339(start + seconds), "--title", "title \(id)",
          "--expire-late", expire,
        ], db: f.path)
      #expect(result.status == 0, "\(result.stderr)")
    }
    for (index, id) in ["m1", "m2", "m3"].enumerated() {
      try schedule(id, in: 1 + Double(index) * 0.5, expire: "1s")
    }
    try schedule("kept", in: 1, expire: "1h")
    try schedule("lone", app: "other", in: 1, expire: "1s")
    // When the instants pass by more than a second while nothing fires
    #expect(waitUntil(timeout: 30) { Date() > start + 4.5 })
    // And a firer starts (the machine woke, or booted)
    let output: [Delivered]
    switch run {
    case .daemon:
      let daemon = try ChildProcess.daemon(db: f.path, folder: f.folder, name: "d")
      #expect(daemon.waitReady(), "\(daemon.stderr)")
      #expect(f.waitSettled(), "\(daemon.stderr)")
      #expect(waitUntil(timeout: 20) { daemon.deliveries.count >= 2 }, "\(daemon.stderr)")
      daemon.send(SIGTERM)
      #expect(daemon.waitExit() == 0, "\(daemon.stderr)")
      output = daemon.deliveries
    case .fireDue:
      let result = try notify(["fire-due", "--sink", "stdout"], db: f.path)
      #expect(result.status == 0, "\(result.stderr)")
      output = result.stdout.split(separator: "\n").compactMap { Delivered(line: String($0)) }
    }
    // Then the three and the lone one are missed, past their own limit, with how late
    let missed = try f.events(.missed)
    #expect(Set(missed.map(\.notificationID)) == ["m1", "m2", "m3", "lone"])
    for event in missed {
      #expect(event.reason == "expire-late")
      if case .int(let late)? = event.detail["lateBy"] {
        #expect(late >= 1)
      } else {
        Issue.record("\(event)")
      }
    }
    // And the one that may be an hour late is delivered, late; app test's summary says the
    // three were missed; app other, which missed one, gets none
    #expect(output.first { $0.id == "kept" }?.late == true, "\(output.map(\.line))")
    let summaries = output.filter { $0.id.hasPrefix("missed-") }
    #expect(summaries.map(\.app) == ["test"], "\(output.map(\.line))")
    let summary = try #require(summaries.first)
    #expect(summary.line.contains("3 notifications missed while the computer was asleep or off"))
    #expect(summary.line.contains("title m3") && summary.line.contains("title m1"))
    #expect(Set(output.map(\.id)).isDisjoint(with: ["m1", "m2", "m3", "lone"]))
  }
}

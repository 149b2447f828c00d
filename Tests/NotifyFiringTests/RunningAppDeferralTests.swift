import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// A firer for every app leaves a running firing app's notifications to it, and takes one
/// over once it is `RunningAppDeferral.grace` late (the app hangs).
@Suite(.ownThreads)
struct RunningAppDeferralTests {
  @Test(
    "fire-due leaves a running app's due notification to it, and takes it over 2 s late when the app hangs")
  func fireDueDefers() throws {
    // Given app "busy" firing its own, frozen (SIGSTOP: alive, online, but firing nothing)
    let f = try FiringFixture()
    let app = try ChildProcess.firer(.app, db: f.path, folder: f.folder, name: "a", app: "busy")
    #expect(app.waitReady(), "\(app.stderr)")
    kill(app.pid, SIGSTOP)
    // (stopped for sure before anything is scheduled: state T in /proc/PID/stat)
    #expect(
      waitUntil(timeout: 10) {
        fileBytes("/proc/\(app.pid)/stat").map { String(decoding: $0, as: UTF8.self) }?
          .split(separator: ")").last?.split(separator: " ").first == "T"
      })
    defer {
      kill(app.pid, SIGCONT)
      app.send(SIGTERM)
      #expect(app.waitExit() == 0)
    }
    // And one notification of busy and one of another app, both due now
    let due = Date()
    try f.schedule("theirs", at: due, app: "busy")
    try f.schedule("other", at: due, app: "other")
    // When fire-due runs at once, and again until busy's comes out
    // (each run must succeed: one that fails, busy (75) or otherwise, is not "not yet")
    var printed: [Delivered] = []
    func fireDue() throws -> Bool {
      let run = try notify(["fire-due", "--sink", "stdout"], db: f.path)
      try #require(run.status == 0, "fire-due exit \(run.status): \(run.stderr)")
      printed += run.stdout.split(separator: "\n").compactMap { Delivered(line: String($0)) }
      return printed.contains { $0.id == "theirs" }
    }
    let firstRunBeforeGrace = try !fireDue() && Date() < due + RunningAppDeferral.grace
    // Then the first run delivers the other app's and leaves busy's to busy (when it ran
    // before the grace was over: a slow machine may not get there)
    if firstRunBeforeGrace { #expect(printed.map(\.id) == ["other"]) }
    #expect(try waitUntil(timeout: 15) { try fireDue() })
    let late = printed.first { $0.id == "theirs" }
    // Then it was taken over no sooner than the grace after its instant, once
    let taken = try #require(late)
    #expect(taken.deliveredAt >= due + RunningAppDeferral.grace - 0.011, "\(taken.line)")
    #expect(try f.events(.delivered).filter { $0.notificationID == "theirs" }.count == 1)
  }
}

import Foundation
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// A response belongs to one process: two processes of one app online
/// (two chat clients under one app id) both hear deliveries, but a click or a reply that
/// another process recorded reaches only the app's process online longest; one that an
/// app process recorded itself reaches no other.
@Suite(.serialized, .ownThreads)
struct ResponseOwnerTests {
  @Test("a reply the daemon recorded reaches one of two processes of the app, not both")
  func oneProcessHearsAResponse() throws {
    // Given two processes of app "pair" online: the first fires, the second came later
    let f = try FiringFixture()
    let first = try ChildProcess.notify(
      ["--app", "pair", "--sink", "stdout"], db: f.path, folder: f.folder, name: "first",
      program: "embedded-app-fixture")
    #expect(first.waitReady(), "\(first.stderr)")
    let second = try ChildProcess.notify(
      ["--app", "pair", "--sink", "stdout", "--no-fire"], db: f.path, folder: f.folder, name: "second",
      program: "embedded-app-fixture")
    #expect(second.waitReady(), "\(second.stderr)")
    defer {
      for process in [first, second] {
        process.send(SIGTERM)
        _ = process.waitExit()
      }
    }
    // When another process (as the daemon does for a bubble it showed) records a reply to
    // one of its notifications, and after it a delivery of another
    let reply = HistoryEvent(
      at: Date(), app: "pair", notificationID: "asked", kind: .activated, reason: "reply",
      detail: ["text": .string("on my way"), "actionKey": .string("reply")])
    try f.store.record(reply)
    try f.store.record(HistoryEvent(at: Date(), app: "pair", notificationID: "after", kind: .delivered))
    // Then both hear the later delivery (so both have read past the reply), and only the
    // first hears the reply
    for process in [first, second] {
      #expect(
        waitUntil(timeout: 15) { process.stderr.contains("event: delivered after") },
        "\(process.stderr)")
    }
    #expect(first.stderr.contains("event: activated asked"), "\(first.stderr)")
    #expect(!second.stderr.contains("event: activated asked"), "\(second.stderr)")
  }
}

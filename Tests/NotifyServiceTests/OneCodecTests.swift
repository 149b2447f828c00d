import Foundation
import NotifyCore
import NotifyDesktop
import NotifyStore
import NotifyTestSupport
import Testing

@testable import Notify
@testable import NotifyService

/// The same bad notification through each front door (the command's flags, a D-Bus
/// `Schedule` on a real bus, the library's `add`) is refused for the same reason in the
/// same words: one codec reads them all (`RequestCodec`).
@Suite(
  .ownThreads,
  .needsSchedulerBus
)
struct OneCodecTests {
  /// One bad input, as each door takes it, and the reason every door must give.
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var flags: [String]
    /// The request's `a{sv}` entries as `gdbus` reads them (GVariant text), besides `in`.
    var keys: String
    /// The library's content; nil when the library's types cannot express the input.
    var content: NotificationContent?
    var reason: NotifyError.Reason
    /// How the command line names the terms of the words, when they have any.
    var flagNames: [Term: String] = [:]
    var testDescription: String { name }
  }

  static let bigInfo = String(repeating: "x", count: 5000)

  static let cases: [Case] = [
    Case(
      name: "a title too long", flags: ["--title", String(repeating: "t", count: 250), "b"],
      keys: "'title': <'\(String(repeating: "t", count: 250))'>, 'body': <'b'>",
      content: NotificationContent(title: String(repeating: "t", count: 250), body: "b"),
      reason: .invalid(.title, .tooLong(characters: 250, limit: 200))),
    Case(
      name: "a badge out of range", flags: ["--badge", "100000", "b"],
      keys: "'badge': <uint32 100000>, 'body': <'b'>",
      content: NotificationContent(body: "b", badge: 100_000),
      reason: .invalid(.badge, .outOfRange(100_000, 0...99_999))),
    Case(
      name: "a userInfo too large", flags: ["--user-info", "{\"k\":\"\(bigInfo)\"}", "b"],
      keys: "'userInfo': <{'k': <'\(bigInfo)'>}>, 'body': <'b'>",
      content: NotificationContent(body: "b", userInfo: ["k": .string(bigInfo)]),
      reason: .invalid(.userInfo, .tooLarge(bytes: 5008, limit: 4096)), flagNames: [.userInfo: "--user-info"]),
    Case(
      name: "a thread of spaces", flags: ["--thread", "a b", "b"],
      keys: "'threadIdentifier': <'a b'>, 'body': <'b'>",
      content: NotificationContent(body: "b", threadIdentifier: "a b"),
      reason: .invalid(.thread, .characters("a b", allowed: "A-Z a-z 0-9 . _ : -", lengths: 1...128))),
    Case(
      name: "an unknown urgency", flags: ["--urgency", "panic", "b"],
      keys: "'urgency': <'panic'>, 'body': <'b'>",
      content: nil, reason: .invalid(.urgency, .unknownWord("panic", allowed: ["low", "normal", "critical"]))),
    Case(
      name: "a level the urgency contradicts", flags: ["--urgency", "low", "--level", "critical", "b"],
      keys: "'urgency': <'low'>, 'interruptionLevel': <'critical'>, 'body': <'b'>", content: nil,
      reason: .invalid(.interruptionLevel, .disagrees("critical", with: .urgency, "low"))),
  ]

  @Test(arguments: cases)
  func theSameBadInputIsRefusedAlikeThroughEveryDoor(_ bad: Case) async throws {
    let bus = try SchedulerBus()
    try bus.startDaemon()
    let expected = NotifyError(bad.reason)
    // When the command line schedules it
    let cli = try CommandRunner(environment: bus.environment).run(
      ["schedule", "--app", "org.example.Doors", "--in", "1h"] + bad.flags)
    // Then it exits with the reason's code and says the reason's words, in its flags' names
    #expect(cli.status == expected.exitCode)
    let cliWords = expected.rendered { bad.flagNames[$0] ?? $0.apiName }
    #expect(cli.stderr == "notify: error: \(cliWords)\n")
    // When a D-Bus client schedules it
    let dbus = try bus.gdbus("Schedule", "org.example.Doors", "[{'in': <'1h'>, \(bad.keys)}]")
    // Then the call fails with the reason's D-Bus error and the same words
    #expect(dbus.status != 0)
    #expect(
      dbus.stderr.contains(
        "GDBus.Error:io.github.notify.Scheduler1.Error.InvalidArgs: \(expected.description)"),
      "\(dbus.stderr)")
    // When an app adds it through the library
    if let content = bad.content {
      let center = try LocalNotificationCenter(
        app: "org.example.Doors", storePath: bus.folder.file("library.db"), sink: .stdout)
      do {
        try await center.add(NotificationRequest(content: content, trigger: .after(.seconds(3600))))
        Issue.record("the library took \(bad.name)")
      } catch {
        // Then it throws the case for that reason, with the same field, rule and words
        guard case .invalidContent(let field, let violation, let context) = error else {
          Issue.record("\(error)")
          return
        }
        #expect(NotifyError.Reason.invalid(try #require(field), try #require(violation)) == bad.reason)
        #expect(context.description == expected.description)
      }
    }
    // And nothing was stored by any of them
    #expect(try bus.pendingIDs(app: "org.example.Doors").isEmpty)
  }
}

/// The D-Bus service and the library check a notification once on its way to its row, as
/// `notify schedule` does (`OneCheckTests`).
struct OneCheckThroughTheServiceAndTheLibraryTests {
  let folder = TemporaryFolder()
  let now = Date(timeIntervalSince1970: 1_790_000_000)

  @Test func aScheduleCallChecksEachRequestOnce() throws {
    // Given the service on a store
    let store = try SQLiteStore(path: folder.file("notify.db"))
    let service = SchedulerService(store: store, clock: ManualClock(now: now), owner: 1000)
    let caller = Caller(connection: ":1.9", pid: 44, uid: 1000)
    let batch = BusValue.array(
      element: "a{sv}",
      ["a", "b"].map { .vardict([("id", .string($0)), ("body", .string("b")), ("in", .string("1h"))]) })
    // When a batch of two is scheduled, its checks counted
    let count = Locked(0)
    try Validator.$checkCount.withValue(count) {
      _ = try service.call("Schedule", [.string("org.example.App"), batch], caller: caller)
    }
    // Then each request was checked once, and both are stored
    #expect(count.value == 2)
    #expect(try store.pending(app: "org.example.App").count == 2)
  }

  @Test func theLibraryChecksOnce() throws {
    // Given a center on a store
    let store = try SQLiteStore(path: folder.file("notify.db"))
    let center = try LocalNotificationCenter(
      app: "org.example.App", store: store, sink: StdoutSink(), clock: ManualClock(now: now))
    // When it schedules content, its checks counted
    let count = Locked(0)
    try Validator.$checkCount.withValue(count) {
      try center.ownStore.schedule(
        NotificationContent(title: "Standup", userInfo: ["room": "4B"]), trigger: .after(.seconds(600)))
    }
    // Then it was checked once, and stored
    #expect(count.value == 1)
    #expect(try store.pending(app: "org.example.App").count == 1)
  }
}

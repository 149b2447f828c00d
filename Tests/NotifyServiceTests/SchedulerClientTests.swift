import Foundation
import NotifyCore
import NotifyDesktop
import Testing

@testable import Notify
@testable import NotifyService

/// The library's client and the service agree: what the client sends decodes, through the
/// service's own `RequestDecoder`, to the notification the center made; what `ListPending`
/// answers reads back as the stored notification; the service's errors become the cases an
/// app switches on; and the routing decision is the table of docs/sandboxes.md.
struct SchedulerClientTests {
  static let now = Date(timeIntervalSince1970: 1_790_000_000)
  static let wall = WallClock(year: 2026, month: 11, day: 23, hour: 9)

  static func notification(_ schedule: Schedule) -> LocalNotification {
    LocalNotification(
      id: "n1", app: "org.example.Probe", schedule: schedule, title: "Standup", body: "<b>now</b>",
      action: "Open", launchImage: "splash", sound: .default, badge: 3,
      userInfo: ["room": "4B", "n": 3, "tags": ["a", "b"], "nested": ["ok": true]],
      actions: [
        .button(key: "yes", title: "Yes", opensApp: true),
        .textInput(key: "reply", title: "Reply", placeholder: "…"),
        .snooze(seconds: 600),
      ], subtitle: "Room 4B", interruptionLevel: .timeSensitive, threadIdentifier: "t",
      threadSummary: "%u more",
      bodyMarkup: true, categoryIdentifier: "meeting", realert: Realert(every: 120, times: 2), createdAt: now)
  }

  static let schedules: [Schedule] = [
    Schedule(fireDate: .instant(now + 60.25)),
    Schedule(fireDate: .wallClock(wall, .named("UTC")), repeatInterval: .day, repeatCount: 3),
    Schedule(fireDate: .wallClock(wall, .local), repeatInterval: .week, until: now + 86_400 * 30),
    try! Schedule(
      fireDate: .wallClock(wall, .named("UTC")),
      rule: {
        var rule = try! RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE")
        rule.exclusions = [.day(.init(year: 2026, month: 11, day: 25))]
        return rule
      }(), repeatCount: 5),
  ]

  @Test(arguments: schedules)
  func whatTheClientSendsDecodesToTheSameNotification(schedule: Schedule) throws {
    // Given a notification as the center makes it
    let sent = Self.notification(schedule)
    // When the client encodes it and the service decodes it
    let request = SchedulerClient.request(sent, files: .init(), trigger: true)
    let decoded = try RequestDecoder(app: sent.app, now: Self.now, zones: .utc).scheduled(
      request.vardictEntries ?? []
    ).notification
    // Then it is the same notification
    #expect(decoded == sent)
  }

  @Test(arguments: schedules)
  func aPendingRecordReadsBackAsTheStoredNotification(schedule: Schedule) throws {
    // Given a stored notification as ListPending answers it (an instant one not yet fired:
    // the listing shows the next fire instant, which is then its first)
    var next = Self.now + 3600
    if case .instant(let first) = schedule.fireDate { next = first }
    let stored = StoredNotification(
      rowID: 0, notification: Self.notification(schedule), nextOccurrence: 0, nextFireDate: next)
    // When the client reads the record
    let read = try #require(SchedulerClient.stored(SchedulerService.record(stored), app: "org.example.Probe"))
    // Then it is the stored notification
    #expect(read.notification == stored.notification)
    #expect(read.nextFireDate == stored.nextFireDate)
  }

  @Test(arguments: [
    (
      SchedulerError.limitReached("not scheduled: …; discarded: b65"),
      NotificationError.limitReached(id: nil, .init(problem: "not scheduled: …; discarded: b65"))
    ),
    (.invalidTrigger("'at' and 'in'"), .invalidContent(nil, nil, .init(problem: "'at' and 'in'"))),
    (.invalidArgs("title too long"), .invalidContent(nil, nil, .init(problem: "title too long"))),
    (.unknownID("not cancelled: 'x'"), .notFound(ids: [], .init(problem: "not cancelled: 'x'"))),
    (.storeBusy("busy"), .storeBusy(holder: nil, .init(problem: "busy"))),
    (
      .notAllowed("a sandboxed app acts for itself only"),
      .notAllowed(.init(problem: "a sandboxed app acts for itself only"))
    ),
    // Told apart by their names, not their words: none of these messages says what it is.
    (
      .soundRejected("'x.wav' is not a WAV file"),
      .soundRejected(sound: nil, .init(problem: "'x.wav' is not a WAV file"))
    ),
    (
      .storeUnavailable("cannot open it"), .storeUnavailable(damaged: false, .init(problem: "cannot open it"))
    ),
    (.serverUnavailable("nobody answers"), .serverUnavailable(.init(problem: "nobody answers"))),
    (.serverTimedOut("no answer within 25 s"), .serverTimedOut(.init(problem: "no answer within 25 s"))),
    (
      .failed("the notification server is busy"),
      .temporary(.init(problem: "the notification server is busy"))
    ),
  ])
  func theServicesErrorsBecomeTheCasesAnAppSwitchesOn(sent: SchedulerError, expected: NotificationError) {
    let failure = SchedulerCallFailure(errorName: sent.name, message: sent.description, isTimeout: false)
    #expect(SchedulerClient.error(failure) == expected)
  }

  @Test func theBackendIsTheServiceOnlyInsideASandboxThatReachesIt() throws {
    let probe = FlatpakApp(id: "org.example.Probe")
    var asked = 0
    let reachable = {
      asked += 1
      return true
    }
    // Outside a sandbox: the own store, and the bus is not even asked
    #expect(try CenterBackend.decide(app: "chat", sandbox: nil, serviceReachable: reachable) == .ownStore)
    #expect(asked == 0)
    // In a sandbox without the service: the own store (the portal shows what is due)
    #expect(try CenterBackend.decide(app: "org.example.Probe", sandbox: probe) { false } == .ownStore)
    // In a sandbox with it: the service, for the sandbox's id
    #expect(
      try CenterBackend.decide(app: "org.example.Probe", sandbox: probe, serviceReachable: reachable)
        == .service(app: "org.example.Probe"))
    // Claiming another id there: refused, naming both
    let error = #expect(throws: NotifyError.self) {
      try CenterBackend.decide(app: "org.example.Other", sandbox: probe) { true }
    }
    #expect(error?.description.contains("'org.example.Probe'") == true)
    #expect(error?.description.contains("not 'org.example.Other'") == true)
  }
}

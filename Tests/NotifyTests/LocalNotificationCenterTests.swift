import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyTestSupport
import NotifyZones
import Testing

/// The center on a real SQLite file in a fresh folder, with a manual clock.
@Suite(.ownThreads)
struct LocalNotificationCenterTests {
  let folder = TemporaryFolder(prefix: "notify-center")
  let clock = ManualClock(now: Date(timeIntervalSince1970: 1_795_000_000))
  let sink = RecordingSink()

  func makeCenter(app: String = "chat") throws -> LocalNotificationCenter {
    try LocalNotificationCenter(
      app: app, store: try SQLiteStore(path: folder.file("notify.db")), sink: sink, clock: clock)
  }

  @Test func schedulesWithATriggerAndListsPending() throws {
    // Given a center
    let center = try makeCenter()
    // When a notification is scheduled ten minutes ahead
    let outcome = try center.ownStore.schedule(
      NotificationContent(
        title: "Standup", body: "Room 4B", sound: .default, userInfo: ["room": .string("4B")]),
      trigger: .after(.seconds(600)), id: "standup")
    // Then it is pending, due in ten minutes, with nothing discarded
    #expect(outcome.discarded.isEmpty)
    let pending = try center.ownStore.pending()
    #expect(pending.map(\.notification.id) == ["standup"])
    #expect(pending.first?.nextFireDate == clock.now() + 600)
    #expect(pending.first?.notification.content.userInfo == ["room": .string("4B")])
  }

  @Test func wallClockAndRepeatingTriggersBecomeSchedules() throws {
    // Given a daily 09:00 Berlin trigger
    let nine = WallClock(year: 2026, month: 11, day: 23, hour: 9)
    let trigger = NotificationTrigger.wallClock(nine, in: .named("Europe/Berlin")).repeating(
      every: .day, count: 3)
    // When it is turned into a schedule
    let schedule = try trigger.schedule(now: clock.now())
    // Then the wall-clock anchor, zone and repeat are kept
    #expect(
      schedule
        == Schedule(fireDate: .wallClock(nine, .named("Europe/Berlin")), repeatInterval: .day, repeatCount: 3)
    )
    // And an unknown zone is a data error
    let error = #expect(throws: NotificationError.self) {
      try NotificationTrigger.wallClock(nine, in: .named("Mars/Olympus")).schedule(now: clock.now())
    }
    #expect(error.map { if case .invalidContent = $0 { true } else { false } } == true)
  }

  @Test func calendarTriggerRepeatsByItsRule() throws {
    // Given a center (clock: 2026-11-18) and a Monday-and-Wednesday 09:00 UTC rule from Thursday 11-19
    let center = try makeCenter()
    let rule = try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE")
    let nine = WallClock(year: 2026, month: 11, day: 19, hour: 9)
    // When it is scheduled as a calendar trigger with a count
    try center.ownStore.schedule(
      NotificationContent(title: "Standup"),
      trigger: .calendar(rule, from: nine, in: .named("UTC")).repeating(by: rule, count: 3),
      id: "standup")
    // Then one notification is pending, first on Monday 09:00, the count written into the rule
    let pending = try center.ownStore.pending()
    #expect(pending.count == 1)
    let stored = try #require(pending.first)
    #expect(stored.notification.schedule.rule?.ruleText == "FREQ=WEEKLY;BYDAY=MO,WE;COUNT=3")
    #expect(stored.nextFireDate.map { RFC3339.string(from: $0) } == "2026-11-23T09:00:00Z")
    // And a rule with its own end plus a count is a data error naming COUNT
    let error = #expect(throws: NotificationError.self) {
      try NotificationTrigger.calendar(try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=2"), from: nine)
        .repeating(by: try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=2"), count: 5).schedule(now: clock.now())
    }
    #expect(error.map { if case .invalidContent = $0 { true } else { false } } == true)
    #expect(error?.context.problem.contains("COUNT=2") == true)
  }

  @Test func aRuleCountsOnceAgainstThe64Limit() throws {
    // Given 64 pending notifications, each repeating by a minutely rule (thousands of occurrences a day)
    let center = try makeCenter()
    let rule = try RecurrenceRule(parsing: "FREQ=MINUTELY;BYHOUR=9,10,11")
    for i in 0..<64 {
      let outcome = try center.ownStore.add(
        LocalNotification(
          id: "n\(i)", app: "chat",
          schedule: try Schedule(fireDate: .instant(clock.now() + 3600 + Double(i)), rule: rule),
          title: "n\(i)",
          createdAt: clock.now()))
      #expect(outcome.discarded.isEmpty)
    }
    // When a 65th, later one is added
    let outcome = try center.ownStore.add(
      LocalNotification(
        id: "late", app: "chat", schedule: Schedule(fireDate: .instant(clock.now() + 86_400 * 3)),
        title: "late",
        createdAt: clock.now()))
    // Then the 64 rules stay, each one pending notification, and the 65th is the one discarded
    #expect(outcome.newOneDiscarded)
    #expect(try center.ownStore.pending().count == 64)
  }

  @Test func presentDeliversRecordsAppliesBadgeAndPublishes() async throws {
    // Given a center and a subscription to its events
    let center = try makeCenter()
    let events = center.events
    // When a message is presented now
    let content = try NotificationContent(
      apnsPayload: #"{"aps":{"alert":"SteveJ: Hello, world!","sound":"default","badge":1},"sender":"SteveJ"}"#
    )
    let delivery = try center.ownStore.present(content, id: "m1")
    // Then the sink got it, history has it, the badge is set
    #expect(sink.deliveries.map(\.notification.body) == ["SteveJ: Hello, world!"])
    #expect(try center.ownStore.recentDeliveries().map(\.notificationID) == ["m1"])
    #expect(try center.ownStore.badge() == 1)
    // And a delivered event carries the notification and its userInfo
    var iterator = events.makeAsyncIterator()
    let event = await iterator.next()
    #expect(event?.kind == .delivered)
    #expect(event?.userInfo == ["sender": .string("SteveJ")])
    #expect(event?.delivery == delivery)
    // And present does not count toward the pending limit
    #expect(try center.ownStore.pending().isEmpty)
  }

  @Test func presentThatTheSinkRefusesIsNotRecorded() throws {
    // Given a sink that refuses
    let center = try makeCenter()
    sink.refuse(true)
    // When a notification is presented
    // Then the sink's error comes back and nothing is recorded
    #expect(throws: NotifyError.self) { try center.ownStore.present(NotificationContent(body: "lost?")) }
    #expect(try center.ownStore.recentDeliveries().isEmpty)
  }

  @Test func cancelReportsWhatWasNotPending() throws {
    // Given two pending notifications
    let center = try makeCenter()
    try center.ownStore.schedule(NotificationContent(body: "a"), trigger: .after(.seconds(60)), id: "a")
    try center.ownStore.schedule(NotificationContent(body: "b"), trigger: .after(.seconds(60)), id: "b")
    // When one real and one unknown id are cancelled
    let missing = try center.ownStore.cancel(["a", "nope"])
    // Then the unknown one is reported and the real one is gone
    #expect(missing == ["nope"])
    #expect(try center.ownStore.pending().map(\.notification.id) == ["b"])
    // And cancelAll removes the rest, recording each in history
    #expect(try center.ownStore.cancelAll() == ["b"])
    #expect(try center.ownStore.pending().isEmpty)
    #expect(try center.ownStore.recordedHistory().filter { $0.kind == .cancelled }.count == 2)
  }

  @Test func centersOfDifferentAppsDoNotSeeEachOther() throws {
    // Given two apps on one store
    let chat = try makeCenter(app: "chat")
    let mail = try makeCenter(app: "mail")
    try chat.ownStore.schedule(NotificationContent(body: "chat"), trigger: .after(.seconds(60)), id: "x")
    // When the other app lists and cancels all
    // Then it sees and removes nothing of the first
    #expect(try mail.ownStore.pending().isEmpty)
    #expect(try mail.ownStore.cancelAll().isEmpty)
    #expect(try chat.ownStore.pending().count == 1)
  }

  @Test func theLimitDiscardsTheLatestAndRefusesANewLatest() throws {
    // Given 64 pending notifications, one a minute
    let center = try makeCenter()
    for minute in 1...64 {
      try center.ownStore.schedule(
        NotificationContent(body: "n\(minute)"), trigger: .after(.seconds(minute * 60)), id: "n\(minute)")
    }
    // When one sooner than all of them is scheduled
    let outcome = try center.ownStore.schedule(
      NotificationContent(body: "soon"), trigger: .after(.seconds(30)), id: "soon")
    // Then the latest one is discarded and reported
    #expect(outcome.discarded.map(\.notification.id) == ["n64"])
    // And one later than all of them is refused as not scheduled
    let error = #expect(throws: NotifyError.self) {
      try center.ownStore.schedule(
        NotificationContent(body: "late"), trigger: .after(.seconds(86_400)), id: "late")
    }
    #expect(error?.kind == .notTakenEffect)
    #expect(try center.ownStore.pending().count == 64)
  }

  @Test func invalidContentIsRefusedWithTheField() throws {
    let center = try makeCenter()
    // Given content with nothing to show, a bad badge, a bad id
    // Then each is a data error that names the problem
    let empty = #expect(throws: NotifyError.self) { try center.ownStore.present(NotificationContent()) }
    #expect(empty?.problem.contains("nothing to show") == true)
    let badge = #expect(throws: NotifyError.self) {
      try center.ownStore.present(NotificationContent(badge: -3))
    }
    #expect(badge?.problem.contains("badge") == true)
    let id = #expect(throws: NotifyError.self) {
      try center.ownStore.schedule(
        NotificationContent(body: "x"), trigger: .after(.seconds(1)), id: "no spaces")
    }
    #expect(id?.problem.contains("invalid id") == true)
    let delay = #expect(throws: NotifyError.self) {
      try center.ownStore.schedule(NotificationContent(body: "x"), trigger: .after(.seconds(-5)))
    }
    #expect(delay?.kind == .invalidData)
  }

  @Test func badgeCanBeSetAndCleared() throws {
    let center = try makeCenter()
    // Given no badge ever set, it reads 0
    #expect(try center.ownStore.badge() == 0)
    // When it is set and cleared
    try center.ownStore.setBadge(7)
    #expect(try center.ownStore.badge() == 7)
    try center.ownStore.setBadge(0)
    // Then it reads back each time
    #expect(try center.ownStore.badge() == 0)
  }

  @Test func activationAndDismissalAreRecordedAndPublished() async throws {
    // Given a presented notification and a subscription
    let center = try makeCenter()
    try center.ownStore.present(
      NotificationContent(body: "hi", userInfo: ["sender": .string("SteveJ")]), id: "m1")
    let events = center.events
    // When the app reports that the user opened it, then closed another one it does not know
    #expect(try await center.recordActivation(of: "m1", actionKey: "default"))
    #expect(try await center.recordDismissal(of: "unknown") == false)
    // Then the activation is in history and in the event stream, with userInfo
    let history = try center.ownStore.recordedHistory()
    #expect(history.first?.kind == .activated)
    #expect(history.first?.reason == "default")
    var iterator = events.makeAsyncIterator()
    let event = await iterator.next()
    #expect(event?.kind == .activated(actionKey: "default"))
    #expect(event?.userInfo["sender"] == .string("SteveJ"))
  }

  @Test func everySubscriberGetsEveryEvent() async throws {
    // Given two subscriptions
    let center = try makeCenter()
    let first = center.events
    let second = center.events
    // When two notifications are presented
    try center.ownStore.present(NotificationContent(body: "one"), id: "one")
    try center.ownStore.present(NotificationContent(body: "two"), id: "two")
    // Then each subscription sees both, in order
    for stream in [first, second] {
      var iterator = stream.makeAsyncIterator()
      let ids = [await iterator.next()?.notification.id, await iterator.next()?.notification.id]
      #expect(ids == ["one", "two"])
    }
  }

  @Test func deliveredSkipsOtherEventKinds() throws {
    // Given a history mixing cancellations and deliveries
    let center = try makeCenter()
    for index in 0..<5 {
      try center.ownStore.schedule(
        NotificationContent(body: "c"), trigger: .after(.seconds(60)), id: "c\(index)")
      try center.ownStore.cancel(id: "c\(index)")
      try center.ownStore.present(NotificationContent(body: "d"), id: "d\(index)")
      try center.ownStore.schedule(
        NotificationContent(body: "e"), trigger: .after(.seconds(60)), id: "e\(index)")
      try center.ownStore.cancel(id: "e\(index)")
    }
    // When the last three deliveries are asked for
    let delivered = try center.ownStore.recentDeliveries(limit: 3)
    // Then only deliveries come back, newest first
    #expect(delivered.map(\.notificationID) == ["d4", "d3", "d2"])
  }
}

extension LocalNotificationCenterTests {
  @Test func presentReplacesAMissingSoundFileWithTheDefault() throws {
    // Given a center whose app has no sound files
    let center = try makeCenter(app: "chat-sounds-\(getpid())")
    // When a notification asking for a missing file is presented
    let delivery = try center.ownStore.present(NotificationContent(body: "ding", sound: .file("missing.wav")))
    // Then it is still delivered, with the default sound and the reason
    #expect(sink.deliveries.count == 1)
    #expect(delivery.sound == .default)
    #expect(delivery.soundRequested == "missing.wav")
    #expect(delivery.soundNote?.contains("not found") == true)
  }
}

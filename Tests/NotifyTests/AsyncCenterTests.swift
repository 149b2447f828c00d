import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyTestSupport
import NotifyZones
import Testing

/// The app's `async` API on a real SQLite file, with a recording sink and a manual clock.
@Suite
struct AsyncCenterTests {
  let folder = TemporaryFolder(prefix: "notify-async")
  let clock = ManualClock(now: Date(timeIntervalSince1970: 1_795_000_000))
  let sink = RecordingSink()

  func makeCenter(app: String = "chat", sink: (any DeliverySink)? = nil) throws -> LocalNotificationCenter {
    try LocalNotificationCenter(
      app: app, store: try SQLiteStore(path: folder.file("notify.db")), sink: sink ?? self.sink, clock: clock)
  }

  @Test func theDocCommentExampleCompilesAndSchedules() async throws {
    let center = try makeCenter()
    // Given the example of NotificationContent's doc comment, exactly
    let content = NotificationContent(
      title: "Standup", body: "Daily standup in room 4B", sound: .default, badge: 1,
      userInfo: ["room": "4B"])
    try await center.add(NotificationRequest(content: content, trigger: .after(.seconds(600))))
    // Then the literal became a JSON string, and the request is pending
    let pending = try await center.pendingNotificationRequests()
    #expect(pending.first?.content.userInfo["room"]?.stringValue == "4B")
    #expect(try await center.pendingNotificationSchedules().first?.nextFireDate == clock.now() + 600)
  }

  @Test func addWithoutTriggerPresentsAndRemovePendingCancels() async throws {
    // Given a center
    let center = try makeCenter()
    // When one request is presented now and two are scheduled
    let delivery = try await center.add(
      NotificationRequest(identifier: "now", content: NotificationContent(title: "Now"), trigger: nil))
    try await center.add(
      NotificationRequest(
        identifier: "a", content: NotificationContent(title: "A"), trigger: .after(.seconds(60))))
    try await center.add(
      NotificationRequest(
        identifier: "b", content: NotificationContent(title: "B"), trigger: .after(.seconds(90))))
    // Then the first went to the sink and the others are pending
    #expect(delivery?.notification.id == "now")
    #expect(sink.deliveries.map(\.notification.id) == ["now"])
    #expect(try await center.pendingNotificationRequests().map(\.identifier) == ["a", "b"])
    // And removing one (and an unknown id) leaves the other
    try await center.removePendingNotificationRequests(withIdentifiers: ["a", "unknown"])
    #expect(try await center.pendingNotificationRequests().map(\.identifier) == ["b"])
    try await center.removeAllPendingNotificationRequests()
    #expect(try await center.pendingNotificationRequests().isEmpty)
  }

  @Test func badgeAndSettings() async throws {
    let center = try makeCenter()
    // When the badge is set
    try await center.setBadgeCount(7)
    // Then it reads back, and the default policy allows everything asked for
    #expect(try await center.badgeCount() == 7)
    #expect(try await center.requestAuthorization(options: [.banner, .sound]) == [.banner, .sound])
    #expect(try await center.notificationSettings().allowed.contains(.banner))
  }

  @Test func errorsAreCasesACallerCanSwitchOn() async throws {
    let center = try makeCenter()
    // Given 64 notifications that fire within a minute
    for i in 0..<64 {
      try await center.add(
        NotificationRequest(
          identifier: "soon-\(i)", content: NotificationContent(title: "\(i)"), trigger: .after(.seconds(60)))
      )
    }
    // When one that fires later is added, Then the limit discards it
    await #expect {
      try await center.add(
        NotificationRequest(
          identifier: "late", content: NotificationContent(title: "L"), trigger: .after(.seconds(6000))))
    } throws: { error in
      guard case .limitReached = error as? NotificationError else { return false }
      return true
    }
    // And content that breaks a rule is invalid content
    await #expect {
      try await center.add(
        NotificationRequest(
          content: NotificationContent(title: String(repeating: "x", count: 300)), trigger: nil))
    } throws: { error in
      guard case .invalidContent = error as? NotificationError else { return false }
      return true
    }
  }

  @Test func deliveredIsWhatIsOnScreen() async throws {
    let center = try makeCenter()
    // Given three notifications presented now: m1 and m2 got a server id, m3 did not
    for id in ["m1", "m2", "m3"] {
      try await center.add(
        NotificationRequest(identifier: id, content: NotificationContent(title: id), trigger: nil))
    }
    try center.ownStore.store.setDesktopServerID(ServerBubbleID(11, server: nil), app: "chat", id: "m1")
    try center.ownStore.store.setDesktopServerID(ServerBubbleID(12, server: nil), app: "chat", id: "m2")
    // When m2 is closed
    #expect(try await center.recordDismissal(of: "m2", reason: "dismissed-by-user"))
    // Then only m1 is on screen, though all three are in history
    #expect(try await center.delivered().map(\.notificationID) == ["m1"])
    #expect(try await center.history().filter { $0.kind == .delivered }.count == 3)
    // (a limit below 1 gives none, as through the service)
    #expect(try await center.history(limit: 2).count == 2)
    #expect(try await center.history(limit: 0).isEmpty)
    #expect(try await center.history(limit: -1).isEmpty)
    // And m1 shown again after a close counts again
    try await center.add(
      NotificationRequest(identifier: "m2", content: NotificationContent(title: "m2"), trigger: nil))
    #expect(try await center.delivered().map(\.notificationID) == ["m2", "m1"])
  }

  @Test func responsesYieldTheKeptOnesOnceThenLiveOnes() async throws {
    let center = try makeCenter()
    // Given a launch response and a reply that waited, both for notification n1
    try await center.add(
      NotificationRequest(
        identifier: "n1", content: NotificationContent(title: "n1"), trigger: .after(.seconds(60))))
    let n1 = try #require(try await center.pendingNotificationSchedules().first?.notification)
    _ = try center.ownStore.store.leave(
      NotificationResponse(
        notification: n1, actionKey: "default", occurrence: 1, activationToken: "t", date: clock.now()))
    _ = try center.ownStore.store.leave(
      NotificationResponse(
        notification: n1, actionKey: "reply", occurrence: 1, activationToken: nil, date: clock.now(),
        userText: "ok"),
      launching: false)
    // When the responses are read
    var responses = center.events.makeAsyncIterator()
    let launch = await responses.next()
    let waited = await responses.next()
    // Then the launch comes first, then the reply
    #expect(launch?.origin == .launch)
    #expect(launch?.kind == .activated(actionKey: "default"))
    #expect(launch?.activationToken == "t")
    #expect(waited?.origin == .waited)
    #expect(waited?.userText == "ok")
    // And then what happens live, in order: the delivery, then the activation
    try await center.add(
      NotificationRequest(identifier: "n2", content: NotificationContent(title: "n2"), trigger: nil))
    #expect(try await center.recordActivation(of: "n2", actionKey: "open"))
    let delivered = await responses.next()
    #expect(delivered?.kind == .delivered)
    #expect(delivered?.notification.id == "n2")
    let live = await responses.next()
    #expect(live?.kind == .activated(actionKey: "open"))
    #expect(live?.origin == .live)
    // And a second reader does not get the kept ones again
    var again = center.events.makeAsyncIterator()
    #expect(try await center.recordDismissal(of: "n2"))
    let next = await again.next()
    #expect(next?.kind == .dismissed(reason: nil))
    #expect(next?.origin == .live)
  }

  @Test func theDesktopEntryIsSetAndReadWithoutBlockingTheCaller() async throws {
    // Given a center whose app names no desktop entry
    let center = try makeCenter()
    #expect(try await center.desktopEntry() == nil)
    // When it names one
    try await center.setDesktopEntry("org.example.Chat")
    // Then it reads back, and a name that is not a desktop file id is refused, the entry kept
    #expect(try await center.desktopEntry() == "org.example.Chat")
    let refused = await #expect(throws: NotificationError.self) {
      try await center.setDesktopEntry("../escape")
    }
    guard case .invalidContent? = refused else {
      Issue.record("not refused as invalid content: \(String(describing: refused))")
      return
    }
    #expect(try await center.desktopEntry() == "org.example.Chat")
    // And nil goes back to APP.desktop
    try await center.setDesktopEntry(nil)
    #expect(try await center.desktopEntry() == nil)
  }
}

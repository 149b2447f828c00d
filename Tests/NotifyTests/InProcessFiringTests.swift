import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyTestSupport
import NotifyZones
import Testing

/// Firing inside the app: claim, deliver and mark through the shared store, so that every
/// occurrence is delivered once whoever fires it.
@Suite(.ownThreads)
struct InProcessFiringTests {
  let folder = TemporaryFolder(prefix: "notify-firing")
  let sink = RecordingSink()
  var path: String { folder.file("notify.db") }

  func makeCenter(app: String = "chat", clock: any NotifyClock, sink: RecordingSink? = nil) throws
    -> LocalNotificationCenter
  {
    try LocalNotificationCenter(
      app: app, store: try SQLiteStore(path: path), sink: sink ?? self.sink, clock: clock)
  }

  @Test func deliversWhatIsDueOnceAndMovesRepeatsOn() async throws {
    // Given a one-off and a minutely notification, scheduled on a manual clock
    let clock = ManualClock(now: Date(timeIntervalSince1970: 1_795_000_000))
    let center = try makeCenter(clock: clock)
    try center.ownStore.schedule(NotificationContent(body: "once"), trigger: .after(.seconds(60)), id: "once")
    try center.ownStore.schedule(
      NotificationContent(body: "tick"), trigger: .after(.seconds(60)).repeating(every: .minute), id: "tick")
    let events = center.events
    // When nothing is due yet
    #expect(try center.ownStore.deliverDueNow() == 0)
    // When the clock reaches the fire date
    clock.advance(by: 60)
    // Then both are delivered once, and asking again delivers nothing more
    #expect(try center.ownStore.deliverDueNow() == 2)
    #expect(try center.ownStore.deliverDueNow() == 0)
    #expect(Set(sink.deliveries.map(\.notification.id)) == ["once", "tick"])
    // And the repeating one is pending for the next minute; the one-off is gone
    #expect(try center.ownStore.pending().map(\.notification.id) == ["tick"])
    #expect(try await center.nextFireDate() == clock.now() + 60)
    // And each delivery was announced
    var iterator = events.makeAsyncIterator()
    var announced: Set<String> = []
    for _ in 0..<2 { if let event = await iterator.next() { announced.insert(event.notification.id) } }
    #expect(announced == ["once", "tick"])
  }

  @Test func leavesOtherAppsNotificationsToTheirFirers() throws {
    // Given two apps with notifications due
    let clock = ManualClock(now: Date(timeIntervalSince1970: 1_795_000_000))
    let chat = try makeCenter(app: "chat", clock: clock)
    let mailSink = RecordingSink()
    let mail = try makeCenter(app: "mail", clock: clock, sink: mailSink)
    try chat.ownStore.schedule(NotificationContent(body: "chat"), trigger: .after(.seconds(1)), id: "c")
    try mail.ownStore.schedule(NotificationContent(body: "mail"), trigger: .after(.seconds(1)), id: "m")
    clock.advance(by: 2)
    // When the chat app fires
    #expect(try chat.ownStore.deliverDueNow() == 1)
    // Then the mail notification is still pending and due, and reaches only mail's sink
    #expect(sink.deliveries.map(\.notification.id) == ["c"])
    #expect(try mail.ownStore.pending().map(\.notification.id) == ["m"])
    #expect(try mail.ownStore.deliverDueNow() == 1)
    #expect(mailSink.deliveries.map(\.notification.id) == ["m"])
  }

  @Test func twoFirersOnOneStoreDeliverEachOccurrenceOnce() async throws {
    // Given 40 notifications due now, and two centers on separate connections to the store
    let clock = ManualClock(now: Date(timeIntervalSince1970: 1_795_000_000))
    let first = try makeCenter(clock: clock)
    let otherSink = RecordingSink()
    let second = try makeCenter(clock: clock, sink: otherSink)
    for index in 0..<40 {
      try first.ownStore.schedule(
        NotificationContent(body: "n\(index)"), trigger: .after(.seconds(1)), id: "n\(index)")
    }
    clock.advance(by: 1)
    // When both fire at the same moment
    async let a = Task.detached { try first.ownStore.deliverDueNow() }.value
    async let b = Task.detached { try second.ownStore.deliverDueNow() }.value
    let counts = try await [a, b]
    // Then every occurrence was delivered exactly once, by one of them
    let ids = (sink.deliveries + otherSink.deliveries).map(\.notification.id)
    #expect(counts.reduce(0, +) == 40)
    #expect(ids.count == 40)
    #expect(Set(ids).count == 40)
    #expect(try first.ownStore.recentDeliveries(limit: 100).count == 40)
  }

  @Test func aRefusingSinkRecordsTheFailure() throws {
    // Given a due notification and a sink that refuses
    let clock = ManualClock(now: Date(timeIntervalSince1970: 1_795_000_000))
    let center = try makeCenter(clock: clock)
    try center.ownStore.schedule(NotificationContent(body: "x"), trigger: .after(.seconds(1)), id: "x")
    clock.advance(by: 1)
    sink.refuse(true)
    // When it fires
    #expect(try center.ownStore.deliverDueNow() == 0)
    // Then the failure is in history with the sink's reason
    let failed = try center.ownStore.recordedHistory().first { $0.kind == .failed }
    #expect(failed?.notificationID == "x")
    #expect(failed?.reason?.contains("refuses") == true)
  }

  @Test func theServiceFiresOnTimeAndStopsOnCancellation() async throws {
    // Given a notification one second ahead, on the real clock, and the firing service
    let center = try makeCenter(clock: SystemClock())
    let events = center.events
    let before = Date()
    try center.ownStore.schedule(
      NotificationContent(body: "soon"), trigger: .after(.milliseconds(800)), id: "soon")
    // When the service runs until the delivery is announced
    // (the service never polls: only its own timer or the store watch can make it deliver)
    let service = NotificationFiringService(center: center)
    let event: NotificationEvent? = try await whileRunning({ try await service.run() }) {
      var iterator = events.makeAsyncIterator()
      return await iterator.next()
    }
    // Then the service's timer delivered it, not before its fire date. (How soon after is
    // not asserted: suites running in parallel may keep the test threads busy.)
    let delivered = try #require(event?.delivery, "not delivered within a minute")
    #expect(delivered.notification.id == "soon")
    #expect(delivered.fireDate >= before + 0.799)  // the store keeps milliseconds
    #expect(delivered.deliveredAt >= delivered.fireDate)
  }

  @Test func theServiceWakesWhenAnotherProcessSchedules() async throws {
    // Given the service running with nothing pending
    let center = try makeCenter(clock: SystemClock())
    let events = center.events
    // (the service never polls: only its own timer or the store watch can make it deliver)
    let service = NotificationFiringService(center: center)
    let event: NotificationEvent? = try await whileRunning({ try await service.run() }) {
      // When, once the service is firing (its first look at the store is behind it), another
      // connection (as another process would) schedules one due at once
      guard await eventually(timeout: 30, { center.isFiring }) else { return nil }
      let other = try LocalNotificationCenter(
        app: "chat", store: try SQLiteStore(path: path), sink: RecordingSink(), clock: SystemClock())
      try other.ownStore.schedule(NotificationContent(body: "from the CLI"), trigger: .immediately, id: "cli")
      var iterator = events.makeAsyncIterator()
      return await iterator.next()
    }
    // Then the service notices through the store watch and delivers it (without the
    // watch it would sleep until something else woke it)
    let delivered = try #require(event?.delivery, "not delivered within a minute")
    #expect(delivered.notification.id == "cli")
  }
}

/// `beginBackgroundTask` on the center.
@Suite(.ownThreads)
struct CenterBackgroundTaskTests {
  let folder = TemporaryFolder(prefix: "notify-task")

  @Test func anExpiredTaskStartsNoDeliveryAndLeavesThemPending() throws {
    // Given three due notifications and a task whose budget is spent
    let clock = ManualClock(now: Date(timeIntervalSince1970: 1_795_000_000))
    let sink = RecordingSink()
    let center = try LocalNotificationCenter(
      app: "chat", store: try SQLiteStore(path: folder.file("notify.db")), sink: sink, clock: clock)
    for index in 0..<3 {
      try center.ownStore.schedule(
        NotificationContent(body: "n\(index)"), trigger: .after(.seconds(1)), id: "n\(index)")
    }
    let expired = StopFlagForTests()
    let task = center.beginBackgroundTask(name: "flush", budget: .seconds(10)) { expired.set() }
    defer { task.end() }
    clock.advance(by: 9.5)
    // When deliveries run within it
    let delivered = try center.ownStore.deliverDueNow(within: task)
    // Then the handler ran, nothing was delivered, and all three are still pending
    #expect(expired.isSet)
    #expect(delivered == 0)
    #expect(sink.deliveries.isEmpty)
    #expect(try center.ownStore.pending().count == 3)
    #expect(task.timeRemaining == 0.5)
  }

  @Test func theHandlerRunsShortlyBeforeTheBudgetEnds() async throws {
    // Given a task with a two-second budget on the real clock
    let center = try LocalNotificationCenter(
      app: "chat", store: try SQLiteStore(path: folder.file("notify.db")), sink: RecordingSink())
    let began = Date()
    let fired = StopFlagForTests()
    let task = center.beginBackgroundTask(name: "wait", budget: .seconds(2)) { fired.set(at: Date()) }
    defer { task.end() }
    // When nobody checks it, the handler still runs by itself
    let ran = waitUntil(timeout: 30) { fired.isSet }
    // Then at the 10 % margin before the budget is spent (1.8 s), not earlier (how soon
    // after is the timer's business, and a loaded machine may delay it)
    #expect(ran)
    #expect(task.isExpired)
    let at = try #require(fired.date).timeIntervalSince(began)
    #expect(at >= 1.79, "the handler ran after \(at) s")
  }

  @Test func anEndedTaskNeverCallsItsHandler() throws {
    let center = try LocalNotificationCenter(
      app: "chat", store: try SQLiteStore(path: folder.file("notify.db")), sink: RecordingSink())
    let fired = StopFlagForTests()
    // Given a task ended at once
    let task = center.beginBackgroundTask(name: "short", budget: .milliseconds(300)) { fired.set() }
    task.end()
    // When its expiration instant passes
    // Then the handler does not run
    #expect(waitUntil(timeout: 0.6) { fired.isSet } == false)
  }
}

/// A flag set from a handler.
final class StopFlagForTests: @unchecked Sendable {
  private let lock = NSLock()
  private var when: Date?
  var isSet: Bool { lock.withLock { when != nil } }
  var date: Date? { lock.withLock { when } }
  func set(at date: Date = Date()) { lock.withLock { when = when ?? date } }
}

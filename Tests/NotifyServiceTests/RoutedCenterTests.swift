import Foundation
import NotifyCore
import NotifyDesktop
import NotifyStore
import NotifyTestSupport
import Testing

@testable import Notify

/// A center whose calls go to notify's service (`CenterBackend.service`, as inside a Flatpak
/// sandbox that reaches it), made in this process with a client on the harness's private
/// bus: the real daemon and store on the other side, the scripted notification server, and
/// the `notify` command as the judge. Each public call either reaches the service for the
/// center's app only, or throws `.notAvailable`. (`SandboxCenterTests` runs the same
/// center inside `bwrap`, where the service decides the app from `/.flatpak-info`.)
@Suite(
  .serialized, .ownThreads,
  .needsSchedulerBus
)
struct RoutedCenterTests {
  static let probe = "org.example.Probe"

  /// A routed center of `app` on `bus`, its own store (which must stay empty) in the folder.
  static func center(_ bus: SchedulerBus, app: String = probe) throws -> LocalNotificationCenter {
    let client = try SchedulerClient(app: app, address: bus.environment["DBUS_SESSION_BUS_ADDRESS"])
    let own = try SQLiteStore(path: bus.folder.file("own-\(app).db"))
    return try LocalNotificationCenter(app: app, store: own, sink: StdoutSink(fd: -1), service: client)
  }

  /// What `body` failed with; nil when it went through.
  static func failure<T>(_ body: () async throws(NotificationError) -> T) async -> NotificationError? {
    do {
      _ = try await body()
      return nil
    } catch {
      return error
    }
  }

  static let yes: [NotificationAction] = [.button(key: "yes", title: "Yes")]

  /// Runs `body` while `center`'s events are read, each click put in `heard` as `ID KEY`.
  static func hearing(
    _ center: LocalNotificationCenter, into heard: Locked<[String]>, _ body: () async throws -> Void
  ) async throws {
    let events = center.events
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        for await event in events {
          if case .activated(let key) = event.kind {
            heard.update { $0.append("\(event.notification.id) \(key)") }
          }
        }
      }
      try await body()
      group.cancelAll()
    }
  }

  @Test func everyReadGoesToTheServiceAndShowsTheCentersAppOnly() async throws {
    // Given the daemon showing on the server, a bubble of Probe (through its routed center)
    // and one of Other (through gdbus), both with a button "yes"
    let bus = try SchedulerBus(withServer: true)
    try bus.startDaemon(sink: "desktop")
    let center = try Self.center(bus)
    try await center.add(
      NotificationRequest(
        identifier: "p1",
        content: NotificationContent(
          title: "Probe", userInfo: ["room": "4B"], actions: Self.yes, threadIdentifier: "t"),
        trigger: nil))
    _ = try bus.gdbus(
      "Present", "org.example.Other",
      "{'id': <'o1'>, 'title': <'Other'>, 'actions': <[{'key': <'yes'>, 'title': <'Yes'>}]>}")
    let probeBubble = try bus.shown(title: "Probe")
    let otherBubble = try bus.shown(title: "Other")

    // When it asks what is on screen, by thread too, and for its history
    let delivered = try await center.delivered()
    // Then it is Probe's only, with the notification's detail
    #expect(delivered.map(\.notificationID) == ["p1"])
    #expect(delivered.first?.app == Self.probe)
    #expect(delivered.first?.detail["title"] == .string("Probe"))
    #expect(try await center.delivered(threadIdentifier: "t").map(\.notificationID) == ["p1"])
    #expect(try await center.delivered(threadIdentifier: "other").isEmpty)
    let history = try await center.history(limit: 10)
    #expect(history.contains { $0.kind == .delivered && $0.notificationID == "p1" })
    #expect(history.allSatisfy { $0.app == Self.probe })

    // When the user picks "yes" on both bubbles: Probe's center listens (a running app,
    // present in the store while it is subscribed), no process of Other runs
    let heard = Locked<[String]>([])
    try await Self.hearing(center, into: heard) {
      try bus.desktop.drive("Click", "\(probeBubble)", "yes", "")
      try bus.desktop.drive("Click", "\(otherBubble)", "yes", "")
      let recorded = waitUntil(timeout: 30) {
        let listed = (try? bus.notify("history", "--json", "--app", "org.example.Other").stdout) ?? ""
        return listed.contains("\"activated\"") && heard.value.contains("p1 yes")
      }
      #expect(recorded, "heard: \(heard.value) daemon: \(text(bus.folder.file("daemon.err")))")
    }
    // Then Probe's click was heard once, live, as a running app's ("opened": "running"),
    // and nothing of it waits to be taken again
    #expect(heard.value == ["p1 yes"])
    let mine = try bus.notify("history", "--json", "--app", Self.probe).stdout
    #expect(mine.contains("\"opened\":\"running\""), "\(mine)")
    #expect(await center.takeKeptResponses().isEmpty)
    // And Other's answer still waits for Other
    let others = try bus.notify("responses", "--app", "org.example.Other").stdout
    #expect(others.contains("\"o1\""), "\(others)")

    // And the center's own store in the sandbox was never written
    #expect(try center.ownStore.store.history(app: nil, limit: 10).isEmpty)
  }

  @Test func categoriesAuthorizationHeldAndTheNextFireDateGoToTheService() async throws {
    let bus = try SchedulerBus()
    try bus.startDaemon()
    let center = try Self.center(bus)
    // Categories: set through the center, read back, and the command sees them for Probe
    let category = NotificationCategory(
      identifier: "message", actions: [.textInput(key: "reply", title: "Reply")])
    try await center.setNotificationCategories([category])
    #expect(try await center.notificationCategories() == [category])
    let listed = try bus.notify("category", "list", "--json", "--app", Self.probe).stdout
    #expect(listed.contains("\"message\""), "\(listed)")
    // Authorization: recorded for Probe as the library records it
    #expect(try await center.requestAuthorization(options: [.banner, .badge]) == [.banner, .badge])
    let settings = try bus.notify("settings", "--json", "--app", Self.probe).stdout
    #expect(settings.contains("\"requested\""), "\(settings)")
    // The next fire date: the soonest pending one
    let at = Date(timeIntervalSince1970: 4_102_444_800)
    try await center.add(
      NotificationRequest(identifier: "later", content: NotificationContent(title: "Later"), trigger: .at(at))
    )
    #expect(try await center.nextFireDate() == at)
    // Held: while it is quiet, one presented now is held, and the center lists it
    #expect(try bus.notify("quiet", "on").status == 0)
    try await center.add(
      NotificationRequest(identifier: "q1", content: NotificationContent(title: "Q"), trigger: nil))
    #expect(try await center.held().map(\.notification.id) == ["q1"])
    // And what has no equivalent through the service says so
    let recording = await Self.failure { () async throws(NotificationError) in
      try await center.recordActivation(of: "later")
    }
    let delivering = await Self.failure { () async throws(NotificationError) in
      try await center.deliverDueNotifications()
    }
    guard case .notAvailable(let recordingText)? = recording,
      case .notAvailable(let deliveringText)? = delivering
    else {
      Issue.record(
        "not refused as not available: \(String(describing: recording)) \(String(describing: delivering))")
      return
    }
    #expect(
      recordingText.problem.contains(
        "recordActivation(of:actionKey:) is not available inside a Flatpak sandbox"))
    #expect(deliveringText.problem.contains("the daemon on the host delivers"))
    let naming = await #expect(throws: NotificationError.self) {
      try await center.setDesktopEntry("org.example.Elsewhere")
    }
    guard case .notAvailable? = naming else {
      Issue.record("setDesktopEntry not refused as not available: \(String(describing: naming))")
      return
    }
    #expect(naming?.description.contains("exports under the app's id ('org.example.Probe.desktop')") == true)
    #expect(try await center.desktopEntry() == nil)
  }

  @Test func clicksKeepArrivingAfterTheDaemonRestarts() async throws {
    // Given a routed center listening, and the daemon restarted under it
    let bus = try SchedulerBus(withServer: true)
    try bus.startDaemon(sink: "desktop")
    let center = try Self.center(bus)
    let heard = Locked<[String]>([])
    try await Self.hearing(center, into: heard) {
      try bus.stopDaemon()
      try bus.startDaemon(sink: "desktop")
      // When the new daemon shows one of Probe's and the user picks "yes" (tried again with a
      // new notification should the center not have subscribed yet: it does so when the bus
      // announces the name's new owner, on its own thread)
      var arrived = false
      for attempt in 1...5 where !arrived {
        let id = "after-\(attempt)"
        _ = try bus.gdbus(
          "Present", Self.probe,
          "{'id': <'\(id)'>, 'title': <'\(id)'>, 'actions': <[{'key': <'yes'>, 'title': <'Yes'>}]>}")
        try bus.desktop.drive("Click", "\(try bus.shown(title: id))", "yes", "")
        arrived = waitUntil(timeout: 10) { heard.value.contains("\(id) yes") }
      }
      // Then the center's events have the click
      #expect(arrived, "heard: \(heard.value) daemon: \(text(bus.folder.file("daemon.err")))")
    }
  }
}

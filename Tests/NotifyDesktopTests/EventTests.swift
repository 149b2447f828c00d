import CSystemd
import Foundation
import NotifyCore
import NotifyDesktop
import NotifyTestSupport
import Testing

extension DesktopIntegration {
  /// ActionInvoked / NotificationClosed from dunst become `DesktopEvent`s.
  @Suite struct EventTests {
    let info: [String: JSONValue] = ["room": .string("42"), "unread": .int(3)]

    @Test func closingThroughDunstctlIsADismissal() throws {
      let session = try HeadlessDesktop()
      let sink = try session.makeSink()
      let log = EventLog(sink)
      // Given two notifications shown, each with its own userInfo
      let infos: [String: [String: JSONValue]] = ["m0": ["room": .string("7")], "m1": info]
      try sink.deliver(makeDelivery(id: "m0", title: "m0", userInfo: infos["m0"]!, occurrence: 2))
      try sink.deliver(makeDelivery(id: "m1", title: "m1", userInfo: infos["m1"]!, occurrence: 4))
      // When the user closes one of them through dunstctl
      try session.dunstctl("close")
      // Then one dismissal arrives, for the bubble dunst closed, with that notification's data
      let event = try #require(log.next(from: sink))
      #expect(event.kind == .dismissed(.dismissedByUser))
      let closed = try #require(session.history().first)
      #expect(closed["id"] == "\(event.serverID)")
      #expect(closed["summary"] == event.id)
      #expect(event.app == "chat")
      #expect(event.occurrence == (event.id == "m0" ? 2 : 4))
      #expect(event.userInfo == infos[event.id])
      #expect(log.next(from: sink, timeout: .milliseconds(300)) == nil)
    }

    @Test func invokingTheActionIsAnActivation() throws {
      let session = try HeadlessDesktop()
      let sink = try session.makeSink()
      let log = EventLog(sink)
      // Given a notification on screen
      try sink.deliver(
        makeDelivery(id: "m2", title: "Message", action: "Reply", launchImage: "splash", userInfo: info))
      #expect(
        try waitUntil(timeout: 5) {
          try session.dunstctl("count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines) == "1"
        })
      // When its default action is invoked (what a click does)
      try session.dunstctl("action", "0")
      // Then an activation arrives with the action key, userInfo and launch image
      let event = log.next(from: sink) { if case .activated = $0.kind { true } else { false } }
      #expect(event?.kind == .activated(actionKey: "default"))
      #expect(event?.id == "m2")
      #expect(event?.userInfo == info)
      #expect(event?.launchImage == "splash")
    }

    @Test func eventsArriveThroughAnSdEventLoop() throws {
      let session = try HeadlessDesktop()
      let sink = try session.makeSink()
      var events: [DesktopEvent] = []
      sink.onEvent = { events.append($0) }
      // Given the sink attached to a real sd-event loop
      var loop: OpaquePointer? = nil
      #expect(sd_event_new(&loop) >= 0)
      defer { sd_event_unref(loop) }
      try sink.attach(to: loop!)
      try sink.deliver(makeDelivery(id: "m3", title: "Message", userInfo: info))
      // When dunst closes it
      try session.dunstctl("close-all")
      // Then running the loop (and nothing else) delivers the event
      let clock = ContinuousClock()
      let deadline = clock.now + .seconds(5)
      while events.isEmpty && clock.now < deadline {
        _ = sd_event_run(loop, 100_000)
      }
      #expect(events.map(\.id) == ["m3"])
      #expect(events.first?.kind == .dismissed(.dismissedByUser))
      #expect(events.first?.userInfo == info)
      sink.detach()
    }

    @Test func signalsFromOthersAreIgnored() throws {
      let session = try HeadlessDesktop()
      let sink = try session.makeSink()
      let log = EventLog(sink)
      try sink.deliver(makeDelivery(id: "m4", title: "Message"))
      let serverID = try #require(sink.serverID(for: DesktopNotificationKey(app: "chat", id: "m4")))
      // When another client forges a NotificationClosed for our bubble
      let forged = try HeadlessDesktop.run(
        [
          "dbus-send", "--bus=\(session.busAddress)", "--type=signal", "/org/freedesktop/Notifications",
          "org.freedesktop.Notifications.NotificationClosed", "uint32:\(serverID)", "uint32:2",
        ])
      #expect(forged.status == 0)
      // Then no event is reported for it, but the real one still is
      #expect(log.next(from: sink, timeout: .milliseconds(500)) == nil)
      try session.dunstctl("close")
      #expect(log.next(from: sink)?.id == "m4")
    }
  }
}

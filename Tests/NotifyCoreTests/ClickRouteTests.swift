import Foundation
import Testing

@testable import NotifyCore

@Suite("ClickRoute: where a click goes")
struct ClickRouteTests {
  static let snooze = NotificationAction.snooze(seconds: 600)
  static let reply = NotificationAction.textInput(key: "reply", title: "Reply")
  static let open = NotificationAction.button(key: "open", title: "Open", opensApp: true)
  static let read = NotificationAction.button(key: "read", title: "Mark read")

  @Test(
    "snooze anywhere; the app in this process, else a running process of it, else a launch for what opens the app",
    arguments: [
      ("own app, this process", "chat", "default", nil, false, "chat", Set<String>(), ClickRoute.thisProcess),
      ("own app, other action", "chat", "read", read, false, "chat", [], .thisProcess),
      ("daemon, app online", "chat", "default", nil, false, nil, ["chat"], .runningApp),
      ("daemon, another app online", "chat", "default", nil, false, nil, ["mail"], .launch),
      ("daemon, nobody online", "chat", "default", nil, false, nil, [], .launch),
      ("daemon, background action, nobody online", "chat", "read", read, false, nil, [], .waitForApp),
      ("daemon, unknown action, nobody online", "chat", "gone", nil, false, nil, [], .waitForApp),
      ("daemon, opening action, nobody online", "chat", "open", open, false, nil, [], .launch),
      ("daemon, reply with text, nobody online", "chat", "reply", reply, true, nil, [], .waitForApp),
      ("daemon, reply button without text, nobody online", "chat", "reply", reply, false, nil, [], .launch),
      ("daemon, reply with text, app online", "chat", "reply", reply, true, nil, ["chat"], .runningApp),
      ("snooze heard by the daemon", "chat", snooze.key, snooze, false, nil, ["chat"], .snooze(seconds: 600)),
      (
        "snooze heard by the app itself", "chat", snooze.key, snooze, false, "chat", [], .snooze(seconds: 600)
      ),
      ("another app's center hears it", "chat", "default", nil, false, "mail", ["mail"], .launch),
    ] as [(String, String, String, NotificationAction?, Bool, String?, Set<String>, ClickRoute)])
  func decide(
    name: String, app: String, actionKey: String, action: NotificationAction?, replied: Bool,
    hostApp: String?,
    online: Set<String>, expected: ClickRoute
  ) {
    // Given a click with this action on a notification of `app`, heard by `hostApp`
    // When the route is decided / Then it is the expected one
    #expect(
      ClickRoute.decide(
        app: app, actionKey: actionKey, action: action, replied: replied, hostApp: hostApp, onlineApps: online
      )
        == expected,
      "\(name)")
  }
}

@Suite("ClickRoute: whether the default action is offered, and a click on it kept")
struct DefaultActionReachTests {
  static func notification(action: String?) -> LocalNotification {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    return LocalNotification(
      id: "n", app: "chat", schedule: Schedule(fireDate: .instant(now)), title: "T", action: action,
      createdAt: now)
  }

  @Test(
    "offered where a click reaches the app: online, launchable, or a response to wait for",
    arguments: [
      ("nothing reaches it", nil, Set<String>(), false, false),
      ("another app online", nil, ["mail"], false, false),
      ("the app online", nil, ["chat"], false, true),
      ("a launchable entry", nil, [], true, true),
      ("an action text of its own", "Read later", [], false, true),
    ] as [(String, String?, Set<String>, Bool, Bool)])
  func offered(name: String, action: String?, online: Set<String>, launchable: Bool, expected: Bool) {
    // Given a notification of "chat" with or without an action text
    // When its default action is decided / Then it is offered only where a click reaches the app
    #expect(
      ClickRoute.defaultActionReaches(
        Self.notification(action: action), onlineApps: online, launchable: launchable)
        == expected, "\(name)")
  }

  @Test(
    "after a failed launch, an action button waits, and so does a default click on a notification that asks")
  func keptAfterFailedLaunch() {
    #expect(ClickRoute.keepsResponse(ofFailedLaunch: "default", on: Self.notification(action: "Read later")))
    #expect(!ClickRoute.keepsResponse(ofFailedLaunch: "default", on: Self.notification(action: nil)))
    #expect(ClickRoute.keepsResponse(ofFailedLaunch: "open", on: Self.notification(action: "Read later")))
    #expect(ClickRoute.keepsResponse(ofFailedLaunch: "open", on: Self.notification(action: nil)))
  }
}

@Suite("PresentationOptions: what a foreground app leaves the desktop")
struct PresentationOptionsTests {
  static let delivery: Delivery = {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let notification = LocalNotification(
      id: "n", app: "a", schedule: Schedule(fireDate: .instant(now)), title: "T", body: "B", sound: .default,
      badge: 3, createdAt: now)
    return Delivery(notification: notification, occurrence: 1, fireDate: now, deliveredAt: now, late: false)
  }()

  @Test(
    "each option left out removes its part; none presents nothing",
    arguments: [
      ("all", PresentationOptions.all, true, true, true),
      ("banner only", [.banner], true, false, false),
      ("sound only", [.sound], false, true, false),
      ("badge only", [.badge], false, false, true),
    ] as [(String, PresentationOptions, Bool, Bool, Bool)])
  func presented(name: String, options: PresentationOptions, banner: Bool, sound: Bool, badge: Bool) throws {
    // Given a delivery with title, body, sound and badge, presented with `options`
    var delivery = Self.delivery
    delivery.presentation = options
    // When the sink's copy is made
    let shown = try #require(delivery.presented, "\(name)")
    // Then only the chosen parts are left
    #expect((shown.notification.title != nil) == banner, "\(name)")
    #expect((shown.notification.body != nil) == banner, "\(name)")
    #expect((shown.sound != .none) == sound, "\(name)")
    #expect((shown.notification.badge != nil) == badge, "\(name)")
  }

  @Test("none: nothing for the sink, and history records the delivery in-app")
  func none() {
    var delivery = Self.delivery
    delivery.presentation = .none
    #expect(delivery.presented == nil)
    #expect(Delivery.inAppReason == "in-app")
  }

  @Test("a running app's occurrence is taken by a firer for every app only once it is the grace late")
  func deferral() {
    let due = Date(timeIntervalSince1970: 1_800_000_000)
    #expect(RunningAppDeferral.takeOver(dueAt: due) == due + 2)
    #expect(RunningAppDeferral.dueBy(now: due + 2) == due)
  }
}

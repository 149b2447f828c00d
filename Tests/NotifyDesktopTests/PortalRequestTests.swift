import Foundation
import NotifyCore
import Testing

@testable import NotifyDesktop

/// The pure AddNotification mapping (`PortalRequest`), without a bus.
struct PortalRequestTests {
  static func delivery(level: InterruptionLevel = .active, markup: Bool = false) -> Delivery {
    var delivery = Delivery(
      notification: LocalNotification(
        id: "n1", app: "org.example.Probe",
        schedule: Schedule(fireDate: .instant(Date(timeIntervalSince1970: 0))),
        title: "Standup", body: markup ? "in <b>4B</b>" : "in 4B",
        actions: [.button(key: "yes", title: "Yes"), .textInput(key: "reply", title: "Reply")],
        subtitle: "Team",
        interruptionLevel: level, bodyMarkup: markup, createdAt: Date(timeIntervalSince1970: 0)),
      occurrence: 1, fireDate: Date(timeIntervalSince1970: 0), deliveredAt: Date(timeIntervalSince1970: 0),
      late: false)
    delivery.appIcon = "org.example.Probe"
    return delivery
  }

  @Test func versionOneGetsItsSixKeysOnly() {
    // Given a marked-up, critical notification with buttons, for a version-1 portal
    let request = PortalRequest(delivery: Self.delivery(level: .critical, markup: true), version: 1)
    // Then only the version-1 keys are sent, the body as plain text under its subtitle
    #expect(request.entries.map(\.0) == ["title", "body", "icon", "priority", "default-action", "buttons"])
    #expect(request["title"] == .string("Standup"))
    #expect(request["body"] == .string("Team\nin 4B"))
    #expect(request["icon"] == .structure([.string("themed"), .variant(.strings(["org.example.Probe"]))]))
    #expect(request["priority"] == .string("urgent"))
    #expect(request["default-action"] == .string("default"))
    #expect(
      request["buttons"]
        == .array(
          element: "a{sv}",
          [
            .vardict([("label", .string("Yes")), ("action", .string("yes"))]),
            .vardict([("label", .string("Reply")), ("action", .string("reply"))]),
          ]))
  }

  @Test func versionTwoAddsItsKeys() {
    // Given the same notification for a version-2 portal
    let request = PortalRequest(delivery: Self.delivery(level: .critical, markup: true), version: 2)
    // Then the markup, category, display hint, sound and the reply's purpose are there too
    #expect(request["markup-body"] == .string("Team\nin <b>4B</b>"))
    #expect(request["category"] == .string("im.received"))
    #expect(request["display-hint"] == .strings(["persistent"]))
    #expect(request["sound"] == .string("silent"))
    guard case .array(_, let buttons)? = request["buttons"] else {
      Issue.record("no buttons")
      return
    }
    #expect(
      buttons[1].vardictEntries?.contains { $0.key == "purpose" && $0.value == .string("im.reply-with-text") }
        == true)
  }

  @Test(arguments: [
    (InterruptionLevel.passive, "low"), (.active, "normal"), (.timeSensitive, "high"), (.critical, "urgent"),
  ])
  func priorityFollowsTheLevel(level: InterruptionLevel, priority: String) {
    #expect(PortalRequest(delivery: Self.delivery(level: level), version: 1)["priority"] == .string(priority))
  }

  @Test func noDefaultActionWhereAClickReachesNothingAndNoPathIcon() {
    var delivery = Self.delivery()
    delivery.offersDefaultAction = false
    delivery.appIcon = "/opt/app/icon.png"
    let request = PortalRequest(delivery: delivery, version: 1)
    #expect(request["default-action"] == nil)
    #expect(request["icon"] == nil)
  }
}

import NotifyCore
import Testing

@testable import NotifyDesktop

/// How a notification's actions reach the server: buttons where the server has
/// `actions`, KDE's reply field where it has `inline-reply`, nothing (and a note) where it
/// has neither.
struct NotifyRequestActionsTests {
  static let actions: [NotificationAction] = [
    .button(key: "read", title: "Mark read"),
    .textInput(key: "reply", title: "Reply", placeholder: "Message to bob", buttonTitle: "Send"),
    .snooze(seconds: 300),
  ]

  func delivery(_ actions: [NotificationAction] = actions) -> Delivery {
    var delivery = makeDelivery(title: "bob", body: "hi")
    delivery.notification.actions = actions
    return delivery
  }

  @Test("a server with actions gets a button per action after the default one, in order")
  func buttons() {
    let request = NotifyRequest(delivery: delivery(), capabilities: ["actions", "body"])
    #expect(
      request.actions == [
        "default", "View", "read", "Mark read", "reply", "Reply", "notify.snooze.300", "Snooze 5 min",
      ])
    #expect(request.hints["x-kde-reply-placeholder-text"] == nil)
    #expect(NotifyRequest.actionsNote(delivery().notification, capabilities: ["actions"]) == nil)
  }

  @Test("a server with inline reply gets the text-input action as KDE's reply field, with its hints")
  func inlineReply() {
    let request = NotifyRequest(delivery: delivery(), capabilities: ["actions", "inline-reply"])
    #expect(
      request.actions == [
        "default", "View", "read", "Mark read", "inline-reply", "Reply", "notify.snooze.300", "Snooze 5 min",
      ])
    #expect(request.hints["x-kde-reply-placeholder-text"] == .string("Message to bob"))
    #expect(request.hints["x-kde-reply-submit-button-text"] == .string("Send"))
  }

  @Test(
    "a server without actions gets only the default action, and the delivery record says what was dropped")
  func noActionsCapability() {
    let request = NotifyRequest(delivery: delivery(), capabilities: ["body", "inline-reply"])
    #expect(request.actions == ["default", "View"])
    let note = NotifyRequest.actionsNote(delivery().notification, capabilities: ["body"])
    #expect(note?.contains("no 'actions' capability") == true)
    #expect(note?.contains("3 dropped") == true)
    // A notification without actions has nothing to note
    #expect(NotifyRequest.actionsNote(delivery([]).notification, capabilities: []) == nil)
  }

  @Test("where a click cannot reach the app, the default action is left out and the buttons stay")
  func defaultActionNotOffered() {
    let request = NotifyRequest(delivery: delivery(), capabilities: ["actions"], offersDefaultAction: false)
    #expect(request.actions == ["read", "Mark read", "reply", "Reply", "notify.snooze.300", "Snooze 5 min"])
    var labelled = delivery([])
    labelled.notification.action = "Read later"
    #expect(
      NotifyRequest(delivery: labelled, capabilities: ["actions"]).actions == ["default", "Read later"])
    #expect(NotifyRequest(delivery: delivery([]), capabilities: [], offersDefaultAction: false).actions == [])
  }
}

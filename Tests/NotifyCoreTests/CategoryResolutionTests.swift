import Foundation
import Testing

@testable import NotifyCore

/// Which buttons a notification is shown with (`CategoryResolution`), and the rules a
/// category must follow (`Validator.category`).
@Suite("Categories: resolution at delivery and the rules")
struct CategoryResolutionTests {
  let created = Date(timeIntervalSince1970: 1_790_000_000)
  let message = NotificationCategory(
    identifier: "message",
    actions: [.textInput(key: "reply", title: "Reply"), .button(key: "read", title: "Read")])

  func notification(category: String?, actions: [NotificationAction] = []) -> LocalNotification {
    LocalNotification(
      id: "n", app: "chat", schedule: Schedule(fireDate: .instant(created)), body: "hi", actions: actions,
      categoryIdentifier: category, createdAt: created)
  }

  func delivered(_ n: LocalNotification, _ categories: [NotificationCategory]?) -> Delivery {
    var delivery = Delivery(
      notification: n, occurrence: 1, fireDate: created, deliveredAt: created, late: false)
    delivery.apply(CategoryResolution.resolve(n, categories: categories))
    return delivery
  }

  @Test("a registered category gives its buttons, as they are now")
  func registered() {
    // Given a notification naming "message" and no buttons of its own
    let n = notification(category: "message")
    // When it is delivered while "message" has Reply and Read
    let delivery = delivered(n, [message])
    // Then it is shown with them, and nothing is noted
    #expect(delivery.notification.actions.map(\.key) == ["reply", "read"])
    #expect(delivery.categoryNote == nil)
    // And it still names its category (JSON, history)
    #expect(delivery.notification.categoryIdentifier == "message")
    #expect(HistoryEvent.detail(of: delivery)["categoryIdentifier"] == .string("message"))
    // When "message" changed to one button before the next delivery
    let changed = NotificationCategory(
      identifier: "message", actions: [.button(key: "archive", title: "Archive")])
    // Then that delivery has the new button
    #expect(delivered(n, [changed]).notification.actions.map(\.key) == ["archive"])
  }

  @Test("its own buttons win over its category's")
  func ownButtonsWin() {
    let n = notification(category: "message", actions: [.button(key: "mine", title: "Mine")])
    #expect(CategoryResolution.resolve(n, categories: [message]) == .own)
    #expect(delivered(n, [message]).notification.actions.map(\.key) == ["mine"])
  }

  @Test(
    "an unknown or unreadable category: no buttons, a note, never a failure",
    arguments: [
      ("not registered", [NotificationCategory(identifier: "other")], "is not registered for app 'chat'"),
      ("none at all", [], "is not registered"),
      ("unreadable", nil, "could not be read"),
    ] as [(String, [NotificationCategory]?, String)])
  func unknown(_ name: String, _ categories: [NotificationCategory]?, _ says: String) {
    let delivery = delivered(notification(category: "message"), categories)
    #expect(delivery.notification.actions.isEmpty, "\(name)")
    #expect(delivery.categoryNote?.contains(says) == true, "\(name): \(delivery.categoryNote ?? "nil")")
    #expect(HistoryEvent.detail(of: delivery)["categoryNote"] == delivery.categoryNote.map(JSONValue.string))
  }

  @Test("no category: nothing is looked up")
  func noCategory() {
    #expect(CategoryResolution.resolve(notification(category: nil), categories: nil) == .own)
  }

  @Test(
    "valid identifiers",
    arguments: ["a", "message", "chat.room-4B:msg_17", String(repeating: "x", count: 64)])
  func validIdentifiers(_ identifier: String) throws {
    try Validator.categoryIdentifier(identifier)
  }

  @Test(
    "invalid identifiers", arguments: ["", String(repeating: "x", count: 65), "a b", "a/b", "é", "a\u{1B}"])
  func invalidIdentifiers(_ identifier: String) {
    #expect(throws: NotifyError.self) { try Validator.categoryIdentifier(identifier) }
    // And a notification naming it is refused too
    #expect(throws: NotifyError.self) { try Validator.notification(notification(category: identifier)) }
  }

  @Test("a category's actions follow a notification's rules; the message names the category")
  func actionRules() throws {
    let five = NotificationCategory(
      identifier: "big", actions: (1...5).map { .button(key: "k\($0)", title: "K\($0)") })
    let error = try #require(thrown { () throws(NotifyError) in try Validator.category(five) })
    #expect(error.kind == .invalidData)
    #expect(error.description.hasPrefix("category 'big': the notification has 5 actions"), "\(error)")
    let reserved = NotificationCategory(identifier: "r", actions: [.button(key: "default", title: "D")])
    #expect(throws: NotifyError.self) { try Validator.category(reserved) }
  }

  @Test("a set: each identifier once, at most 64")
  func sets() throws {
    try Validator.categories([message, NotificationCategory(identifier: "other")])
    #expect(throws: NotifyError.self) { try Validator.categories([message, message]) }
    let many = (0...NotificationCategory.maximumCount).map { NotificationCategory(identifier: "c\($0)") }
    #expect(throws: NotifyError.self) { try Validator.categories(many) }
    try Validator.categories(Array(many.dropLast()))
  }
}

/// The error `body` throws, or nil.
private func thrown(_ body: () throws(NotifyError) -> Void) -> NotifyError? {
  do { try body() } catch { return error }
  return nil
}

import Foundation
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// Categories kept in a real SQLite file (`v11-categories`): per app, read back by another
/// connection, replaced whole or one at a time, refused whole; a notification's category
/// kept wherever its content is.
@Suite("SQLite store: categories", .ownThreads)
struct CategoryStoreTests {
  let folder = TemporaryFolder()
  let now = Date(timeIntervalSince1970: 1_800_000_000)
  var path: String { folder.file("notify.db") }
  let message = NotificationCategory(
    identifier: "message",
    actions: [
      .button(key: "read", title: "Mark read", opensApp: true, destructive: true),
      .textInput(key: "reply", title: "Reply", placeholder: "Message", buttonTitle: "Send"),
      .snooze(seconds: 600),
    ])

  @Test(
    "a category round-trips through the file, per app; set replaces by identifier; remove says if it was there"
  )
  func roundTrip() throws {
    // Given a category set by one connection
    let store = try SQLiteStore(path: path)
    #expect(try store.setCategory(message, app: "chat") == false)
    try store.setCategory(NotificationCategory(identifier: "empty"), app: "chat")
    // Then another connection reads it back exactly, by identifier, and only for its app
    let other = try SQLiteStore(path: path)
    #expect(try other.categories(app: "chat") == [NotificationCategory(identifier: "empty"), message])
    #expect(try other.categories(app: "mail") == [])
    // When it is set again with other buttons, it is replaced
    let changed = NotificationCategory(identifier: "message", actions: [.button(key: "a", title: "A")])
    #expect(try other.setCategory(changed, app: "chat") == true)
    #expect(try store.categories(app: "chat").last == changed)
    // When one is removed, it is gone; removing it again changes nothing
    #expect(try store.removeCategory("message", app: "chat"))
    #expect(try !store.removeCategory("message", app: "chat"))
    #expect(try other.categories(app: "chat").map(\.identifier) == ["empty"])
  }

  @Test("setCategories replaces the app's set whole; a refused set leaves it as it was")
  func replaceWhole() throws {
    let store = try SQLiteStore(path: path)
    try store.setCategory(message, app: "chat")
    try store.setCategory(NotificationCategory(identifier: "keep"), app: "mail")
    // When chat's set is replaced
    try store.setCategories(
      [NotificationCategory(identifier: "b"), NotificationCategory(identifier: "a")], app: "chat")
    #expect(try store.categories(app: "chat").map(\.identifier) == ["a", "b"])
    // Then another app's are untouched
    #expect(try store.categories(app: "mail").map(\.identifier) == ["keep"])
    // When a set with a bad category is given, nothing changes
    let bad = [NotificationCategory(identifier: "ok"), NotificationCategory(identifier: "not ok")]
    #expect(throws: NotifyError.self) { try store.setCategories(bad, app: "chat") }
    #expect(throws: NotifyError.self) {
      try store.setCategory(
        NotificationCategory(identifier: "x", actions: [.button(key: "default", title: "D")]), app: "chat")
    }
    #expect(try store.categories(app: "chat").map(\.identifier) == ["a", "b"])
  }

  @Test("an app registers at most 64: the 65th is refused, replacing one still works")
  func limit() throws {
    let store = try SQLiteStore(path: path)
    try store.setCategories((0..<64).map { NotificationCategory(identifier: "c\($0)") }, app: "chat")
    let error = #expect(throws: NotifyError.self) {
      try store.setCategory(NotificationCategory(identifier: "one-more"), app: "chat")
    }
    #expect(error?.kind == .invalidData)
    #expect(
      try store.setCategory(
        NotificationCategory(identifier: "c0", actions: [.button(key: "k", title: "K")]), app: "chat"))
    #expect(try store.categories(app: "chat").count == 64)
  }

  @Test("a notification's category is kept when pending and when held for quiet hours")
  func notificationKeepsItsCategory() throws {
    let store = try SQLiteStore(path: path)
    let n = LocalNotification(
      id: "n", app: "chat", schedule: Schedule(fireDate: .instant(now + 60)), body: "b",
      categoryIdentifier: "message", createdAt: now)
    try store.schedule(n, zones: testZones(testZone("UTC")))
    #expect(
      try SQLiteStore(path: path).pending(app: "chat").first?.notification.categoryIdentifier == "message")
    var held = Delivery(notification: n, occurrence: 1, fireDate: now, deliveredAt: now, late: false)
    held.held = true
    try store.recordHeld(held)
    let claimed = try store.claimHeld(apps: ["chat"], owner: FirerIdentity.current, now: Date())
    #expect(claimed.map(\.notification.categoryIdentifier) == ["message"])
  }
}

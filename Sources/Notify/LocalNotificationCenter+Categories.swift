import NotifyCore
import NotifyStore

/// Categories (`UNNotificationCategory`): the buttons the app registers once under a name,
/// which a notification names in `NotificationContent.categoryIdentifier`.
///
/// ```swift
/// try await center.setNotificationCategories([
///   NotificationCategory(identifier: "message", actions: [.textInput(key: "reply", title: "Reply")])
/// ])
/// let content = NotificationContent(title: "alice", body: "lunch?", categoryIdentifier: "message")
/// ```
extension LocalNotificationCenter {
  /// Replaces the app's categories with `categories` (`setNotificationCategories(_:)`), all
  /// or none: notifications delivered from now on are shown with these buttons, the ones on
  /// screen keep theirs. Throws `.invalidContent` for a category the rules refuse (an
  /// identifier outside `[A-Za-z0-9._:-]{1,64}`, two with one identifier, more than 64, or
  /// actions a notification could not carry); the categories are then as they were.
  public func setNotificationCategories(_ categories: Set<NotificationCategory>)
    async throws(NotificationError)
  {
    try await backend.setCategories(categories.sorted { $0.identifier < $1.identifier })
  }

  /// The app's categories (`notificationCategories()`).
  public func notificationCategories() async throws(NotificationError) -> Set<NotificationCategory> {
    Set(try await backend.categories())
  }

}

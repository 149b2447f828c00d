/// Which buttons a notification is shown with, decided at its delivery from the categories
/// its app has registered then (`NotificationCategory`): a pure rule, given the categories
/// the claim read.
///
/// - A notification with buttons of its own is shown with them; its category, if it names
///   one, is not looked at (its own buttons win, as a per-notification override).
/// - A notification without buttons that names a registered category gets that category's
///   buttons as they are now.
/// - One that names a category its app has not registered (or whose categories could not
///   be read) is shown without buttons, and says why in a note; it never fails.
public enum CategoryResolution: Hashable, Sendable {
  /// Its own buttons, or none: nothing to look up.
  case own
  /// The buttons of its category.
  case category([NotificationAction])
  /// Its category could not be found: shown without buttons, with this note for history.
  case missing(note: String)

  /// Decides for `notification` under `categories`, the app's registered categories (nil:
  /// they could not be read).
  public static func resolve(_ notification: LocalNotification, categories: [NotificationCategory]?)
    -> CategoryResolution
  {
    guard let name = notification.categoryIdentifier, notification.actions.isEmpty else { return .own }
    guard let categories else {
      return .missing(
        note:
          "the categories of app '\(notification.app)' could not be read: shown without the buttons of '\(name)'"
      )
    }
    guard let category = categories.first(where: { $0.identifier == name }) else {
      return .missing(
        note:
          "the category '\(name)' is not registered for app '\(notification.app)': shown without buttons (notify category set --app \(notification.app) \(name) ...)"
      )
    }
    return .category(category.actions)
  }

  /// The note for history, when there is one.
  public var note: String? {
    if case .missing(let note) = self { return note }
    return nil
  }
}

extension Delivery {
  /// Shows the notification with the buttons `resolution` decided; the note goes with the
  /// delivery into history (`categoryNote`).
  public mutating func apply(_ resolution: CategoryResolution) {
    switch resolution {
    case .own: break
    case .category(let actions): notification.actions = actions
    case .missing(let note): categoryNote = note
    }
  }
}

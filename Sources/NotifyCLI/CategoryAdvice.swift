import NotifyCore
import NotifyStore

/// The category check `schedule` runs: naming a category the app has not registered is
/// allowed (it may be registered before the notification fires, as iOS allows), with a
/// warning on stderr.
enum CategoryAdvice {
  static func check(_ notification: LocalNotification, store: SQLiteStore) {
    guard let name = notification.categoryIdentifier else { return }
    guard notification.actions.isEmpty else {
      Output.warning(
        "'\(notification.id)' has buttons of its own: they are shown, not those of category '\(name)'")
      return
    }
    // A store that cannot be read now is not a reason to warn.
    guard let known = try? store.categories(app: notification.app),
      !known.contains(where: { $0.identifier == name })
    else {
      return
    }
    Output.warning(
      "app '\(notification.app)' has no category '\(name)': '\(notification.id)' is shown without buttons unless it is registered before it fires (notify category set --app \(notification.app) \(name) --button KEY:LABEL)"
    )
  }
}

import NotifyCore

extension LocalNotificationCenter {
  // MARK: The way back to the app

  /// Decides how each of the app's notifications is presented while the app runs (the
  /// foreground, `userNotificationCenter(_:willPresent:)`): for notifications this
  /// process delivers (presented now, or fired by its firing service, which the daemon
  /// leaves the app's notifications to while it runs). `.none` shows nothing on the
  /// desktop: the app gets the `.delivered` event and shows it itself, and history
  /// records the delivery `in-app`. Nil (the default) presents everything.
  ///
  /// ```swift
  /// center.setPresentationHandler { notification in userIsTyping ? .none : .all }
  /// ```
  public func setPresentationHandler(_ handler: (@Sendable (LocalNotification) -> PresentationOptions)?) {
    presentation.value = handler
  }

  /// The desktop entry that opens the app on a click (a desktop file id such as
  /// `org.example.Chat`); nil means `APP.desktop`. Inside a Flatpak sandbox that goes
  /// through notify's service, nil: Flatpak exports the app's entry under its id.
  public func desktopEntry() async throws(NotificationError) -> String? {
    try await backend.desktopEntry()
  }

  /// Configures the desktop entry that opens the app on a click; nil goes back to
  /// `APP.desktop`. Throws `.invalidContent` for a name that is not a plain desktop file
  /// id, and `.notAvailable` inside a Flatpak sandbox that goes through notify's service
  /// (the host opens the entry Flatpak exports under the app's id; the service has no
  /// method to name another).
  public func setDesktopEntry(_ name: String?) async throws(NotificationError) {
    try await backend.setDesktopEntry(name)
  }

  /// The history reason of a notification the app withdrew.
  public static let withdrawnReason = "dismissed-by-app"
}

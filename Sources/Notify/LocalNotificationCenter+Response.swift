import Foundation
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

extension LocalNotificationCenter {
  // MARK: The way back to the app

  /// The click that launched this process, taken once (`launchOptions`'
  /// `UIApplicationLaunchOptionsLocalNotificationKey`): when the user clicked a
  /// notification of the app while no process of it was online, notify opened the app
  /// from its desktop entry and left the response in the store. Nil when there is none
  /// (the app was started by hand, or another process took it). Responses older than
  /// `NotificationResponse.launchWindow` are dropped.
  package func takeLaunchResponse() throws(NotifyError) -> NotificationResponse? {
    try store.takeLaunchResponse(app: app, now: clock.now())
  }

  /// The actions the user picked while no process of the app ran and that do not open the
  /// app (a button without `opensApp`, a reply typed into the notification), oldest first;
  /// taken once (iOS wakes an app in the background for them; here they wait in the store).
  /// A running app hears them as `.activated` events instead.
  package func takeWaitingResponses() throws(NotifyError) -> [NotificationResponse] {
    try store.takeWaitingResponses(app: app)
  }

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

  /// Takes the app's delivered notifications with these ids off the screen
  /// (`removeDeliveredNotifications(withIdentifiers:)`), whichever process showed them,
  /// and records each as `dismissed` (`dismissed-by-app`). Returns the ids that were not
  /// on screen (as far as the store knows); the others are withdrawn anyway. Throws
  /// `.unavailable` when no notification server answers.
  @discardableResult
  package func removeDelivered(_ ids: [String]) throws(NotifyError) -> [String] {
    try firer.owner.runBlocking { () throws(NotifyError) in try self.removeDeliveredOnOwner(ids) }
  }

  /// `removeDelivered`, on the owner of the sinks.
  private func removeDeliveredOnOwner(_ ids: [String]) throws(NotifyError) -> [String] {
    let known = Dictionary(
      try store.desktopServerIDs().filter { $0.app == app }.map {
        ($0.id, ServerBubbleID($0.serverID, server: $0.server))
      }
    ) { $1 }
    var missing = ids.filter { known[$0] == nil }
    let targets = ids.filter { known[$0] != nil }
    guard !targets.isEmpty else { return missing }
    var desktop = sinks.desktop
    for id in targets {
      if known[id]?.server == PortalSink.serverInstance {
        // Shown through the portal: only the portal can take it back, and only this app's.
        guard let portal = sinks.portal else {
          missing.append(id)
          continue
        }
        try portal.withdraw(id: id)
      } else {
        if desktop == nil { desktop = try DesktopSink() }
        guard let desktop, try desktop.withdraw(app: app, id: id, stored: known[id]) else {
          missing.append(id)
          continue
        }
      }
      try store.setDesktopServerID(nil, app: app, id: id)
      try interactions.record(.dismissed(reason: Self.withdrawnReason), id: id, evenIfUnknown: true)
    }
    return missing
  }

  /// Takes the app's delivered notifications of `thread` still on screen off it (the
  /// thread's bubble); returns their ids.
  @discardableResult
  package func removeDelivered(thread: String) throws(NotifyError) -> [String] {
    let ids = try deliveredOnScreen(thread: thread).map(\.notificationID)
    let missing = Set(try removeDelivered(ids))
    return ids.filter { !missing.contains($0) }
  }

  /// The app's notifications of `thread` the desktop still shows, newest first: the
  /// thread's bubble shows the latest (`ThreadSummary`).
  package func deliveredOnScreen(thread: String) throws(NotifyError) -> [HistoryEvent] {
    try store.onScreen(app: app).filter { $0.detail["threadIdentifier"] == .string(thread) }
  }

  /// Takes every delivered notification of the app still on screen off it; returns their ids.
  @discardableResult
  package func removeAllDelivered() throws(NotifyError) -> [String] {
    let ids = try store.desktopServerIDs().filter { $0.app == app }.map(\.id)
    let missing = Set(try removeDelivered(ids))
    return ids.filter { !missing.contains($0) }
  }

  /// The desktop entry that opens the app on a click (a desktop file id such as
  /// `org.example.Chat`); nil means `APP.desktop`. Inside a Flatpak sandbox that goes
  /// through notify's service, nil: Flatpak exports the app's entry under its id.
  public func desktopEntry() throws(NotificationError) -> String? {
    if service != nil { return nil }
    do { return try store.desktopEntry(app: app) } catch { throw NotificationError(error) }
  }

  /// Configures the desktop entry that opens the app on a click; nil goes back to
  /// `APP.desktop`. Throws `.invalidContent` for a name that is not a plain desktop file
  /// id, and `.notAvailable` inside a Flatpak sandbox that goes through notify's service
  /// (the host opens the entry Flatpak exports under the app's id; the service has no
  /// method to name another).
  public func setDesktopEntry(_ name: String?) throws(NotificationError) {
    do { try configureDesktopEntry(name) } catch { throw NotificationError(error) }
  }

  /// `setDesktopEntry(_:)` with the inner layers' error.
  package func configureDesktopEntry(_ name: String?) throws(NotifyError) {
    if service != nil {
      throw NotifyError(
        .notAvailableInSandbox,
        "setDesktopEntry is not available inside a Flatpak sandbox whose center goes through notify's service: the host opens the desktop entry Flatpak exports under the app's id ('\(app).desktop')",
        fix: "name the app's desktop file after its Flatpak id")
    }
    if let name, DesktopFileID(name) == nil {
      throw NotifyError(
        .invalidData, "'\(Escaper.visible(name))' is not a desktop file id",
        fix: "give the entry's file name without .desktop (letters, digits, '.', '_', '-')")
    }
    try store.setDesktopEntry(name, app: app)
  }

  /// The history reason of a notification the app withdrew.
  public static let withdrawnReason = "dismissed-by-app"
}

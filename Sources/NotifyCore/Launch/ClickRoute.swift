/// Where a click on a notification, or on one of its actions, goes (the way back to the
/// app, as iOS hands a tapped notification to the running app or launches the app with it).
public enum ClickRoute: Hashable, Sendable {
  /// A snooze button: notify shows the notification again `seconds` later, whoever heard
  /// the click; the app is not involved.
  case snooze(seconds: Int)
  /// The app runs in this very process: its center hands the activation to the app.
  case thisProcess
  /// Another process of the app is online: it hears of the activation through the store.
  case runningApp
  /// No process of the app is online: open it from its desktop entry, with the response
  /// waiting in the store.
  case launch
  /// No process of the app is online and the action does not open it: the response waits
  /// in the store until the app asks for it (`takeWaitingResponses`).
  case waitForApp

  /// Decides for a click with `actionKey` (`action` is the notification's action with that
  /// key, nil for `default`) on a notification of `app`, heard by a process that hosts
  /// `hostApp` (nil for the daemon and `fire-due`), while `onlineApps` have a process
  /// online. `replied` says whether a reply text came with it: a text-input action
  /// without one (a server without inline reply showed it as a button) opens the app, so
  /// that the app can ask for the text.
  public static func decide(
    app: String, actionKey: String, action: NotificationAction?, replied: Bool, hostApp: String?,
    onlineApps: Set<String>
  ) -> ClickRoute {
    if let seconds = action?.snoozeSeconds { return .snooze(seconds: seconds) }
    if app == hostApp { return .thisProcess }
    if onlineApps.contains(app) { return .runningApp }
    let opensApp =
      actionKey == "default" || action?.opensApp == true || (action?.isTextInput == true && !replied)
    return opensApp ? .launch : .waitForApp
  }

  /// Whether a click on `notification` itself (its default action) reaches its app, so
  /// that the server is offered the default action only then (xfce4-notifyd shows it as a
  /// button on the bubble, which must not promise what nothing does): a process of the
  /// app is online (`onlineApps`: its service hears the click), its desktop entry launches
  /// it (`launchable`), or the notification asks for a response with an action text of its
  /// own, which then waits in the store for the app when nothing can open it
  /// (`keepsResponse(ofFailedLaunch:on:)`).
  public static func defaultActionReaches(
    _ notification: LocalNotification, onlineApps: Set<String>, launchable: Bool
  ) -> Bool {
    defaultActionReaches(notification, appReached: onlineApps.contains(notification.app) || launchable)
  }

  /// `defaultActionReaches(_:onlineApps:launchable:)` with the app's part decided already
  /// (`ClickReachability`, once per app per claim batch): a click reaches the app, or the
  /// notification asks for a response.
  public static func defaultActionReaches(_ notification: LocalNotification, appReached: Bool) -> Bool {
    appReached || notification.action != nil
  }

  /// Whether the response of a click with `actionKey` on `notification`, whose app could
  /// not be opened, waits in the store for the app (`takeWaitingResponses`) rather than
  /// going: an action button (marked `open`, or a reply) is the user's answer and does, and
  /// so does a click on the default action of a notification that asks for a response (an
  /// action text of its own). A plain click carries nothing to wait with.
  public static func keepsResponse(ofFailedLaunch actionKey: String, on notification: LocalNotification)
    -> Bool
  {
    actionKey != "default" || notification.action != nil
  }
}

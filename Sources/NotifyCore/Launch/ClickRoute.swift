/// Where a click on a notification goes (the way back to the app, as iOS hands a tapped
/// notification to the running app or launches the app with it).
public enum ClickRoute: Hashable, Sendable {
  /// The app runs in this very process: its center hands the activation to the app.
  case thisProcess
  /// Another process of the app is online: it hears of the activation through the store.
  case runningApp
  /// No process of the app is online: open it from its desktop entry, with the response
  /// waiting in the store.
  case launch
  /// Only recorded: an action other than the default one, for an app that is not running.
  case recordOnly

  /// Decides for a click with `actionKey` on a notification of `app`, heard by a process
  /// that hosts `hostApp` (nil for the daemon and `fire-due`), while `onlineApps` have a
  /// process online.
  public static func decide(
    app: String, actionKey: String, hostApp: String?, onlineApps: Set<String>
  ) -> ClickRoute {
    if app == hostApp { return .thisProcess }
    if onlineApps.contains(app) { return .runningApp }
    return actionKey == "default" ? .launch : .recordOnly
  }
}

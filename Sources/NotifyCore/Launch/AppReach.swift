/// What the store knows of how a click can reach an app, read with a claim
/// (`ClaimBatch.reach`) so that deciding whether to offer the default action
/// (`ClickReachability`) asks the store nothing more.
public struct AppReach: Hashable, Sendable {
  /// A process of the app is online (a live presence): its service hears the click.
  public var online: Bool
  /// The desktop entry configured to open the app (a desktop file id); nil for the
  /// default, `APP.desktop`.
  public var desktopEntry: String?

  /// Creates what is known of an app.
  public init(online: Bool, desktopEntry: String?) {
    self.online = online
    self.desktopEntry = desktopEntry
  }
}

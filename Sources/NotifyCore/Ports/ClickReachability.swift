/// Whether a click on a bubble can reach its app, decided before the hand-off, once per app
/// per claim batch (the firer asks it as it prepares claims), so that the sink only reads
/// `Delivery.offersDefaultAction`. The library's interaction router implements it (a
/// desktop-entry lookup for the launch; SPEC.md §5).
public protocol ClickReachability: Sendable {
  /// Whether a click on a bubble of `app` reaches the app whatever the notification asks: a
  /// process of it is online, or its desktop entry launches it. `known` is what the claim's
  /// transaction read of the app; nil: not read, look it up.
  func reaches(app: String, known: AppReach?) -> Bool

  /// What the desktop knows of `app` for its bubbles: whether a click reaches it, and its
  /// desktop entry's icon and id (for `app_icon` and the `desktop-entry` hint).
  func look(app: String, known: AppReach?) -> AppLook
}

extension ClickReachability {
  /// `reaches(app:known:)`, no icon, the app id as its desktop entry.
  public func look(app: String, known: AppReach?) -> AppLook {
    AppLook(reaches: reaches(app: app, known: known), icon: nil, desktopEntry: app)
  }
}

/// What the desktop knows of an app for its bubbles, found once per app per claim batch.
public struct AppLook: Hashable, Sendable {
  /// A click on its bubble reaches it (`ClickReachability.reaches`).
  public var reaches: Bool
  /// Its desktop entry's `Icon=`: a themed icon name, or an absolute path; nil when it has
  /// no entry or the entry no icon.
  public var icon: String?
  /// Its desktop entry's id (a desktop file name without `.desktop`), the `desktop-entry`
  /// hint servers group and theme bubbles by.
  public var desktopEntry: String

  /// Creates the look.
  public init(reaches: Bool, icon: String?, desktopEntry: String) {
    self.reaches = reaches
    self.icon = icon
    self.desktopEntry = desktopEntry
  }
}

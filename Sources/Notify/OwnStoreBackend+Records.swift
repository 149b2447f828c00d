import Foundation
import NotifyCore
import NotifyDesktop
import NotifyStore

/// What the own store records for the app besides its pending notifications: history, the
/// badge, the answers kept for it, its settings, categories and desktop entry; blocking.
extension OwnStoreBackend {
  /// The app's most recent deliveries (by this app, the daemon or the command line),
  /// newest first.
  package func recentDeliveries(limit: Int = 64) throws(NotifyError) -> [HistoryEvent] {
    guard limit > 0 else { return [] }
    // The store has no filter by kind: widen the window until enough deliveries show up
    // or history runs out.
    var window = limit * 2
    while true {
      let events = try store.history(app: app, limit: window)
      let delivered = events.filter { $0.kind == .delivered }
      if delivered.count >= limit || events.count < window { return Array(delivered.prefix(limit)) }
      window *= 4
    }
  }

  /// The app's history, newest first: delivered, discarded, cancelled, missed, failed,
  /// activated and dismissed events.
  package func recordedHistory(limit: Int = 64) throws(NotifyError) -> [HistoryEvent] {
    try store.history(app: app, limit: limit)
  }

  /// The app's badge number (`applicationIconBadgeNumber`); 0 when never set.
  package func badge() throws(NotifyError) -> Int {
    try store.badge(app: app) ?? 0
  }

  /// Sets the app's badge number; 0 clears it. With the desktop sink the count is also
  /// shown on the app's launcher (Unity LauncherEntry) while this process stays on the bus.
  package func setBadge(_ count: Int) throws(NotifyError) {
    try store.setBadge(app: app, count: count, at: clock.now())
    let (sinks, app) = (self.sinks, self.app)
    firer.owner.runBlocking { sinks.publishBadge(app: app, count: count) }
  }

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

  /// Asks for the kinds of notification the app wants to use (`requestAuthorization`,
  /// `registerUserNotificationSettings:`): alerts (`.banner`), sounds, badges. There is no
  /// prompt on Linux: what is granted is what the user's settings for the app allow
  /// (`notify settings`; apps the user has not set follow the default policy, which allows
  /// all), limited to what was asked. Kinds not asked for are not presented. Returns what is
  /// granted.
  @discardableResult
  package func requestAuthorization(_ kinds: PresentationOptions) throws(NotifyError) -> PresentationOptions {
    try store.request(kinds, app: app).allowed
  }

  /// What the user lets the app do now (`currentUserNotificationSettings`).
  package func settingsInForce() throws(NotifyError) -> NotificationSettings {
    try store.settingsInForce(app: app)
  }

  /// Replaces the app's categories (`setNotificationCategories(_:)`), all or none.
  package func setCategories(_ categories: [NotificationCategory]) throws(NotifyError) {
    try store.setCategories(categories, app: app)
  }

  /// The app's categories, by identifier.
  package func categories() throws(NotifyError) -> [NotificationCategory] {
    try store.categories(app: app)
  }

  /// Configures the desktop entry that opens the app on a click; nil goes back to
  /// `APP.desktop`. Throws `.invalidData` for a name that is not a plain desktop file id.
  package func setDesktopEntry(_ name: String?) throws(NotifyError) {
    if let name, DesktopFileID(name) == nil {
      throw NotifyError(
        .invalidData, "'\(Escaper.visible(name))' is not a desktop file id",
        fix: "give the entry's file name without .desktop (letters, digits, '.', '_', '-')")
    }
    try store.setDesktopEntry(name, app: app)
  }

  /// Delivers every occurrence of the app's notifications that is due now, once, even
  /// when the daemon or another process fires at the same moment; returns how many were
  /// delivered. A delivery the sink keeps refusing is recorded as `failed`. With `task`,
  /// stops starting deliveries once the task has expired and returns the rest to pending.
  /// The same engine as `notify fire-due`, for this app only.
  @discardableResult
  package func deliverDueNow(within task: BackgroundTask? = nil) throws(NotifyError) -> Int {
    let firer = self.firer
    return try firer.owner.runBlocking { () throws(NotifyError) in
      try firer.firer.fireBatch(task: task).delivered
    }
  }
}

import Foundation
import NotifyCore

/// What a center's public calls do, behind one seam chosen when the center is made
/// (`CenterBackend`): `OwnStoreBackend` works on the center's own store (outside a
/// sandbox, or inside one without notify's service), `ServiceBackend` asks notify's
/// D-Bus service on the host. Each public call of `LocalNotificationCenter` is one call
/// here, so the two paths are told apart once, not in every method.
protocol CenterCalls: Sendable {
  /// Which backend this is.
  var kind: CenterBackend { get }

  /// Schedules the request, or presents it at once without a trigger (then the delivery,
  /// where the backend hands one back).
  func add(_ request: NotificationRequest) async throws(NotificationError) -> Delivery?
  /// The app's pending notifications, soonest first, as stored.
  func pending() async throws(NotificationError) -> [StoredNotification]
  /// Cancels these pending (and held) notifications; unknown ids are ignored.
  func cancel(_ ids: [String]) async throws(NotificationError)
  /// Cancels every pending and held notification of the app.
  func cancelAll() async throws(NotificationError)
  /// The app's notifications still on screen, newest first.
  func delivered() async throws(NotificationError) -> [HistoryEvent]
  /// The app's notifications of `thread` still on screen, newest first.
  func delivered(thread: String) async throws(NotificationError) -> [HistoryEvent]
  /// Takes these notifications off the screen; ids not on screen are ignored.
  func withdraw(_ ids: [String]) async throws(NotificationError)
  /// Takes the notifications of `thread` off the screen.
  func withdraw(thread: String) async throws(NotificationError)
  /// Takes every notification of the app off the screen.
  func withdrawAll() async throws(NotificationError)
  /// Sets the app's badge number.
  func setBadge(_ count: Int) async throws(NotificationError)
  /// The app's badge number; 0 when never set.
  func badge() async throws(NotificationError) -> Int
  /// Asks for `kinds`; returns what the user's settings grant.
  func requestAuthorization(_ kinds: PresentationOptions) async throws(NotificationError)
    -> PresentationOptions
  /// What the user lets the app do now.
  func settings() async throws(NotificationError) -> NotificationSettings
  /// The app's `limit` newest history events (limit above 0).
  func history(limit: Int) async throws(NotificationError) -> [HistoryEvent]
  /// Delivers what is due now; returns how many.
  func deliverDue(within task: BackgroundTask?) async throws(NotificationError) -> Int
  /// What quiet hours hold of the app, oldest first.
  func held() async throws(NotificationError) -> [HeldNotification]
  /// Replaces the app's categories (sorted by identifier).
  func setCategories(_ categories: [NotificationCategory]) async throws(NotificationError)
  /// The app's categories, by identifier.
  func categories() async throws(NotificationError) -> [NotificationCategory]
  /// The app's next fire instant, or nil when nothing is pending.
  func nextFireDate() async throws(NotificationError) -> Date?
  /// The launch response and the answers that waited, taken once.
  func takeKeptResponses() async throws(NotificationError) -> (NotificationResponse?, [NotificationResponse])
  /// Records a click or action on a notification the app delivered; false for an unknown id.
  func recordActivation(of id: String, actionKey: String) async throws(NotificationError) -> Bool
  /// Records that a notification the app delivered was closed; false for an unknown id.
  func recordDismissal(of id: String, reason: String?) async throws(NotificationError) -> Bool
  /// The desktop entry that opens the app on a click; nil means `APP.desktop`.
  func desktopEntry() async throws(NotificationError) -> String?
  /// Configures the desktop entry that opens the app on a click.
  func setDesktopEntry(_ name: String?) async throws(NotificationError)
}

import Foundation
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// The app's API: `async`, shaped like `UNUserNotificationCenter`; each call is one call to
/// the center's backend (`CenterCalls`: its own store, or notify's service inside a Flatpak
/// sandbox). On the own store a call that reaches the sinks or the firer runs on the
/// center's owner (`SinkOwner`: the firing loop's thread while the firing service runs);
/// the others run on the center's `BlockingCallQueue`. Either way the calling task is
/// suspended, so none of them blocks a thread of the cooperative pool while it waits for a
/// busy store or a hung notification server (up to 5 s each).
extension LocalNotificationCenter {
  // MARK: Pending

  /// Schedules the request (`add(_:withCompletionHandler:)`), replacing a pending
  /// notification of the app with the same identifier; with no trigger, presents it at once
  /// and returns the delivery (held, not shown, during quiet hours: `Delivery.held`).
  ///
  /// Throws `.limitReached` when the 64-pending limit discards the new notification itself
  /// (64 others fire sooner; it is recorded as `discarded`), `.invalidContent` when the
  /// content or trigger breaks a rule, `.serverUnavailable` when presenting finds no
  /// notification server, `.storeBusy` when another process holds the store for 5 s.
  @discardableResult
  public func add(_ request: NotificationRequest) async throws(NotificationError) -> Delivery? {
    try await backend.add(request)
  }

  /// The app's pending notifications, soonest first, as the requests `add(_:)` took
  /// (`pendingNotificationRequests()`): the identifier, the content and the trigger, so a
  /// request read back equals the one added. Two things come back as the store keeps them: a
  /// relative trigger (`.after`, `.immediately`) as the instant it fell on when added
  /// (`.at`), and attachments as the store's kept copies. Their next fire instants and
  /// occurrences: `pendingNotificationSchedules()`.
  public func pendingNotificationRequests() async throws(NotificationError) -> [NotificationRequest] {
    try await backend.pending().map(NotificationRequest.init)
  }

  /// Cancels the pending notifications with these ids, and what quiet hours hold of them;
  /// ids that are neither are ignored (`removePendingNotificationRequests(withIdentifiers:)`).
  public func removePendingNotificationRequests(withIdentifiers ids: [String]) async throws(NotificationError)
  {
    try await backend.cancel(ids)
  }

  /// Cancels every pending notification of the app, and everything quiet hours hold of it.
  public func removeAllPendingNotificationRequests() async throws(NotificationError) {
    try await backend.cancelAll()
  }

  // MARK: On screen

  /// The app's notifications the desktop still shows, newest first
  /// (`deliveredNotifications()`): the `delivered` event of each one a notification server
  /// took and that, as far as notify knows, is still on screen. The DocC article "Getting
  /// started" says exactly what counts; `history(limit:)` has every delivery.
  public func delivered() async throws(NotificationError) -> [HistoryEvent] {
    try await backend.delivered()
  }

  /// Takes the app's notifications with these ids off the screen, whichever process showed
  /// them, and records each as `dismissed` (`dismissed-by-app`); ids not on screen are
  /// ignored (`removeDeliveredNotifications(withIdentifiers:)`). Throws `.serverUnavailable`
  /// when no notification server answers.
  public func removeDeliveredNotifications(withIdentifiers ids: [String]) async throws(NotificationError) {
    try await backend.withdraw(ids)
  }

  /// The app's pending notifications of thread `thread`, soonest first.
  public func pendingNotificationRequests(threadIdentifier thread: String) async throws(NotificationError)
    -> [NotificationRequest]
  {
    try await pendingNotificationRequests().filter { $0.content.threadIdentifier == thread }
  }

  /// The app's notifications of thread `thread` still on screen, newest first (its bubble
  /// shows the first).
  public func delivered(threadIdentifier thread: String) async throws(NotificationError) -> [HistoryEvent] {
    try await backend.delivered(thread: thread)
  }

  /// Takes the app's notifications of thread `thread` off the screen (the thread's bubble),
  /// whichever process showed them, recording each as `dismissed` (`dismissed-by-app`).
  public func removeDeliveredNotifications(threadIdentifier thread: String) async throws(NotificationError) {
    try await backend.withdraw(thread: thread)
  }

  /// Takes every notification of the app still on screen off it.
  public func removeAllDeliveredNotifications() async throws(NotificationError) {
    try await backend.withdrawAll()
  }

  // MARK: Badge and settings

  /// Sets the app's badge number (`setBadgeCount(_:)`); 0 clears it. With the desktop sink
  /// the count also shows on the app's launcher while this process stays on the bus.
  public func setBadgeCount(_ count: Int) async throws(NotificationError) {
    try await backend.setBadge(count)
  }

  /// The app's badge number; 0 when never set.
  public func badgeCount() async throws(NotificationError) -> Int {
    try await backend.badge()
  }

  /// Asks for the kinds of notification the app wants to use (`requestAuthorization`):
  /// there is no prompt on Linux; what is granted is what the user's settings for the app
  /// allow (`notify settings`), limited to what was asked. Returns what is granted.
  @discardableResult
  public func requestAuthorization(options kinds: PresentationOptions) async throws(NotificationError)
    -> PresentationOptions
  {
    try await backend.requestAuthorization(kinds)
  }

  /// What the user lets the app do now (`notificationSettings()`).
  public func notificationSettings() async throws(NotificationError) -> NotificationSettings {
    try await backend.settings()
  }

  /// The app's history, newest first: delivered, discarded, cancelled, missed, failed,
  /// activated and dismissed events; the `limit` newest (none for a limit below 1).
  public func history(limit: Int = 64) async throws(NotificationError) -> [HistoryEvent] {
    guard limit > 0 else { return [] }
    return try await backend.history(limit: limit)
  }

  /// Delivers every occurrence of the app's notifications that is due now, once, even
  /// when the daemon or another process fires at the same moment; returns how many were
  /// delivered (`notify fire-due` for this app). With `task`, stops starting deliveries once
  /// the task has expired and returns the rest to pending.
  @discardableResult
  public func deliverDueNotifications(within task: BackgroundTask? = nil) async throws(NotificationError)
    -> Int
  {
    try await backend.deliverDue(within: task)
  }

  /// True when a notification server answers on the session bus within `timeout`, for a
  /// center whose notifications go to the desktop (it asks for the server's capabilities on
  /// a connection of its own, which shows nothing); true for the other sinks, which need
  /// none. Asked after a call timed out, before the app sends the server anything more.
  public func notificationServerAnswers(timeout: Duration = .seconds(2)) async -> Bool {
    guard sinkName == "desktop" else { return true }
    let answers = try? await calls.run { () throws(NotifyError) in
      DesktopSink.serverAvailable(timeout: timeout)
    }
    return answers ?? false
  }

  /// The app's pending notifications as stored, soonest first: each with its next fire
  /// instant (as it will fire in the zones of now), the occurrence that is next, and for a
  /// snoozed or re-alerting copy which occurrence it repeats. The store's view of what
  /// `pendingNotificationRequests()` returns as requests.
  public func pendingNotificationSchedules() async throws(NotificationError) -> [StoredNotification] {
    try await backend.pending()
  }
}

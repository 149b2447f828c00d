import Foundation
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// The app's API: `async`, shaped like `UNUserNotificationCenter`. A call that reaches the
/// sinks or the firer (presenting, withdrawing, the badge, delivering what is due) runs on
/// the center's owner (`SinkOwner`: the firing loop's thread while the firing service
/// runs); the others run on the center's `BlockingCallQueue`. Either way the calling task
/// is suspended, so none of them blocks a thread of the cooperative pool while it waits for
/// a busy store or a hung notification server (up to 5 s each).
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
    if let service {
      let notification = try serviceNotification(request)
      let files = request.content.attachments
      if request.trigger == nil {
        try await service.present(notification, attaching: files)
      } else {
        try await service.schedule(notification, attaching: files)
      }
      return nil
    }
    guard let trigger = request.trigger else {
      return try await onOwner { () throws(NotifyError) in
        try self.present(request.content, id: request.identifier)
      }
    }
    let outcome = try await calls.run { () throws(NotifyError) in
      try self.store(request.content, trigger: trigger, id: request.identifier)
    }
    if outcome.newOneDiscarded { throw NotificationError(Self.discardedError(outcome)) }
    return nil
  }

  /// The app's pending notifications, soonest first, with their next fire instants
  /// (`pendingNotificationRequests()`).
  public func pendingNotificationRequests() async throws(NotificationError) -> [StoredNotification] {
    if let service { return try await service.pending() }
    return try await calls.run { () throws(NotifyError) in try self.pending() }
  }

  /// Cancels the pending notifications with these ids, and what quiet hours hold of them;
  /// ids that are neither are ignored (`removePendingNotificationRequests(withIdentifiers:)`).
  public func removePendingNotificationRequests(withIdentifiers ids: [String]) async throws(NotificationError)
  {
    if let service { return try await service.cancel(ids) }
    _ = try await calls.run { () throws(NotifyError) in try self.cancel(ids) }
  }

  /// Cancels every pending notification of the app, and everything quiet hours hold of it.
  public func removeAllPendingNotificationRequests() async throws(NotificationError) {
    if let service { return try await service.cancelAll() }
    _ = try await calls.run { () throws(NotifyError) in try self.cancelAll() }
  }

  // MARK: On screen

  /// The app's notifications the desktop still shows, newest first
  /// (`deliveredNotifications()`): the `delivered` event of each one a notification server
  /// took and that, as far as notify knows, is still on screen. The DocC article "Getting
  /// started" says exactly what counts; `history(limit:)` has every delivery.
  public func delivered() async throws(NotificationError) -> [HistoryEvent] {
    if let service { return try await service.delivered() }
    let app = self.app
    let store = self.store
    return try await calls.run { () throws(NotifyError) in try store.onScreen(app: app) }
  }

  /// Takes the app's notifications with these ids off the screen, whichever process showed
  /// them, and records each as `dismissed` (`dismissed-by-app`); ids not on screen are
  /// ignored (`removeDeliveredNotifications(withIdentifiers:)`). Throws `.serverUnavailable`
  /// when no notification server answers.
  public func removeDeliveredNotifications(withIdentifiers ids: [String]) async throws(NotificationError) {
    if let service { return try await service.withdraw(ids) }
    _ = try await onOwner { () throws(NotifyError) in try self.removeDelivered(ids) }
  }

  /// The app's pending notifications of thread `thread`, soonest first.
  public func pendingNotificationRequests(threadIdentifier thread: String) async throws(NotificationError)
    -> [StoredNotification]
  {
    try await pendingNotificationRequests().filter { $0.notification.threadIdentifier == thread }
  }

  /// The app's notifications of thread `thread` still on screen, newest first (its bubble
  /// shows the first).
  public func delivered(threadIdentifier thread: String) async throws(NotificationError) -> [HistoryEvent] {
    if let service {
      return try await service.delivered().filter { $0.detail["threadIdentifier"] == .string(thread) }
    }
    return try await calls.run { () throws(NotifyError) in try self.deliveredOnScreen(thread: thread) }
  }

  /// Takes the app's notifications of thread `thread` off the screen (the thread's bubble),
  /// whichever process showed them, recording each as `dismissed` (`dismissed-by-app`).
  public func removeDeliveredNotifications(threadIdentifier thread: String) async throws(NotificationError) {
    if let service {
      let ids = try await delivered(threadIdentifier: thread).map(\.notificationID)
      return try await service.withdraw(ids)
    }
    _ = try await onOwner { () throws(NotifyError) in try self.removeDelivered(thread: thread) }
  }

  /// Takes every notification of the app still on screen off it.
  public func removeAllDeliveredNotifications() async throws(NotificationError) {
    if let service { return try await service.withdraw(try await service.delivered().map(\.notificationID)) }
    _ = try await onOwner { () throws(NotifyError) in try self.removeAllDelivered() }
  }

  // MARK: Badge and settings

  /// Sets the app's badge number (`setBadgeCount(_:)`); 0 clears it. With the desktop sink
  /// the count also shows on the app's launcher while this process stays on the bus.
  public func setBadgeCount(_ count: Int) async throws(NotificationError) {
    if let service { return try await service.setBadge(count) }
    try await onOwner { () throws(NotifyError) in try self.setBadge(count) }
  }

  /// The app's badge number; 0 when never set.
  public func badgeCount() async throws(NotificationError) -> Int {
    if let service { return try await service.badge() }
    return try await calls.run { () throws(NotifyError) in try self.badge() }
  }

  /// Asks for the kinds of notification the app wants to use (`requestAuthorization`):
  /// there is no prompt on Linux; what is granted is what the user's settings for the app
  /// allow (`notify settings`), limited to what was asked. Returns what is granted.
  @discardableResult
  public func requestAuthorization(options kinds: PresentationOptions) async throws(NotificationError)
    -> PresentationOptions
  {
    if let service { return try await service.requestAuthorization(kinds) }
    return try await calls.run { () throws(NotifyError) in try self.requestAuthorization(kinds) }
  }

  /// What the user lets the app do now (`notificationSettings()`).
  public func notificationSettings() async throws(NotificationError) -> NotificationSettings {
    if let service { return try await service.settings() }
    return try await calls.run { () throws(NotifyError) in try self.settingsInForce() }
  }

  /// The app's history, newest first: delivered, discarded, cancelled, missed, failed,
  /// activated and dismissed events; the `limit` newest (none for a limit below 1).
  public func history(limit: Int = 64) async throws(NotificationError) -> [HistoryEvent] {
    guard limit > 0 else { return [] }
    if let service { return try await service.history(limit: limit) }
    return try await calls.run { () throws(NotifyError) in try self.recordedHistory(limit: limit) }
  }

  /// Delivers every occurrence of the app's notifications that is due now, once, even
  /// when the daemon or another process fires at the same moment; returns how many were
  /// delivered (`notify fire-due` for this app). With `task`, stops starting deliveries once
  /// the task has expired and returns the rest to pending.
  @discardableResult
  public func deliverDueNotifications(within task: BackgroundTask? = nil) async throws(NotificationError)
    -> Int
  {
    if service != nil {
      throw NotificationError(
        NotifyError(
          .notAvailableInSandbox,
          "deliverDueNotifications is not available inside a Flatpak sandbox whose center goes through notify's service: the daemon on the host delivers the app's notifications as they fall due, whether the app runs or not; there is nothing for the app to deliver"
        ))
    }
    return try await onOwner { () throws(NotifyError) in try self.deliverDueNow(within: task) }
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

  // MARK: Responses

  /// Every answer of the user to the app's notifications, each once: the click that
  /// launched this process (first), the answers that waited in the store while no process
  /// of the app ran (oldest first), then clicks, actions, replies and dismissals as they
  /// happen (`userNotificationCenter(_:didReceive:)`). See `NotificationResponses`.
  public var responses: NotificationResponses { NotificationResponses(center: self) }
}

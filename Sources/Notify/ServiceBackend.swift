import Foundation
import NotifyCore

/// The center's calls through notify's D-Bus service (`CenterBackend.service`): inside a
/// Flatpak sandbox whose session bus reaches it, so that what the app schedules lives in
/// the host's store and fires while the app is closed (docs/sandboxes.md). The service acts
/// for the sandbox's app only; what it has no method for throws `.notAvailable`.
struct ServiceBackend: CenterCalls {
  let client: SchedulerClient
  let app: String
  let clock: any NotifyClock

  var kind: CenterBackend { .service(app: client.app) }

  func add(_ request: NotificationRequest) async throws(NotificationError) -> Delivery? {
    let notification = try notification(request)
    let files = request.content.attachments
    if request.trigger == nil {
      try await client.present(notification, attaching: files)
    } else {
      try await client.schedule(notification, attaching: files)
    }
    return nil
  }

  /// The notification `request` stands for, made and checked here as the own store's
  /// `add` makes it (the service checks it again): nil trigger means now.
  func notification(_ request: NotificationRequest) throws(NotificationError) -> LocalNotification {
    do throws(NotifyError) {
      return try request.content.checked(
        id: request.identifier, app: app, trigger: request.trigger, clock: clock
      )
      .notification
    } catch {
      throw NotificationError(error)
    }
  }

  func pending() async throws(NotificationError) -> [StoredNotification] { try await client.pending() }
  func cancel(_ ids: [String]) async throws(NotificationError) { try await client.cancel(ids) }
  func cancelAll() async throws(NotificationError) { try await client.cancelAll() }
  func delivered() async throws(NotificationError) -> [HistoryEvent] { try await client.delivered() }

  func delivered(thread: String) async throws(NotificationError) -> [HistoryEvent] {
    try await client.delivered().filter { $0.detail["threadIdentifier"] == .string(thread) }
  }

  func withdraw(_ ids: [String]) async throws(NotificationError) { try await client.withdraw(ids) }

  func withdraw(thread: String) async throws(NotificationError) {
    try await client.withdraw(try await delivered(thread: thread).map(\.notificationID))
  }

  func withdrawAll() async throws(NotificationError) {
    try await client.withdraw(try await client.delivered().map(\.notificationID))
  }

  func setBadge(_ count: Int) async throws(NotificationError) { try await client.setBadge(count) }
  func badge() async throws(NotificationError) -> Int { try await client.badge() }

  func requestAuthorization(_ kinds: PresentationOptions) async throws(NotificationError)
    -> PresentationOptions
  {
    try await client.requestAuthorization(kinds)
  }

  func settings() async throws(NotificationError) -> NotificationSettings { try await client.settings() }

  func history(limit: Int) async throws(NotificationError) -> [HistoryEvent] {
    try await client.history(limit: limit)
  }

  func deliverDue(within task: BackgroundTask?) async throws(NotificationError) -> Int {
    throw NotificationError(
      NotifyError(
        .notAvailableInSandbox,
        "deliverDueNotifications is not available inside a Flatpak sandbox whose center goes through notify's service: the daemon on the host delivers the app's notifications as they fall due, whether the app runs or not; there is nothing for the app to deliver"
      ))
  }

  func held() async throws(NotificationError) -> [HeldNotification] { try await client.held() }

  func setCategories(_ categories: [NotificationCategory]) async throws(NotificationError) {
    try await client.setCategories(categories)
  }

  func categories() async throws(NotificationError) -> [NotificationCategory] {
    try await client.categories()
  }

  /// The soonest of the pending ones (the daemon fires them).
  func nextFireDate() async throws(NotificationError) -> Date? {
    try await client.pending().compactMap(\.nextFireDate).min()
  }

  /// The host's store keeps them; the service takes each once, for this app only.
  func takeKeptResponses() async throws(NotificationError) -> (NotificationResponse?, [NotificationResponse])
  {
    (try await client.takeLaunchResponse(), try await client.takeWaitingResponses())
  }

  func recordActivation(of id: String, actionKey: String) async throws(NotificationError) -> Bool {
    throw Self.recordingNotAvailable("recordActivation(of:actionKey:)")
  }

  func recordDismissal(of id: String, reason: String?) async throws(NotificationError) -> Bool {
    throw Self.recordingNotAvailable("recordDismissal(of:reason:)")
  }

  /// Flatpak exports the app's entry under its id: nil, `APP.desktop`.
  func desktopEntry() async throws(NotificationError) -> String? { nil }

  func setDesktopEntry(_ name: String?) async throws(NotificationError) {
    throw NotificationError(
      NotifyError(
        .notAvailableInSandbox,
        "setDesktopEntry is not available inside a Flatpak sandbox whose center goes through notify's service: the host opens the desktop entry Flatpak exports under the app's id ('\(app).desktop')",
        fix: "name the app's desktop file after its Flatpak id"))
  }

  /// Why `call` cannot be made through notify's service.
  static func recordingNotAvailable(_ call: String) -> NotificationError {
    NotificationError(
      NotifyError(
        .notAvailableInSandbox,
        "\(call) is not available inside a Flatpak sandbox whose center goes through notify's service: the service records only what the notification server reports (clicks, buttons, replies, closes), so that one app cannot write another's history; show the notification through add(_:) and its answer comes to events"
      ))
  }
}

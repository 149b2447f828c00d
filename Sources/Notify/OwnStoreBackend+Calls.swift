import Foundation
import NotifyCore
import NotifyStore

/// The center's `async` API on its own store: each call runs the blocking member of the
/// same meaning on the center's owner (when it reaches the sinks or the firer) or on its
/// `BlockingCallQueue` (the rest), so the calling task is suspended, never a thread of the
/// cooperative pool blocked on a busy store or a hung notification server.
extension OwnStoreBackend: CenterCalls {
  var kind: CenterBackend { .ownStore }

  func add(_ request: NotificationRequest) async throws(NotificationError) -> Delivery? {
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

  func pending() async throws(NotificationError) -> [StoredNotification] {
    try await calls.run { () throws(NotifyError) in try self.pending() }
  }

  func cancel(_ ids: [String]) async throws(NotificationError) {
    _ = try await calls.run { () throws(NotifyError) in try self.cancel(ids) }
  }

  func cancelAll() async throws(NotificationError) {
    _ = try await calls.run { () throws(NotifyError) in try self.cancelAll() }
  }

  func delivered() async throws(NotificationError) -> [HistoryEvent] {
    let (store, app) = (self.store, self.app)
    return try await calls.run { () throws(NotifyError) in try store.onScreen(app: app) }
  }

  func delivered(thread: String) async throws(NotificationError) -> [HistoryEvent] {
    try await calls.run { () throws(NotifyError) in try self.deliveredOnScreen(thread: thread) }
  }

  func withdraw(_ ids: [String]) async throws(NotificationError) {
    _ = try await onOwner { () throws(NotifyError) in try self.removeDelivered(ids) }
  }

  func withdraw(thread: String) async throws(NotificationError) {
    _ = try await onOwner { () throws(NotifyError) in try self.removeDelivered(thread: thread) }
  }

  func withdrawAll() async throws(NotificationError) {
    _ = try await onOwner { () throws(NotifyError) in try self.removeAllDelivered() }
  }

  func setBadge(_ count: Int) async throws(NotificationError) {
    try await onOwner { () throws(NotifyError) in try self.setBadge(count) }
  }

  func badge() async throws(NotificationError) -> Int {
    try await calls.run { () throws(NotifyError) in try self.badge() }
  }

  func requestAuthorization(_ kinds: PresentationOptions) async throws(NotificationError)
    -> PresentationOptions
  {
    try await calls.run { () throws(NotifyError) in try self.requestAuthorization(kinds) }
  }

  func settings() async throws(NotificationError) -> NotificationSettings {
    try await calls.run { () throws(NotifyError) in try self.settingsInForce() }
  }

  func history(limit: Int) async throws(NotificationError) -> [HistoryEvent] {
    try await calls.run { () throws(NotifyError) in try self.recordedHistory(limit: limit) }
  }

  func deliverDue(within task: BackgroundTask?) async throws(NotificationError) -> Int {
    try await onOwner { () throws(NotifyError) in try self.deliverDueNow(within: task) }
  }

  func held() async throws(NotificationError) -> [HeldNotification] {
    let (store, app) = (self.store, self.app)
    return try await calls.run { () throws(NotifyError) in try store.held(app: app) }
  }

  func setCategories(_ categories: [NotificationCategory]) async throws(NotificationError) {
    try await calls.run { () throws(NotifyError) in try self.setCategories(categories) }
  }

  func categories() async throws(NotificationError) -> [NotificationCategory] {
    try await calls.run { () throws(NotifyError) in try self.categories() }
  }

  func nextFireDate() async throws(NotificationError) -> Date? {
    let firer = self.firer
    return try await onOwner { () throws(NotifyError) in try firer.firer.nextFireDate() }
  }

  func takeKeptResponses() async throws(NotificationError) -> (NotificationResponse?, [NotificationResponse])
  {
    try await calls.run { () throws(NotifyError) -> (NotificationResponse?, [NotificationResponse]) in
      (try self.takeLaunchResponse(), try self.takeWaitingResponses())
    }
  }

  func recordActivation(of id: String, actionKey: String) async throws(NotificationError) -> Bool {
    let interactions = self.interactions
    return try await calls.run { () throws(NotifyError) in
      try interactions.record(.activated(actionKey: actionKey), id: id)
    }
  }

  func recordDismissal(of id: String, reason: String?) async throws(NotificationError) -> Bool {
    let interactions = self.interactions
    return try await calls.run { () throws(NotifyError) in
      try interactions.record(.dismissed(reason: reason), id: id)
    }
  }

  func desktopEntry() async throws(NotificationError) -> String? {
    let (store, app) = (self.store, self.app)
    return try await calls.run { () throws(NotifyError) in try store.desktopEntry(app: app) }
  }

  func setDesktopEntry(_ name: String?) async throws(NotificationError) {
    try await calls.run { () throws(NotifyError) in try self.setDesktopEntry(name) }
  }

  /// Runs `body` on the center's owner (`SinkOwner`), which alone touches the sinks, their
  /// bus connection and the firer; the calling task is suspended, not blocked, meanwhile.
  func onOwner<T: Sendable>(_ body: @escaping @Sendable () throws(NotifyError) -> T)
    async throws(NotificationError) -> T
  {
    do {
      return try await firer.owner.run(body)
    } catch {
      throw NotificationError(error)
    }
  }
}

import Foundation
import NotifyFiring

extension LocalNotificationCenter {
  /// The service that fires the app's scheduled notifications while the app runs and
  /// relays the desktop's answers to `events`; run one per center in the app's
  /// `ServiceGroup`. With `firesScheduledNotifications` false it only relays, leaving
  /// scheduled notifications to the daemon.
  public func firingService(firesScheduledNotifications: Bool = true) -> NotificationFiringService {
    NotificationFiringService(center: self, firesScheduledNotifications: firesScheduledNotifications)
  }

  /// Delivers every occurrence of the app's notifications that is due now, once, even
  /// when the daemon or another process fires at the same moment; returns how many were
  /// delivered. A delivery the sink keeps refusing is recorded as `failed`. With `task`,
  /// stops starting deliveries once the task has expired and returns the rest to pending.
  @discardableResult
  public func deliverDueNotifications(within task: BackgroundTask? = nil) throws(NotifyError) -> Int {
    var delivered = 0
    while true {
      // Claiming covers the whole store, so only claim when this app has something due.
      guard let next = try nextFireDate(), next <= clock.now() else { return delivered }
      let report = try firer.fireBatch(task: task)
      delivered += report.delivered
      guard report.reachedLimit, !report.stopped else { return delivered }
    }
  }

  /// The app's next fire instant, or nil when nothing is pending.
  public func nextFireDate() throws(NotifyError) -> Date? {
    try store.pending(app: app).first?.nextFireDate
  }
}

/// The store as this app's firer sees it: only the app's own occurrences are claimed, so
/// an app never shows (or holds up) another app's notifications.
final class AppScopedFiringStore: FiringStore {
  let base: SQLiteStore
  let app: String

  init(base: SQLiteStore, app: String) {
    self.base = base
    self.app = app
  }

  func nextFireDate(localZone: TimeZone) throws -> Date? {
    try base.pending(app: app).first?.nextFireDate
  }

  func claimDue(now: Date, localZone: TimeZone, owner: FirerIdentity, misfireGrace: TimeInterval?, limit: Int)
    throws -> [Claim]
  {
    try base.claimDue(
      now: now, localZone: localZone, owner: owner, misfireGrace: misfireGrace, limit: limit, app: app)
  }

  func markDelivered(_ claim: Claim, delivery: Delivery) throws {
    try base.markDelivered(claim, delivery: delivery)
  }
  func markFailed(_ claim: Claim, reason: String, at date: Date) throws {
    try base.markFailed(claim, reason: reason, at: date)
  }
  func release(_ claims: [Claim]) throws { try base.release(claims) }
}

/// The sink the app's firer hands deliveries to: the center's own sink, then the
/// center's event stream.
final class AnnouncingSink: DeliverySink {
  private let sink: SerializedSink
  private let announce: @Sendable (Delivery) -> Void

  init(_ sink: SerializedSink, announce: @escaping @Sendable (Delivery) -> Void) {
    self.sink = sink
    self.announce = announce
  }

  var name: String { sink.name }

  func deliver(_ delivery: Delivery) throws {
    try sink.deliver(delivery)
    announce(delivery)
  }
}

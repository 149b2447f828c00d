import Foundation
import Logging
import NotifyCore
import NotifyDesktop
import NotifyFiring
import NotifySound
import NotifyStore
import NotifyZones
import Synchronization

/// An app's handle on its local notifications: schedule them, present them now, cancel
/// them, list what is pending and what was delivered, set the badge, and hear what
/// happens to them. Modeled on `UIApplication`'s local-notification methods and
/// `UNUserNotificationCenter`.
///
/// The center works on the same store as the `notify` command and daemon, so a
/// notification scheduled here fires even after the app quits, as long as the daemon
/// runs. While the app runs it may fire them itself: see `firingService()`.
///
/// ```swift
/// let center = try LocalNotificationCenter(app: "chat", sink: .auto)
/// try await center.add(
///   NotificationRequest(content: NotificationContent(body: "Stand up"), trigger: .after(.seconds(600))))
/// try await center.add(
///   NotificationRequest(content: NotificationContent(body: "SteveJ: Hi", sound: .default, badge: 1), trigger: nil))
/// for await event in center.events { print(event.kind, event.userInfo["room"]?.stringValue ?? "") }
/// ```
public final class LocalNotificationCenter: Sendable {
  /// The app whose notifications this center manages.
  public let app: String
  /// The store shared with the `notify` command and daemon.
  let store: SQLiteStore
  /// The source of `now` and of the system time zone.
  public let clock: any NotifyClock

  /// The sinks deliveries go to; used only on the owner (`firer.owner`).
  let sinks: SinkAssembly
  let broadcaster: EventBroadcaster
  let recent: RecentDeliveries
  /// Fires the app's due notifications through the shared store; with its owner, the one
  /// executor of the sinks, their bus connection and the firer.
  let firer: OwnedFirer
  /// Records activations and dismissals.
  let interactions: InteractionRecorder
  /// The firing loop's control while `firingService()` runs, so changes made here wake it
  /// at once.
  let runningLoop = Locked<FiringLoopControl?>(nil)
  /// Tells the running app what other processes recorded of its notifications.
  let relay: HistoryRelay
  /// How the app wants its notifications presented while it runs.
  let presentation = Locked<(@Sendable (LocalNotification) -> PresentationOptions)?>(nil)
  /// Where the `async` API runs its blocking calls (`BlockingCallQueue`).
  let calls: BlockingCallQueue
  /// notify's service, when the center's calls go there (`CenterBackend.service`: inside a
  /// Flatpak sandbox that reaches it); nil for the center's own store.
  let service: SchedulerClient?
  /// Hears the service's signals for `events` while the center lives.
  let serviceListener: SchedulerListener?
  /// The center's own store and what the `notify` command, the D-Bus service and the tests
  /// do on it for the app, blocking (the app's calls go through `backend`).
  package let ownStore: OwnStoreBackend
  /// Where the public calls go, chosen once when the center is made: `ownStore`, or notify's
  /// service (`ServiceBackend`).
  let backend: any CenterCalls

  /// Creates the center for `app` on an open store, delivering through `sink` (assembled
  /// as the `notify` command assembles its sinks: a `DesktopSink` gets the sound fallback
  /// and its answers go to history).
  ///
  /// With `service`, the app's API goes to notify's service instead of `store`
  /// (docs/sandboxes.md), and the service's signals reach `events`.
  package init(
    app: String, store: SQLiteStore, sink: any DeliverySink, clock: any NotifyClock = SystemClock(),
    service: SchedulerClient? = nil
  ) throws(NotifyError) {
    try Validator.app(app)
    let broadcaster = EventBroadcaster()
    let presentation = self.presentation
    let recent = RecentDeliveries()
    let interactions = InteractionRecorder(
      app: app, store: store, clock: clock, broadcaster: broadcaster, recent: recent)
    let runningLoop = self.runningLoop
    let sinks = SinkAssembly(
      sink, store: store, clock: clock, hostApp: app,
      observers: .init(
        interaction: { event in interactions.publish(event) },
        pendingChanged: { runningLoop.value?.nudge() }))
    sinks.desktop?.logLevel = NotifyLogging.level
    self.app = app
    self.store = store
    self.calls = BlockingCallQueue(label: "notify.center.\(app)")
    self.sinks = sinks
    self.clock = clock
    self.broadcaster = broadcaster
    self.recent = recent
    self.firer = OwnedFirer(owner: SinkOwner(label: "notify.owner.\(app)")) {
      // Inside an app, deliveries are the app's business: log only what goes wrong, unless
      // the app raised the level.
      let logger = NotifyLogging.logger("notify.firing")
      return Firer(
        store: store,
        sink: AnnouncingSink(sinks.sink) { delivery in
          LocalNotificationCenter.announce(delivery, to: broadcaster, recent: recent)
        },
        identity: .current, clock: clock, logger: logger,
        options: .init(
          claimAhead: FiringLoop.claimAhead, handOverLead: FiringLoop.handOverLead, app: app,
          presentation: { notification in presentation.value?(notification) ?? .all },
          clickReach: sinks.clickReach))
    }
    self.relay = HistoryRelay(app: app, store: store, broadcaster: broadcaster)
    self.interactions = interactions
    self.service = service
    let ownStore = OwnStoreBackend(
      app: app, store: store, clock: clock, sinks: sinks, firer: self.firer, interactions: interactions,
      runningLoop: runningLoop, calls: self.calls)
    self.ownStore = ownStore
    self.backend = service.map { ServiceBackend(client: $0, app: app, clock: clock) } ?? ownStore
    do throws(NotificationError) {
      serviceListener = try service?.listen { event in broadcaster.publish(event) }
    } catch {
      throw NotifyError(.unavailable, "cannot hear notify's service: \(error)")
    }
  }

  /// Creates the center for `app`, opening the store at `storePath` (default: `NOTIFY_DB`,
  /// else `$XDG_STATE_HOME/notify/notify.db`) and choosing the sink as `notify --sink` does.
  ///
  /// Inside a Flatpak sandbox whose session bus has notify's service, the app's API goes
  /// to the service on the host instead, for the sandbox's app id (`CenterBackend`); `app`
  /// must then be that id, else this throws, naming both.
  public convenience init(
    app: String, storePath: String? = nil, sink: SinkChoice = .auto, clock: any NotifyClock = SystemClock()
  ) throws(NotificationError) {
    do {
      let service = try Self.serviceClient(app: app)
      let path = storePath ?? Self.defaultStorePath()
      let store = try SQLiteStore(path: path)
      try self.init(app: app, store: store, sink: try sink.makeSink(), clock: clock, service: service)
    } catch {
      throw NotificationError(error)
    }
  }

  deinit {
    broadcaster.finish()
    // Its clicks would reach nobody once this process is gone: a running firer takes over.
    // Waited for: `notify now` exits right after.
    let sinks = self.sinks
    firer.owner.runBlocking { _ = sinks.leaveShownBubbles() }
  }

  /// `NOTIFY_DB` when set, else the XDG default, as the `notify` command resolves it.
  public static func defaultStorePath(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> String
  {
    if let path = environment["NOTIFY_DB"], !path.isEmpty { return path }
    return SQLiteStore.defaultPath(environment: environment)
  }

  /// The name of the sink deliveries go to (`stdout`, `desktop`, ...).
  public var sinkName: String { sinks.name }

  // MARK: Events

  /// Everything that happens to the app's notifications, kept answers first: the click that
  /// launched this process, the answers that waited in the store while no process of the app
  /// ran (oldest first), then deliveries, clicks, actions, replies and dismissals as they
  /// happen (`userNotificationCenter(_:willPresent:)` and `(_:didReceive:)` in one
  /// sequence). Each access subscribes from that moment; iterate it once. See
  /// `NotificationEvents`.
  public var events: NotificationEvents { NotificationEvents(center: self) }

  /// Records that the user invoked an action on a notification this app delivered (for
  /// apps that show notifications in their own UI), and publishes an `.activated` event.
  /// Returns false when the id is unknown. Throws `.notAvailable` inside a Flatpak sandbox
  /// whose center goes through notify's service.
  @discardableResult
  public func recordActivation(of id: String, actionKey: String = "default") async throws(NotificationError)
    -> Bool
  {
    try await backend.recordActivation(of: id, actionKey: actionKey)
  }

  /// Records that a notification this app delivered was closed, and publishes a
  /// `.dismissed` event. Returns false when the id is unknown. Throws `.notAvailable` inside
  /// a Flatpak sandbox whose center goes through notify's service.
  @discardableResult
  public func recordDismissal(of id: String, reason: String? = nil) async throws(NotificationError) -> Bool {
    try await backend.recordDismissal(of: id, reason: reason)
  }

  /// This process changed the store: its own firing loop does not hear its commits
  /// through the store watch (they are its own connection's), so wake it directly.
  func storeChanged() {
    ownStore.storeChanged()
  }

  /// Remembers and announces a delivery made by this process.
  func didDeliver(_ delivery: Delivery) {
    Self.announce(delivery, to: broadcaster, recent: recent)
  }

  /// Remembers a delivery (for later activations) and publishes its `.delivered` event.
  static func announce(_ delivery: Delivery, to broadcaster: EventBroadcaster, recent: RecentDeliveries) {
    recent.remember(delivery)
    broadcaster.publish(
      NotificationEvent(
        kind: .delivered, notification: delivery.notification, date: delivery.deliveredAt, delivery: delivery)
    )
  }
}

/// The notifications this process delivered lately, so that an activation reported
/// later can hand back the whole notification and its userInfo.
final class RecentDeliveries: Sendable {
  private struct Recent {
    var byID: [String: Delivery] = [:]
    var order: [String] = []
  }
  /// Shared by design: the owner remembers, the app's tasks look up.
  private let recent = Mutex(Recent())
  static let capacity = 256

  func remember(_ delivery: Delivery) {
    recent.withLock { recent in
      let id = delivery.notification.id
      if recent.byID.updateValue(delivery, forKey: id) == nil { recent.order.append(id) }
      if recent.order.count > Self.capacity { recent.byID.removeValue(forKey: recent.order.removeFirst()) }
    }
  }

  func notification(id: String) -> LocalNotification? { recent.withLock { $0.byID[id]?.notification } }

  /// The 1-based occurrence last delivered under `id`.
  func occurrence(id: String) -> Int? { recent.withLock { $0.byID[id]?.occurrence } }
}

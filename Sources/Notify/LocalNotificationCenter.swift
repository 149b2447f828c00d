import Foundation

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
/// try center.schedule(NotificationContent(body: "Stand up"), trigger: .after(.seconds(600)))
/// try center.present(NotificationContent(body: "SteveJ: Hello, world!", sound: .default, badge: 1))
/// for await event in center.events { print(event.kind, event.userInfo) }
/// ```
public final class LocalNotificationCenter: Sendable {
  /// The app whose notifications this center manages.
  public let app: String
  /// The store shared with the `notify` command and daemon.
  public let store: SQLiteStore
  /// The source of `now` and of the system time zone.
  public let clock: any NotifyClock

  let sink: SerializedSink
  let broadcaster: EventBroadcaster
  let recent: RecentDeliveries
  /// Fires the app's due notifications through the shared store.
  let firer: CenterFirer
  /// Records activations and dismissals.
  let interactions: InteractionRecorder
  /// Relays the desktop's answers while the service runs; nil for other sinks.
  let desktopRelay: DesktopEventRelay?
  /// Rung whenever this process changes the store, so the firing service re-arms at once.
  let storeChanged = Doorbell()

  /// Creates the center for `app` on an open store, delivering through `sink`.
  public init(
    app: String, store: SQLiteStore, sink: any DeliverySink, clock: any NotifyClock = SystemClock()
  ) throws(NotifyError) {
    try Validator.app(app)
    let serialized = SerializedSink(sink)
    let broadcaster = EventBroadcaster()
    let recent = RecentDeliveries()
    self.app = app
    self.store = store
    self.sink = serialized
    self.clock = clock
    self.broadcaster = broadcaster
    self.recent = recent
    let relay = DesktopEventRelay(sink: serialized)
    self.desktopRelay = relay
    self.firer = CenterFirer(app: app, store: store, sink: serialized, clock: clock) { delivery in
      LocalNotificationCenter.announce(delivery, to: broadcaster, recent: recent)
      relay?.nudge()
    }
    let interactions = InteractionRecorder(
      app: app, store: store, clock: clock, broadcaster: broadcaster, recent: recent)
    self.interactions = interactions
    if let desktop = sink as? DesktopSink {
      // Called from inside `processPending()`, under the sink's lock: record only.
      desktop.onEvent = { event in interactions.record(event) }
    }
  }

  /// Creates the center for `app`, opening the store at `storePath` (default: `NOTIFY_DB`,
  /// else `$XDG_STATE_HOME/notify/notify.db`) and choosing the sink as `notify --sink` does.
  public convenience init(
    app: String, storePath: String? = nil, sink: SinkChoice = .auto, clock: any NotifyClock = SystemClock()
  ) throws(NotifyError) {
    let path = storePath ?? Self.defaultStorePath()
    let store = try SQLiteStore(path: path)
    try self.init(app: app, store: store, sink: try sink.makeSink(store: store), clock: clock)
  }

  deinit { broadcaster.finish() }

  /// `NOTIFY_DB` when set, else the XDG default, as the `notify` command resolves it.
  public static func defaultStorePath(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> String
  {
    if let path = environment["NOTIFY_DB"], !path.isEmpty { return path }
    return SQLiteStore.defaultPath(environment: environment)
  }

  /// The name of the sink deliveries go to (`stdout`, `desktop`, ...).
  public var sinkName: String { sink.name }

  // MARK: Scheduling

  /// Schedules `content` to fire on `trigger`, replacing a pending notification with the
  /// same id. Returns the stored notification and those the 64-pending limit discarded
  /// to make room (each is recorded in history as `discarded`).
  ///
  /// Throws `.notTakenEffect` when the limit discards the new notification itself (64
  /// others fire sooner), and `.invalidData` when the content breaks a rule.
  @discardableResult
  public func schedule(_ content: NotificationContent, trigger: NotificationTrigger, id: String? = nil)
    throws(NotifyError) -> ScheduleOutcome
  {
    let now = clock.now()
    let id = id ?? Self.generateID()
    try Validator.id(id)
    let notification = try content.notification(
      id: id, app: app, schedule: try trigger.schedule(now: now), createdAt: now)
    let outcome = try store.schedule(notification, localZone: clock.localZone)
    storeChanged.ring()
    if outcome.newOneDiscarded {
      throw NotifyError(
        .notTakenEffect,
        "not scheduled: '\(id)' was discarded because \(PendingLimit.maximum) pending notifications of \(app) fire sooner",
        fix: "cancel some pending notifications, or schedule this one earlier")
    }
    return outcome
  }

  /// Delivers `content` at once through the sink (`presentLocalNotificationNow`), records
  /// it in history, applies its badge and publishes a `.delivered` event. Does not count
  /// toward the 64-pending limit. A sound file that is missing or invalid is replaced by
  /// the default sound, and the delivery says why (`soundRequested`, `soundNote`).
  @discardableResult
  public func present(_ content: NotificationContent, id: String? = nil) throws(NotifyError) -> Delivery {
    let now = clock.now()
    let id = id ?? Self.generateID()
    try Validator.id(id)
    let notification = try content.notification(
      id: id, app: app, schedule: Schedule(fireDate: .instant(now)), createdAt: now)
    var delivery = Delivery(
      notification: notification, occurrence: 1, fireDate: now, deliveredAt: now, late: false)
    // A missing or invalid sound file never loses the notification: the default plays.
    if case .file = notification.sound, let library = try? SoundLibrary(app: app) {
      delivery.apply(library.resolve(notification.sound))
    }
    try sink.deliver(delivery)
    try store.recordPresented(delivery)
    didDeliver(delivery)
    desktopRelay?.nudge()
    return delivery
  }

  /// Cancels the pending notifications with these ids; returns the ids that were not
  /// pending (the others are cancelled anyway).
  @discardableResult
  public func cancel(_ ids: [String]) throws(NotifyError) -> [String] {
    let missing = try store.cancel(app: app, ids: ids, at: clock.now())
    storeChanged.ring()
    return missing
  }

  /// Cancels the pending notification with this id; returns false when it was not pending.
  @discardableResult
  public func cancel(id: String) throws(NotifyError) -> Bool {
    try cancel([id]).isEmpty
  }

  /// Cancels every pending notification of the app; returns their ids.
  @discardableResult
  public func cancelAll() throws(NotifyError) -> [String] {
    let ids = try store.cancelAll(app: app, at: clock.now())
    storeChanged.ring()
    return ids
  }

  /// The app's pending notifications, soonest first, with their next fire instants.
  public func pending() throws(NotifyError) -> [StoredNotification] {
    try store.pending(app: app)
  }

  /// The app's most recent deliveries (by this app, the daemon or the command line),
  /// newest first.
  public func delivered(limit: Int = 64) throws(NotifyError) -> [HistoryEvent] {
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
  public func history(limit: Int = 64) throws(NotifyError) -> [HistoryEvent] {
    try store.history(app: app, limit: limit)
  }

  // MARK: Badge

  /// The app's badge number (`applicationIconBadgeNumber`); 0 when never set.
  public func badge() throws(NotifyError) -> Int {
    try store.badge(app: app) ?? 0
  }

  /// Sets the app's badge number; 0 clears it. With the desktop sink the count is also
  /// shown on the app's launcher (Unity LauncherEntry) while this process stays on the bus.
  public func setBadge(_ count: Int) throws(NotifyError) {
    try store.setBadge(app: app, count: count, at: clock.now())
    // The store is the record; a dock that cannot be reached is no reason to fail.
    sink.withSink { try? ($0 as? DesktopSink)?.publishBadge(app: app, count: count) }
  }

  // MARK: Events

  /// A new stream of what happens to the app's notifications from now on: deliveries by
  /// this process, and activations and dismissals reported by the sink or the app.
  /// Each access makes an independent subscription; stop iterating to end it.
  public var events: AsyncStream<NotificationEvent> { broadcaster.subscribe() }

  /// Records that the user invoked an action on a notification this app delivered (for
  /// apps that show notifications in their own UI), and publishes an `.activated` event.
  /// Returns false when the id is unknown.
  @discardableResult
  public func recordActivation(of id: String, actionKey: String = "default") throws(NotifyError) -> Bool {
    try interactions.record(.activated(actionKey: actionKey), id: id)
  }

  /// Records that a notification this app delivered was closed, and publishes a
  /// `.dismissed` event. Returns false when the id is unknown.
  @discardableResult
  public func recordDismissal(of id: String, reason: String? = nil) throws(NotifyError) -> Bool {
    try interactions.record(.dismissed(reason: reason), id: id)
  }

  /// Remembers and announces a delivery made by this process.
  func didDeliver(_ delivery: Delivery) {
    Self.announce(delivery, to: broadcaster, recent: recent)
  }

  /// Remembers a delivery (for later activations) and publishes its `.delivered` event.
  static func announce(_ delivery: Delivery, to broadcaster: EventBroadcaster, recent: RecentDeliveries) {
    recent.remember(delivery.notification)
    broadcaster.publish(
      NotificationEvent(
        kind: .delivered, notification: delivery.notification, date: delivery.deliveredAt, delivery: delivery)
    )
  }

  /// A short random id such as `n-3f9c0a12b7d4`, the same shape the command line generates.
  static func generateID() -> String {
    var generator = SystemRandomNumberGenerator()
    let hex = String(generator.next() & 0xFFFF_FFFF_FFFF, radix: 16)
    return "n-" + String(repeating: "0", count: 12 - hex.count) + hex
  }
}

/// The notifications this process delivered lately, so that an activation reported
/// later can hand back the whole notification and its userInfo.
final class RecentDeliveries: @unchecked Sendable {
  private let lock = NSLock()
  private var byID: [String: LocalNotification] = [:]
  private var order: [String] = []
  static let capacity = 256

  func remember(_ notification: LocalNotification) {
    lock.withLock {
      if byID.updateValue(notification, forKey: notification.id) == nil { order.append(notification.id) }
      if order.count > Self.capacity { byID.removeValue(forKey: order.removeFirst()) }
    }
  }

  func notification(id: String) -> LocalNotification? { lock.withLock { byID[id] } }
}

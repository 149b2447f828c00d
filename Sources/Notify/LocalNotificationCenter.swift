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
/// for await response in center.responses { print(response.kind, response.userInfo["room"]?.stringValue ?? "") }
/// ```
public final class LocalNotificationCenter: Sendable {
  /// The app whose notifications this center manages.
  public let app: String
  /// The store shared with the `notify` command and daemon.
  package let store: SQLiteStore
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
  /// Hears the service's signals for `events` and `responses` while the center lives.
  let serviceListener: SchedulerListener?

  /// Creates the center for `app` on an open store, delivering through `sink` (assembled
  /// as the `notify` command assembles its sinks: a `DesktopSink` gets the sound fallback
  /// and its answers go to history).
  ///
  /// With `service`, the app's API goes to notify's service instead of `store`
  /// (docs/sandboxes.md), and the service's signals reach `events` and `responses`.
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

  // MARK: Scheduling

  /// Schedules `content` to fire on `trigger`, replacing a pending notification with the
  /// same id. Returns the stored notification and those the 64-pending limit discarded
  /// to make room (each is recorded in history as `discarded`).
  ///
  /// Throws `.notTakenEffect` when the limit discards the new notification itself (64
  /// others fire sooner), and `.invalidData` when the content breaks a rule.
  @discardableResult
  package func schedule(_ content: NotificationContent, trigger: NotificationTrigger, id: String? = nil)
    throws(NotifyError) -> ScheduleOutcome
  {
    let outcome = try store(content, trigger: trigger, id: id)
    if outcome.newOneDiscarded { throw Self.discardedError(outcome) }
    return outcome
  }

  /// Stores `content` to fire on `trigger`, as `schedule` does, and returns the outcome
  /// even when the 64-pending limit discarded the new notification itself.
  func store(_ content: NotificationContent, trigger: NotificationTrigger, id: String?) throws(NotifyError)
    -> ScheduleOutcome
  {
    let now = clock.now()
    let schedule = try trigger.schedule(now: now, database: clock.zones.database)
    return try add(
      try content.checked(id: id, app: app, schedule: schedule, now: now), attaching: content.attachments)
  }

  /// Stores a notification built by the caller, replacing a pending one with the same id,
  /// and returns the outcome even when the 64-pending limit discarded the new one itself
  /// (`newOneDiscarded`; `schedule` throws `discardedError` then).
  package func add(_ notification: LocalNotification, attaching sources: [AttachmentSource] = [])
    throws(NotifyError) -> ScheduleOutcome
  {
    try belongsHere(notification)
    return try add(try CheckedNotification(notification), attaching: sources)
  }

  /// Stores a notification checked on its way in (`RequestCodec`), as `add(_:attaching:)`
  /// does, without checking it again.
  package func add(_ checked: CheckedNotification, attaching sources: [AttachmentSource] = [])
    throws(NotifyError) -> ScheduleOutcome
  {
    try belongsHere(checked.notification)
    let outcome = try store.schedule(checked, attaching: sources, zones: clock.zones)
    storeChanged()
    return outcome
  }

  /// Refuses a notification of another app than the center's.
  private func belongsHere(_ notification: LocalNotification) throws(NotifyError) {
    guard notification.app == app else {
      throw NotifyError(
        .invalidData, "the notification belongs to app '\(Escaper.visible(notification.app))', not '\(app)'",
        fix: "add it through that app's center")
    }
  }

  /// The error for a notification the 64-pending limit discarded as soon as it was stored.
  package static func discardedError(_ outcome: ScheduleOutcome) -> NotifyError {
    let n = outcome.stored.notification
    return NotifyError(
      .limitReached(id: n.id),
      "not scheduled: '\(Escaper.visible(n.id))' fires after all \(PendingLimit.maximum) pending notifications of app '\(n.app)' (the limit); it was recorded as discarded",
      fix: "cancel some of them, or schedule it sooner")
  }

  /// Delivers `content` at once through the sink (`presentLocalNotificationNow`), records
  /// it in history, applies its badge and publishes a `.delivered` event. Does not count
  /// toward the 64-pending limit. A sound file that is missing or invalid is replaced by
  /// the default sound, and the delivery says why (`soundRequested`, `soundNote`); where
  /// the notification server plays no sounds, the sound plays here. The user's settings
  /// apply (`notificationSettings()`); during quiet hours it is held instead (the returned
  /// delivery says `held`; history `held`) and shown when they end, unless it is critical or
  /// the app may break through.
  @discardableResult
  package func present(_ content: NotificationContent, id: String? = nil) throws(NotifyError) -> Delivery {
    let now = clock.now()
    return try present(
      try content.checked(id: id, app: app, schedule: Schedule(fireDate: .instant(now)), now: now),
      attaching: content.attachments)
  }

  /// Delivers a notification built and validated by the caller (the `notify` command) at
  /// once, as `present(_:id:)` does.
  @discardableResult
  package func present(_ notification: LocalNotification, attaching sources: [AttachmentSource] = [])
    throws(NotifyError) -> Delivery
  {
    try present(try CheckedNotification(notification), attaching: sources)
  }

  /// Delivers a notification checked on its way in at once, as `present(_:attaching:)` does.
  @discardableResult
  package func present(_ checked: CheckedNotification, attaching sources: [AttachmentSource] = [])
    throws(NotifyError) -> Delivery
  {
    let notification = checked.notification
    let delivery = try showing(checked, attaching: sources) { kept throws(NotifyError) in
      // The firer's own hand-off path, on the owner of the sinks: the same preparation as a
      // fired notification, and its sink announces the delivery. The bubble it replaces is
      // read here (a fired one gets it with its claim).
      let firer = self.firer
      let bubble =
        sinks.desktop == nil ? nil : try store.desktopServerID(app: notification.app, id: notification.id)
      return try firer.owner.runBlocking { () throws(NotifyError) in
        try firer.firer.present(kept, replacing: bubble)
      }
    }
    runningLoop.value?.nudge()
    return delivery
  }

  /// Runs `show`, a hand-off of `notification` now, with copies of `sources` kept and named
  /// first (the server reads the file as it shows the bubble), and removed again when it
  /// fails: `present`, and the D-Bus service's `Present` through the daemon's firer.
  package func showing<T>(
    _ checked: CheckedNotification, attaching sources: [AttachmentSource],
    _ show: (LocalNotification) throws(NotifyError) -> T
  ) throws(NotifyError) -> T {
    let kept = try store.keep(sources, for: checked).notification
    AttachmentFolder.commit(kept.attachments)
    do {
      return try show(kept)
    } catch {
      AttachmentFolder.discard(kept.attachments)
      throw error
    }
  }

  /// Cancels the pending notifications with these ids, and what quiet hours hold of them
  /// (`held()`); returns the ids that were neither (the others are cancelled anyway).
  @discardableResult
  package func cancel(_ ids: [String]) throws(NotifyError) -> [String] {
    let missing = try store.cancel(app: app, ids: ids, at: clock.now())
    storeChanged()
    store.sweepAttachments()
    return missing
  }

  /// Cancels the pending notification with this id, and what quiet hours hold of it; returns
  /// false when it was neither.
  @discardableResult
  package func cancel(id: String) throws(NotifyError) -> Bool {
    try cancel([id]).isEmpty
  }

  /// Cancels every pending notification of the app, and everything quiet hours hold of it;
  /// returns their ids.
  @discardableResult
  package func cancelAll() throws(NotifyError) -> [String] {
    let ids = try store.cancelAll(app: app, at: clock.now())
    storeChanged()
    store.sweepAttachments()
    return ids
  }

  /// The app's pending notifications, soonest first, with their next fire instants as
  /// they will fire in the zones of now (also after the system zone moved).
  package func pending() throws(NotifyError) -> [StoredNotification] {
    StoredNotification.current(try store.pending(app: app), in: clock.zones)
  }

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

  // MARK: Badge

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

  // MARK: Events

  /// A new stream of what happens to the app's notifications from now on: deliveries by
  /// this process, and activations and dismissals reported by the sink or the app.
  /// Each access makes an independent subscription; stop iterating to end it.
  public var events: AsyncStream<NotificationEvent> { broadcaster.subscribe() }

  /// Records that the user invoked an action on a notification this app delivered (for
  /// apps that show notifications in their own UI), and publishes an `.activated` event.
  /// Returns false when the id is unknown.
  @discardableResult
  public func recordActivation(of id: String, actionKey: String = "default") async throws(NotificationError)
    -> Bool
  {
    if service != nil { throw Self.recordingNotAvailable("recordActivation(of:actionKey:)") }
    let interactions = self.interactions
    return try await calls.run { () throws(NotifyError) in
      try interactions.record(.activated(actionKey: actionKey), id: id)
    }
  }

  /// Records that a notification this app delivered was closed, and publishes a
  /// `.dismissed` event. Returns false when the id is unknown.
  @discardableResult
  public func recordDismissal(of id: String, reason: String? = nil) async throws(NotificationError) -> Bool {
    if service != nil { throw Self.recordingNotAvailable("recordDismissal(of:reason:)") }
    let interactions = self.interactions
    return try await calls.run { () throws(NotifyError) in
      try interactions.record(.dismissed(reason: reason), id: id)
    }
  }

  /// Why `call` cannot be made through notify's service.
  static func recordingNotAvailable(_ call: String) -> NotificationError {
    NotificationError(
      NotifyError(
        .notAvailableInSandbox,
        "\(call) is not available inside a Flatpak sandbox whose center goes through notify's service: the service records only what the notification server reports (clicks, buttons, replies, closes), so that one app cannot write another's history; show the notification through add(_:) and its answer comes to responses"
      ))
  }

  /// This process changed the store: its own firing loop does not hear its commits
  /// through the store watch (they are its own connection's), so wake it directly.
  func storeChanged() {
    runningLoop.value?.nudge()
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

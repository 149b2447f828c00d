import Foundation
import NotifyCore
import NotifyDesktop
import NotifyFiring
import NotifyStore
import NotifyZones

/// The center's calls on its own store (`CenterBackend.ownStore`), the one the `notify`
/// command and daemon share. Its blocking members are what the `notify` command, the D-Bus
/// service and the tests do for one app (`LocalNotificationCenter.ownStore`); the center's
/// `async` API reaches them through `CenterCalls` (`OwnStoreBackend+Calls.swift`), so an app
/// and the command take one path.
///
/// A call that reaches the sinks or the firer (presenting, withdrawing, the badge, delivering
/// what is due) runs on the center's owner (`SinkOwner`); the others, called from the async
/// API, on the center's `BlockingCallQueue`.
package final class OwnStoreBackend: Sendable {
  /// The app whose notifications these are.
  package let app: String
  /// The store shared with the `notify` command and daemon.
  package let store: SQLiteStore
  /// The source of `now` and of the system time zone.
  let clock: any NotifyClock
  /// The center's sinks; used only on the owner (`firer.owner`).
  let sinks: SinkAssembly
  /// The center's firer and its owner.
  let firer: OwnedFirer
  /// Records activations and dismissals.
  let interactions: InteractionRecorder
  /// The center's firing loop's control while its firing service runs.
  let runningLoop: Locked<FiringLoopControl?>
  /// Where the async calls run their blocking work.
  let calls: BlockingCallQueue

  init(
    app: String, store: SQLiteStore, clock: any NotifyClock, sinks: SinkAssembly, firer: OwnedFirer,
    interactions: InteractionRecorder, runningLoop: Locked<FiringLoopControl?>, calls: BlockingCallQueue
  ) {
    self.app = app
    self.store = store
    self.clock = clock
    self.sinks = sinks
    self.firer = firer
    self.interactions = interactions
    self.runningLoop = runningLoop
    self.calls = calls
  }

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
    try add(
      try content.checked(id: id, app: app, trigger: trigger, clock: clock), attaching: content.attachments)
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
    try present(
      try content.checked(id: id, app: app, trigger: nil, clock: clock), attaching: content.attachments)
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
    storeChanged()
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

  /// This process changed the store: its own firing loop does not hear its commits
  /// through the store watch (they are its own connection's), so wake it directly.
  func storeChanged() {
    runningLoop.value?.nudge()
  }
}

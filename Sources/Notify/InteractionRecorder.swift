import Foundation

/// Turns what the user did with a notification (opened it, closed it) into a history
/// event and a `NotificationEvent`, whether the desktop sink or the app's own UI reports it.
struct InteractionRecorder: Sendable {
  let app: String
  let store: SQLiteStore
  let clock: any NotifyClock
  let broadcaster: EventBroadcaster
  let recent: RecentDeliveries

  /// Records and publishes `kind` for the notification `id`. `fallback` stands in when
  /// the notification is neither remembered nor in the store; returns false when there
  /// is nothing to stand for it.
  @discardableResult
  func record(_ kind: NotificationEvent.Kind, id: String, fallback: LocalNotification? = nil)
    throws(NotifyError) -> Bool
  {
    var known = recent.notification(id: id)
    if known == nil { known = try store.notification(app: app, id: id)?.notification }
    guard let notification = known ?? fallback else { return false }
    let now = clock.now()
    let (historyKind, reason): (HistoryEvent.Kind, String?) =
      switch kind {
      case .delivered: (.delivered, nil)
      case .activated(let key): (.activated, key)
      case .dismissed(let why): (.dismissed, why)
      }
    try store.record(HistoryEvent(at: now, app: app, notificationID: id, kind: historyKind, reason: reason))
    broadcaster.publish(NotificationEvent(kind: kind, notification: notification, date: now))
    return true
  }

  /// Records an activation or dismissal the desktop reported; events of other apps'
  /// notifications (shown by another center on the same sink) are left to them.
  func record(_ event: DesktopEvent) {
    guard event.app == app else { return }
    let kind: NotificationEvent.Kind =
      switch event.kind {
      case .activated(let key): .activated(actionKey: key)
      case .dismissed(let reason): .dismissed(reason: reason.historyName)
      }
    let fallback = LocalNotification(
      id: event.id, app: event.app, schedule: Schedule(fireDate: .instant(clock.now())),
      launchImage: event.launchImage, userInfo: event.userInfo, deliveredCount: event.occurrence,
      createdAt: clock.now())
    // Nobody to report a failure to from inside the bus callback; the event is still
    // published when history cannot be written.
    do {
      try record(kind, id: event.id, fallback: fallback)
    } catch {
      broadcaster.publish(NotificationEvent(kind: kind, notification: fallback, date: clock.now()))
    }
  }
}

extension DismissReason {
  /// The reason as history records it.
  var historyName: String {
    switch self {
    case .expired: "expired"
    case .dismissedByUser: "dismissed-by-user"
    case .closedByCall: "closed-by-call"
    case .undefined: "undefined"
    }
  }
}

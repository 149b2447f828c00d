import Foundation
import NotifyCore
import NotifyDesktop
import NotifyFiring
import NotifySound
import NotifyStore
import NotifyZones

/// Turns what the user did with a notification (opened it, closed it) into a history
/// event and a `NotificationEvent`, whether the desktop reported it or the app's own UI.
struct InteractionRecorder: Sendable {
  let app: String
  let store: SQLiteStore
  let clock: any NotifyClock
  let broadcaster: EventBroadcaster
  let recent: RecentDeliveries

  /// Records and publishes `kind` for the notification `id`, reported by the app's own UI;
  /// returns false when the id is neither remembered nor in the store (unless
  /// `evenIfUnknown`: a withdrawn notification was on screen, whoever showed it).
  @discardableResult
  func record(_ kind: NotificationEvent.Kind, id: String, evenIfUnknown: Bool = false) throws(NotifyError)
    -> Bool
  {
    var known = recent.notification(id: id)
    if known == nil { known = try store.notification(app: app, id: id)?.notification }
    let now = clock.now()
    if known == nil, evenIfUnknown {
      known = LocalNotification(id: id, app: app, schedule: Schedule(fireDate: .instant(now)), createdAt: now)
    }
    guard let notification = known else { return false }
    try store.record(
      .interaction(
        kind.history.kind, reason: kind.history.reason, app: app, id: id,
        occurrence: recent.occurrence(id: id),
        userInfo: notification.userInfo, at: now))
    broadcaster.publish(NotificationEvent(kind: kind, notification: notification, date: now))
    return true
  }

  /// Publishes an activation or dismissal the desktop reported (`SinkAssembly` has
  /// recorded it in history already); other apps' events are left to them.
  func publish(_ event: DesktopEvent) {
    guard event.app == app else { return }
    let kind: NotificationEvent.Kind =
      switch event.kind {
      case .activated(let key): .activated(actionKey: key)
      case .dismissed(let reason): .dismissed(reason: reason.name)
      }
    let now = clock.now()
    let notification = recent.notification(id: event.id) ?? event.shownNotification(at: now)
    broadcaster.publish(
      NotificationEvent(
        kind: kind, notification: notification, date: now,
        userText: event.userText.map { NotificationResponse.keptReply($0).text }))
  }
}
